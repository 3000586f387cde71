// A Twilio-compatible Messages API on a free local port, as the tests' SMS provider: it takes
// `POST /2010-04-01/Accounts/<account>/Messages.json` with basic auth and the form fields To,
// From, Body, StatusCallback, and refuses (400, Twilio's error shape) what a real one would, or
// what a notice must never be: To not E.164, From longer than 11 characters or of characters a
// network refuses, a Body over `maxSegments` segments (counted here on its own, not with the
// server's counter). It keeps what it accepted and what it refused, and can sign delivery
// reports as Twilio does (HMAC-SHA1 over the URL and the sorted parameters, base64).
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Sms {
  sid: string;
  to: string;
  from: string;
  body: string;
  statusCallback: string | undefined;
}

export interface SmsStandIn {
  url: string;
  account: string;
  token: string;
  /** Accepted messages, in order. */
  sent: Sms[];
  /** Requests refused, with why. */
  refused: string[];
  /** Every request that reached it (accepted, refused or held). */
  requests: number;
  /** The next N requests are answered with this status (a provider's refusal). */
  failNext(count: number, status: number, code?: number): void;
  /** The next request is taken and never answered (the sender can't know whether it went). */
  holdNext(): void;
  /** A delivery report of `sid` as the provider would post it: its form body and signature for `url`. */
  report(sid: string, status: string, extra?: Record<string, string>, url?: string): { url: string; body: string; signature: string };
  close(): Promise<void>;
}

/** GSM 03.38, basic and extension: a text of these goes 7 bits a character. */
const GSM = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà^{}\\[~]|€\f',
);
const EXT = new Set('^{}\\[~]|€\f');

export function segmentsOf(body: string): number {
  const gsm = [...body].every((c) => GSM.has(c));
  const units = gsm ? [...body].reduce((n, c) => n + (EXT.has(c) ? 2 : 1), 0) : body.length;
  const [single, part] = gsm ? [160, 153] : [70, 67];
  return units <= single ? 1 : Math.ceil(units / part);
}

export function signature(token: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, k) => acc + k + params[k], url);
  return createHmac('sha1', token).update(data, 'utf8').digest('base64');
}

export async function startSmsStandIn(options: { maxSegments?: number } = {}): Promise<SmsStandIn> {
  const maxSegments = options.maxSegments ?? 2;
  const account = `AC${randomBytes(16).toString('hex')}`;
  const token = randomBytes(16).toString('hex');
  const sent: Sms[] = [];
  const refused: string[] = [];
  let failing: { count: number; status: number; code: number } | null = null;
  let hold = false;
  const held: ServerResponse[] = [];
  const state = { requests: 0 };

  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const refuse = (res: ServerResponse, status: number, code: number, message: string) => {
    refused.push(message);
    answer(res, status, { code, message, status });
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      raw += c;
    });
    req.on('end', () => {
      state.requests++;
      if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${account}/Messages.json`)
        return refuse(res, 404, 20404, `not found: ${req.method} ${req.url}`);
      if (req.headers.authorization !== `Basic ${Buffer.from(`${account}:${token}`).toString('base64')}`) return refuse(res, 401, 20003, 'authenticate');
      if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) return refuse(res, 400, 21000, 'not a form');
      if (hold) {
        hold = false;
        held.push(res);
        return;
      }
      if (failing && failing.count > 0) {
        failing.count--;
        return refuse(res, failing.status, failing.code, `failing on purpose (${failing.status})`);
      }
      const form = new URLSearchParams(raw);
      const to = form.get('To') ?? '';
      const from = form.get('From') ?? '';
      const body = form.get('Body') ?? '';
      const callback = form.get('StatusCallback') ?? undefined;
      if (!/^\+[1-9][0-9]{7,14}$/.test(to)) return refuse(res, 400, 21211, `To is not E.164: ${to}`);
      if (!from || from.length > 11 || !/^[A-Za-z0-9 ]+$/.test(from) || !/[A-Za-z]/.test(from))
        return refuse(res, 400, 21212, `From is not a sender name: ${from}`);
      if (!body) return refuse(res, 400, 21602, 'Body is required');
      if (segmentsOf(body) > maxSegments) return refuse(res, 400, 21617, `Body takes ${segmentsOf(body)} segments: ${body}`);
      if (callback !== undefined && !/^https?:\/\//.test(callback)) return refuse(res, 400, 21609, `StatusCallback is no URL: ${callback}`);
      const sid = `SM${randomBytes(16).toString('hex')}`;
      sent.push({ sid, to, from, body, statusCallback: callback });
      answer(res, 201, { sid, status: 'queued', to, from, body, account_sid: account });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    account,
    token,
    sent,
    refused,
    get requests() {
      return state.requests;
    },
    failNext(count, status, code = 20500) {
      failing = { count, status, code };
    },
    holdNext() {
      hold = true;
    },
    report(sid, status, extra = {}, url) {
      const message = sent.find((m) => m.sid === sid);
      const target = url ?? message?.statusCallback;
      if (!target) throw new Error(`no callback for ${sid}`);
      const params: Record<string, string> = { AccountSid: account, MessageSid: sid, SmsSid: sid, MessageStatus: status, To: message?.to ?? '', ...extra };
      return { url: target, body: new URLSearchParams(params).toString(), signature: signature(token, target, params) };
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
