// A local stand-in for AADE's myDATA REST API, started by tests: it checks the headers
// (aade-user-id, ocp-apim-subscription-key), validates the body of SendInvoices against AADE's
// InvoicesDoc schema (xmllint), registers each document under the UID AADE derives from it
// and answers a ResponseDoc as AADE's response-v2.0.1.xsd describes (invoiceUid, invoiceMark,
// qrUrl, statusCode; or errors with code and message). A test can make it answer the next
// requests with 429, 500, a dropped connection (before or after registering the document), or
// a refusal; a document sent again is answered as AADE answers a duplicate (error 228 naming the
// MARK it was registered under), so "never register one receipt twice" is checked by what
// it registered. RequestTransmittedDocs answers the registered documents between two MARKs
// with their uid, mark and qrCodeUrl.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const XSD_DIR = fileURLToPath(new URL('../../../server/modules/aade/xsd/', import.meta.url));
const INVOICES_XSD = `${XSD_DIR}InvoicesDoc-v2.0.1.xsd`;
export const RESPONSE_XSD = `${XSD_DIR}response-v2.0.1.xsd`;

/** xmllint's complaints about `xml` against the schema; empty when it validates. */
export function validateXml(xml: string, schema: string = INVOICES_XSD): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = execFile('xmllint', ['--noout', '--nonet', '--schema', schema, '-'], { maxBuffer: 8 << 20 }, (error, _stdout, stderr) => {
      if (error && typeof error.code !== 'number') return reject(error);
      const lines = stderr
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !/ validates$/.test(l));
      resolve(error ? (lines.length ? lines : [`xmllint exited ${String(error.code)}`]) : []);
    });
    child.stdin!.end(xml);
  });
}

type Behaviour =
  | { kind: 'status'; status: 429 | 500 | 502 | 503 }
  /** The connection is cut before the document is registered. */
  | { kind: 'drop' }
  /** The document is registered, then the connection is cut: the answer is lost. */
  | { kind: 'drop-after-register' }
  /** The document is refused with AADE's error. */
  | { kind: 'refuse'; code: string; message: string };

export interface Registered {
  uid: string;
  mark: string;
  qrUrl: string;
  userId: string;
  invoiceType: string;
  series: string;
  aa: string;
  correlated: string[];
  xml: string;
}

export interface AadeStandIn {
  url: string;
  /** Every SendInvoices request that reached it (also the refused ones). */
  requests: { userId: string | undefined; body: string; status: number }[];
  /** Documents registered, one per UID. */
  registered: Registered[];
  /** The query strings of RequestTransmittedDocs calls. */
  lookups: string[];
  /** Queues what the next SendInvoices requests meet, in order. */
  next(...behaviours: Behaviour[]): void;
  /** Answers every SendInvoices this much later (AADE's own latency), so concurrent senders overlap. */
  delay(ms: number): void;
  /** Refuses every document `match` picks (by series and number), with this error. */
  refuseWhen(match: (doc: { series: string; aa: string }) => boolean, code: string, message: string): void;
  close(): Promise<void>;
}

const escape = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const tag = (xml: string, name: string) => new RegExp(`<(?:\\w+:)?${name}>([^<]*)</(?:\\w+:)?${name}>`).exec(xml)?.[1] ?? '';
const unescape = (v: string) =>
  v
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** AADE's UID of a document: SHA-1 of issuer ΑΦΜ, issue date, branch, type, series and number, in upper-case hex. */
export function aadeUid(vat: string, issueDate: string, branch: string, invoiceType: string, series: string, aa: string): string {
  return createHash('sha1').update(`${vat}-${issueDate}-${branch}-${invoiceType}-${series}-${aa}`, 'utf8').digest('hex').toUpperCase();
}

