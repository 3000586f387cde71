// What clients see of a draining server (server/plugins/drain.ts), in process on each database:
// a request taken before the drain is answered, with Connection: close; /healthz answers 503
// draining; a new request is refused 503 `unavailable` (reason `draining`, Retry-After 1,
// Connection: close) and nothing of it is done; an open notification stream is told to
// reconnect and ends; the drain then ends with nothing cut. The same under load, with a second
// process taking over, is tests/api/reliability/drain.test.ts.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folders } from '../../../server/db/schema/files';
import { rawRequest } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { platform } from '../../../server/db/doors';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(DATABASE_KINDS)('a draining server on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  let port: number;

  beforeAll(async () => {
    t = await startApp(kind);
    admin = (await t.signIn(t.root.username, t.root.password)).token;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => t?.close());

  const head = (method: string, path: string) =>
    `${method} ${path} HTTP/1.1\r\nHost: demo.localhost\r\nx-tenant-id: demo\r\nx-client-type: api\r\nauthorization: Bearer ${admin}\r\n`;
  /** Read straight from the database: the drained app answers every request 503. */
  const folderNames = async () => (await platform(t.database).select({ name: folders.name }).from(folders)).map((f) => f.name);

  it('answers what it took, refuses what is new, tells streams to reconnect, and ends', async () => {
    // A notification stream, open before the drain.
    let said = '';
    const streamEnded = new Promise<void>((resolve, reject) => {
      http
        .get(
          {
            host: '127.0.0.1',
            port,
            path: '/api/notifications/stream',
            headers: { 'x-tenant-id': 'demo', 'x-client-type': 'api', authorization: `Bearer ${admin}` },
          },
          (res) => {
            res.setEncoding('utf8');
            res.on('data', (chunk) => (said += chunk));
            res.on('end', () => resolve());
          },
        )
        .on('error', reject);
    });
    await expect.poll(() => said).toContain('event: unread');

    // A write taken before the drain: its body is still arriving when the drain begins.
    const body = JSON.stringify({ name: 'Πριν τη διακοπή', parent_id: null });
    const taken = rawRequest(port, `${head('POST', '/api/folders')}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`);
    taken.socket.write(body.slice(0, 5));
    await sleep(200);

    const drained = t.app.drain.begin(10);
    expect(t.app.drain.draining).toBe(true);

    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(503);
    expect(health.headers.get('connection')).toBe('close');
    expect(await health.json()).toEqual({ status: 'draining' });

    const refused = await fetch(`http://127.0.0.1:${port}/api/folders`, {
      method: 'POST',
      headers: { 'x-tenant-id': 'demo', 'x-client-type': 'api', authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Μετά τη διακοπή', parent_id: null }),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('connection')).toBe('close');
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ error: { code: 'unavailable', details: { reason: 'draining', retry_after: 1 } } });

    taken.socket.write(body.slice(5));
    const answer = await taken.answer;
    expect(answer).toMatch(/^HTTP\/1\.1 201/);
    expect(answer.toLowerCase()).toContain('\r\nconnection: close\r\n');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).data.name).toBe('Πριν τη διακοπή');

    await streamEnded;
    expect(said).toContain('retry: 1000\nevent: reconnect\ndata: {"reason":"draining"}\n\n');

    expect(await drained).toEqual({ cut: 0 });
    // The write taken is there; the one refused is not.
    const names = await folderNames();
    expect(names).toContain('Πριν τη διακοπή');
    expect(names).not.toContain('Μετά τη διακοπή');
  });
});
