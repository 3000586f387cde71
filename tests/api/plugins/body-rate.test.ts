// The minimum body rate (server/plugins/connections.ts, limitBodyRate): once the grace is over, a
// body that trickles in (one byte every half second) or crawls below the rate is cut with 408
// `timeout` long before the whole-request limit, a JSON body and a file upload alike, and nothing
// of it is stored; bodies sent at a steady modest rate, for longer than the grace, complete. The settings are made small
// here (1 s of grace, 1,000 bytes a second) so the test takes seconds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, rawRequest } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';

const BOUNDARY = '----frontis-rate';
const fileHead = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="slow.txt"\r\nContent-Type: text/plain\r\n\r\n`;
const fileTail = `\r\n--${BOUNDARY}--\r\n`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The status line and the parsed body of a raw HTTP answer. */
function parse(answer: string): { status: number; body: any } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
  const text = answer.slice(answer.indexOf('\r\n\r\n') + 4);
  return { status, body: text ? JSON.parse(text) : null };
}

describe.each(DATABASE_KINDS)('minimum body rate on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  let port: number;

  /** Sends the head and then `body` in `chunks` pieces, one every `everyMs`; answers the raw answer. */
  async function send(method: string, path: string, contentType: string, body: Buffer, chunk: number, everyMs: number) {
    const { socket, answer } = rawRequest(
      port,
      `${method} ${path} HTTP/1.1\r\nHost: demo.localhost\r\nx-tenant-id: demo\r\nx-client-type: api\r\nauthorization: Bearer ${admin}\r\n` +
        `content-type: ${contentType}\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`,
    );
    const started = Date.now();
    for (let at = 0; at < body.length && socket.writable; at += chunk) {
      socket.write(body.subarray(at, at + chunk));
      await sleep(everyMs);
    }
    const got = await answer;
    return { ...parse(got), ms: Date.now() - started };
  }

  const fileCount = async () => json(await t.request({ url: '/api/files?_start=0&_end=0', token: admin })).total as number;
  const folderCount = async () => json(await t.request({ url: '/api/folders?_start=0&_end=0', token: admin })).total as number;

  beforeAll(async () => {
    t = await startApp(kind, {
      connections: {
        headersTimeoutSeconds: 20,
        requestTimeoutSeconds: 300,
        maxPerAddress: 0,
        listenSockets: 1,
        minBodyBytesPerSecond: 1000,
        bodyGraceSeconds: 1,
      },
    });
    admin = (await t.signIn(t.root.username, t.root.password)).token;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => t?.close());

  it('cuts a trickled JSON body with 408 timeout within seconds, creating nothing', async () => {
    const folders = await folderCount();
    const body = Buffer.from(JSON.stringify({ name: 'Αργός φάκελος', parent_id: null }));
    const got = await send('POST', '/api/folders', 'application/json', body, 1, 500);
    expect(got.status).toBe(408);
    expect(got.body.error.code).toBe('timeout');
    // Cut by the rate, far sooner than the 300 s the whole request may take.
    expect(got.ms).toBeLessThan(10_000);
    expect(await folderCount()).toBe(folders);
  });

  it('cuts a body that crawls in steadily below the rate, once the grace is over', async () => {
    const folders = await folderCount();
    // 4 KB of JSON at 600 bytes a second, where 1,000 are asked for: cut after about a second.
    const padded = Buffer.from(`${' '.repeat(4000)}${JSON.stringify({ name: 'Σέρνεται', parent_id: null })}`);
    const got = await send('POST', '/api/folders', 'application/json', padded, 60, 100);
    expect(got.status).toBe(408);
    expect(got.body.error.code).toBe('timeout');
    expect(got.ms).toBeLessThan(4000);
    expect(await folderCount()).toBe(folders);
  });

  it('cuts a trickled upload with 408 timeout, storing no file', async () => {
    const files = await fileCount();
    const body = Buffer.from(`${fileHead}${'x'.repeat(2000)}${fileTail}`);
    // The head at once, then a byte every half second.
    const { socket, answer } = rawRequest(
      port,
      `POST /api/files HTTP/1.1\r\nHost: demo.localhost\r\nx-tenant-id: demo\r\nx-client-type: api\r\nauthorization: Bearer ${admin}\r\n` +
        `content-type: multipart/form-data; boundary=${BOUNDARY}\r\ncontent-length: ${body.length}\r\n\r\n${fileHead}`,
    );
    const started = Date.now();
    const trickle = setInterval(() => socket.writable && socket.write('.'), 500);
    const got = parse(await answer);
    clearInterval(trickle);
    expect(got.status).toBe(408);
    expect(got.body.error.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect.poll(fileCount, { timeout: 5000 }).toBe(files);
  });

  it('lets bodies sent at a steady modest rate complete, though they take longer than the grace', async () => {
    const folders = await folderCount();
    // 8 KB of JSON (leading spaces are still JSON) at 4 KB/s, four times the minimum: 2 s.
    const padded = Buffer.from(`${' '.repeat(8000)}${JSON.stringify({ name: 'Σταθερός φάκελος', parent_id: null })}`);
    const folder = await send('POST', '/api/folders', 'application/json', padded, 400, 100);
    expect(folder.status).toBe(201);
    expect(folder.body.data.name).toBe('Σταθερός φάκελος');
    expect(folder.ms).toBeGreaterThan(1500);
    expect(await folderCount()).toBe(folders + 1);

    const files = await fileCount();
    // 240 KB at about 80 KB/s: 3 s.
    const upload = Buffer.from(`${fileHead}${'σ'.repeat(120_000)}${fileTail}`);
    const file = await send('POST', '/api/files', `multipart/form-data; boundary=${BOUNDARY}`, upload, 8_000, 100);
    expect(file.status).toBe(201);
    expect(file.body.data.size).toBe(240_000);
    expect(file.ms).toBeGreaterThan(2500);
    expect(await fileCount()).toBe(files + 1);
  });
});