function responseDoc(items: string[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<ResponseDoc xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">${items.join('')}</ResponseDoc>`;
}
const errorsItem = (index: number, statusCode: string, errors: { code: string; message: string }[]) =>
  `<response><index>${index}</index><errors>${errors
    .map((e) => `<error><message>${escape(e.message)}</message><code>${escape(e.code)}</code></error>`)
    .join('')}</errors><statusCode>${statusCode}</statusCode></response>`;

export async function startAadeStandIn(credentials: Record<string, string>): Promise<AadeStandIn> {
  const requests: AadeStandIn['requests'] = [];
  const registered: Registered[] = [];
  const lookups: string[] = [];
  const queue: Behaviour[] = [];
  const refusals: { match: (doc: { series: string; aa: string }) => boolean; code: string; message: string }[] = [];
  let nextMark = 400001000000001n;
  let latency = 0;
  let base = '';

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });

  const send = (res: ServerResponse, status: number, body: string, type = 'application/xml; charset=utf-8') => {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };

  async function sendInvoices(req: IncomingMessage, res: ServerResponse) {
    const body = await readBody(req);
    if (latency) await new Promise((r) => setTimeout(r, latency));
    const userId = req.headers['aade-user-id'] as string | undefined;
    const key = req.headers['ocp-apim-subscription-key'] as string | undefined;
    const log = (status: number) => requests.push({ userId, body, status });
    if (!userId || !key || credentials[userId] !== key) {
      log(401);
      return send(res, 401, JSON.stringify({ statusCode: 401, message: 'Access denied due to invalid subscription key or user id.' }), 'application/json');
    }
    const behaviour = queue.shift();
    if (behaviour?.kind === 'status') {
      log(behaviour.status);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (behaviour.status === 429) headers['retry-after'] = '1';
      res.writeHead(behaviour.status, headers);
      return res.end(
        JSON.stringify({ statusCode: behaviour.status, message: behaviour.status === 429 ? 'Rate limit is exceeded.' : 'Internal server error.' }),
      );
    }
    if (behaviour?.kind === 'drop') {
      log(0);
      return req.socket.destroy();
    }
    const problems = await validateXml(body);
    if (problems.length) {
      log(200);
      return send(res, 200, responseDoc([errorsItem(1, 'XMLSyntaxError', [{ code: '101', message: problems.join(' ') }])]));
    }
    const invoices = body.match(/<invoice>[\s\S]*?<\/invoice>/g) ?? [];
    const items = invoices.map((xml, i) => {
      const doc = {
        vat: tag(xml, 'vatNumber'),
        branch: tag(xml, 'branch'),
        series: unescape(tag(xml, 'series')),
        aa: unescape(tag(xml, 'aa')),
        issueDate: tag(xml, 'issueDate'),
        invoiceType: tag(xml, 'invoiceType'),
      };
      const refusal = behaviour?.kind === 'refuse' ? behaviour : refusals.find((r) => r.match(doc));
      if (refusal) return errorsItem(i + 1, 'ValidationError', [{ code: refusal.code, message: refusal.message }]);
      const uid = aadeUid(doc.vat, doc.issueDate, doc.branch, doc.invoiceType, doc.series, doc.aa);
      const earlier = registered.find((r) => r.uid === uid);
      if (earlier) {
        return errorsItem(i + 1, 'ValidationError', [
          { code: '228', message: `The UID: ${uid} is invalid . It has already been sent for another invoice (MARK:${earlier.mark} , AUTHENTICATION_CODE:)` },
        ]);
      }
      const mark = String(nextMark++);
      const qrUrl = `${base}/TimologioQR/QRInfo?q=${uid}${mark}`;
      const correlated = [...xml.matchAll(/<correlatedInvoices>(\d+)<\/correlatedInvoices>/g)].map((m) => m[1]!);
      registered.push({ uid, mark, qrUrl, userId, invoiceType: doc.invoiceType, series: doc.series, aa: doc.aa, correlated, xml });
      return `<response><index>${i + 1}</index><invoiceUid>${uid}</invoiceUid><invoiceMark>${mark}</invoiceMark><qrUrl>${escape(qrUrl)}</qrUrl><statusCode>Success</statusCode></response>`;
    });
    if (behaviour?.kind === 'drop-after-register') {
      log(0);
      return req.socket.destroy();
    }
    log(200);
    send(res, 200, responseDoc(items));
  }

  /** RequestTransmittedDocs: the documents registered after `mark` up to `maxMark`, as sent, with their uid, mark and qrCodeUrl. */
  function transmittedDocs(req: IncomingMessage, res: ServerResponse, url: URL) {
    const userId = req.headers['aade-user-id'] as string | undefined;
    const key = req.headers['ocp-apim-subscription-key'] as string | undefined;
    if (!userId || !key || credentials[userId] !== key)
      return send(res, 401, JSON.stringify({ statusCode: 401, message: 'Access denied.' }), 'application/json');
    const after = BigInt(url.searchParams.get('mark') ?? '0');
    const upTo = url.searchParams.get('maxMark') ? BigInt(url.searchParams.get('maxMark')!) : null;
    const docs = registered
      .filter((r) => r.userId === userId && BigInt(r.mark) > after && (upTo === null || BigInt(r.mark) <= upTo))
      .map((r) =>
        r.xml.replace(
          /^<invoice>([\s\S]*)<\/invoice>$/,
          (_m, inner: string) =>
            `<invoice><uid>${r.uid}</uid><mark>${r.mark}</mark>${inner.replace('</invoiceSummary>', `</invoiceSummary><qrCodeUrl>${escape(r.qrUrl)}</qrCodeUrl>`)}</invoice>`,
        ),
      );
    send(
      res,
      200,
      `<?xml version="1.0" encoding="utf-8"?>\n<RequestedDoc xmlns="http://www.aade.gr/myDATA/invoice/v1.0"><invoicesDoc>${docs.join('')}</invoicesDoc></RequestedDoc>`,
    );
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    if (req.method === 'GET' && /\/RequestTransmittedDocs$/.test(path)) {
      lookups.push(url.search);
      return transmittedDocs(req, res, url);
    }
    if (req.method === 'POST' && /\/SendInvoices$/.test(path)) {
      sendInvoices(req, res).catch(() => {
        if (!res.headersSent) send(res, 500, 'stand-in failed', 'text/plain');
      });
      return;
    }
    send(res, 404, JSON.stringify({ statusCode: 404, message: 'Resource not found' }), 'application/json');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: `${base}/myDATA`,
    requests,
    registered,
    lookups,
    next: (...behaviours) => queue.push(...behaviours),
    refuseWhen: (match, code, message) => refusals.push({ match, code, message }),
    delay: (ms) => {
      latency = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
