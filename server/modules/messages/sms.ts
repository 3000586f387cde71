/**
 * The SMS provider: a Twilio-compatible Messages API at SMS_URL. A message is
 * `POST {SMS_URL}/2010-04-01/Accounts/{SMS_ACCOUNT}/Messages.json` with the form fields To
 * (E.164), From (the centre's sender name), Body and StatusCallback (our delivery-report route
 * on the centre's host), basic auth SMS_ACCOUNT:SMS_TOKEN. Delivery reports come back signed:
 * `X-Twilio-Signature` is the base64 HMAC-SHA1, keyed with SMS_TOKEN, of the full URL followed
 * by each POST parameter's name and value, sorted by name (Twilio's documented algorithm).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SmsSettings {
  url: string;
  account: string;
  token: string;
}

export interface SmsRequest {
  to: string;
  from: string;
  body: string;
  statusCallback?: string;
}

/**
 * Why a send did not succeed, and whether it may have left anyway: `refused` (the provider
 * answered no: 4xx other than 429 is final, 5xx and 429 are tried again), `unreached` (no
 * connection was made: tried again), `unknown` (the request went and no answer came back: it
 * may have been sent, so it is not sent again).
 */
export class SmsError extends Error {
  constructor(
    message: string,
    readonly outcome: 'refused' | 'unreached' | 'unknown',
    readonly retry: boolean,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** How long a send may take before its outcome is unknown. */
const SEND_TIMEOUT_MS = 20_000;
/** Errors of a connection that never carried the request. */
const UNREACHED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Sends one SMS; answers the provider's id of it. */
export async function sendSms(settings: SmsSettings, message: SmsRequest): Promise<{ id: string; status: string }> {
  const form = new URLSearchParams({ To: message.to, From: message.from, Body: message.body });
  if (message.statusCallback) form.set('StatusCallback', message.statusCallback);
  const url = `${settings.url}/2010-04-01/Accounts/${encodeURIComponent(settings.account)}/Messages.json`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${settings.account}:${settings.token}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code && UNREACHED.has(code)) throw new SmsError(`SMS provider not reached (${code})`, 'unreached', true);
    throw new SmsError(`SMS provider did not answer: ${error instanceof Error ? error.message : String(error)}`, 'unknown', false);
  }
  const text = await response.text().catch(() => '');
  let answer: { sid?: string; status?: string; code?: number | string; message?: string } = {};
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    // a provider's error page: its status says enough
  }
  if (!response.ok) {
    const retry = response.status === 429 || response.status >= 500;
    throw new SmsError(
      `SMS refused (${response.status})${answer.message ? `: ${answer.message}` : ''}`,
      'refused',
      retry,
      answer.code === undefined ? undefined : String(answer.code),
    );
  }
  if (!answer.sid) throw new SmsError('SMS provider answered without a message id', 'unknown', false);
  return { id: answer.sid, status: answer.status ?? 'queued' };
}

/** The signature a report to `url` with `params` carries (Twilio's algorithm). */
export function reportSignature(token: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, key) => acc + key + params[key], url);
  return createHmac('sha1', token).update(data, 'utf8').digest('base64');
}

/** Whether `signature` is the one of a report to any of `urls` with `params`. */
export function signedReport(token: string, urls: readonly string[], params: Record<string, string>, signature: string | undefined): boolean {
  if (!signature) return false;
  const given = Buffer.from(signature);
  return urls.some((url) => {
    const expected = Buffer.from(reportSignature(token, url, params));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

/** What a sender name may be: 1-11 Latin letters, digits and spaces, at least one letter (networks refuse others). */
export const SENDER_PATTERN = /^(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11}$/;

const LATIN: Record<string, string> = Object.fromEntries(
  [...'αβγδεζηθικλμνξοπρσςτυφχψω'].map((c, i) => [
    c,
    ['a', 'v', 'g', 'd', 'e', 'z', 'i', 'th', 'i', 'k', 'l', 'm', 'n', 'x', 'o', 'p', 'r', 's', 's', 't', 'y', 'f', 'ch', 'ps', 'o'][i]!,
  ]),
);

/** The sender name a centre's SMS carry: its setting, else its name in Latin letters cut to 11. */
export function senderOf(setting: string | null | undefined, centreName: string): string {
  if (setting && SENDER_PATTERN.test(setting)) return setting;
  const latin = [...centreName.normalize('NFD').replace(/\p{M}/gu, '')]
    .map((c) => {
      const lower = c.toLowerCase();
      const l = LATIN[lower];
      if (l === undefined) return /[A-Za-z0-9 ]/.test(c) ? c : '';
      return c === lower ? l : l[0]!.toUpperCase() + l.slice(1);
    })
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 11)
    .trim();
  return SENDER_PATTERN.test(latin) ? latin : 'Frontis';
}
