/**
 * One `SendInvoices` call to AADE's myDATA REST API and what its answer means for a receipt.
 * The answer is AADE's ResponseDoc (one `response` per document, in order): `Success` with
 * invoiceUid, invoiceMark and qrUrl, or `errors` (code and message each). What can be tried
 * again (no answer, a cut connection, 429, 5xx) is told apart from a refusal, which cannot.
 *
 * A document AADE already holds (a retry after an answer that was lost on the way) is
 * answered with error 228 naming the MARK it was registered under ("… has already been sent
 * … (MARK:400001… , …)"); that answer counts as registered under that MARK
 * (docs/rules.md, AADE's myDATA); its QR URL is then looked up with `RequestTransmittedDocs`, which
 * answers the documents registered between two MARKs as they were sent (with `qrCodeUrl`).
 */

export interface AadeCredentials {
  userId: string;
  subscriptionKey: string;
}

export type SendOutcome =
  | { kind: 'registered'; uid: string | null; mark: string; qrUrl: string | null }
  /** AADE already holds this document: registered earlier under `mark`. */
  | { kind: 'duplicate'; mark: string }
  | { kind: 'refused'; code: string; message: string }
  /** Nothing is known to have happened: try again later (`retryAfterSeconds` when AADE said). */
  | { kind: 'retry'; reason: string; retryAfterSeconds?: number };

const SEND_TIMEOUT_MS = 30_000;

const unescapeXml = (v: string) =>
  v
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, '&');

const tag = (xml: string, name: string): string | null => {
  const m = new RegExp(`<(?:\\w+:)?${name}(?:\\s[^>]*)?>([\\s\\S]*?)</(?:\\w+:)?${name}>`).exec(xml);
  return m ? unescapeXml(m[1]!.trim()) : null;
};

/** AADE's duplicate answer: the document is registered already, under this MARK. */
const DUPLICATE = /already been sent[\s\S]*?MARK\s*:\s*(\d+)/i;

/** Reads the first `response` of a ResponseDoc. */
export function readResponseDoc(xml: string): SendOutcome {
  const response = /<(?:\w+:)?response>([\s\S]*?)<\/(?:\w+:)?response>/.exec(xml)?.[1];
  if (!response) return { kind: 'retry', reason: 'AADE answered without a response' };
  const status = tag(response, 'statusCode') ?? '';
  const mark = tag(response, 'invoiceMark');
  if (status === 'Success' && mark) return { kind: 'registered', uid: tag(response, 'invoiceUid'), mark, qrUrl: tag(response, 'qrUrl') };
  const errors = [...response.matchAll(/<(?:\w+:)?error>([\s\S]*?)<\/(?:\w+:)?error>/g)].map((m) => ({
    code: tag(m[1]!, 'code') ?? '',
    message: tag(m[1]!, 'message') ?? '',
  }));
  for (const e of errors) {
    const duplicate = DUPLICATE.exec(e.message);
    if (duplicate) return { kind: 'duplicate', mark: duplicate[1]! };
  }
  if (status === 'TechnicalError') return { kind: 'retry', reason: errors.map((e) => `${e.code} ${e.message}`).join('; ') || status };
  if (!errors.length) return { kind: 'refused', code: status || 'unknown', message: status || 'AADE refused the document' };
  return { kind: 'refused', code: errors.map((e) => e.code).join(', '), message: errors.map((e) => e.message).join(' · ') };
}

/** Sends one InvoicesDoc to `${baseUrl}/SendInvoices`. Never throws. */
export async function sendInvoices(baseUrl: string, credentials: AadeCredentials, xml: string): Promise<SendOutcome> {
  let res: Response;
  let body: string;
  try {
    res = await fetch(`${baseUrl.replace(/\/+$/, '')}/SendInvoices`, {
      method: 'POST',
      headers: {
        'content-type': 'application/xml; charset=utf-8',
        'aade-user-id': credentials.userId,
        'ocp-apim-subscription-key': credentials.subscriptionKey,
      },
      body: xml,
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    body = await res.text();
  } catch (error) {
    return {
      kind: 'retry',
      reason: `no answer from AADE (${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)})`,
    };
  }
  if (res.status === 429 || res.status >= 500) {
    const after = Number(res.headers.get('retry-after'));
    return { kind: 'retry', reason: `AADE answered ${res.status}`, ...(Number.isFinite(after) && after > 0 ? { retryAfterSeconds: after } : {}) };
  }
  if (res.status === 401 || res.status === 403) {
    let message = `AADE refused the centre's credentials (${res.status})`;
    try {
      const parsed = JSON.parse(body) as { message?: unknown };
      if (typeof parsed.message === 'string') message = parsed.message;
    } catch {
      // not JSON: keep the plain message
    }
    return { kind: 'refused', code: String(res.status), message };
  }
  if (res.status !== 200) return { kind: 'refused', code: String(res.status), message: body.slice(0, 500) || `AADE answered ${res.status}` };
  return readResponseDoc(body);
}

/**
 * The QR URL AADE gave the document registered under `mark`, from `RequestTransmittedDocs`
 * (the documents after mark - 1 up to mark). Null when it cannot be had; never throws.
 */
export async function lookupQrUrl(baseUrl: string, credentials: AadeCredentials, mark: string): Promise<string | null> {
  try {
    const before = (BigInt(mark) - 1n).toString();
    const res = await fetch(`${baseUrl.replace(/\/+$/, '')}/RequestTransmittedDocs?mark=${before}&maxMark=${mark}`, {
      headers: { 'aade-user-id': credentials.userId, 'ocp-apim-subscription-key': credentials.subscriptionKey },
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    if (res.status !== 200) return null;
    const body = await res.text();
    for (const m of body.matchAll(/<(?:\w+:)?invoice>([\s\S]*?)<\/(?:\w+:)?invoice>/g)) {
      if (tag(m[1]!, 'mark') === mark) return tag(m[1]!, 'qrCodeUrl');
    }
    return null;
  } catch {
    return null;
  }
}
