// Uploads as a careless or hostile client sends them: the folder as a form field, unknown
// fields, bad boundaries, a body cut off or trickling in, and too many connections from one
// address. Every answer is a 4xx with an error code, and nothing refused is left stored.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import S3rver from 's3rver';
import { openFileStore } from '../../../server/modules/files/storage';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectStatus, json, rawRequest } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';

const BOUNDARY = '----frontis-hardening';
const fileHead = (name = 'file', filename = 'notes.txt') =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`;
const field = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileWhole = (text: string, name = 'file') => `${fileHead(name)}${text}\r\n`;
const end = `--${BOUNDARY}--\r\n`;

/** Every path under dir, partial files included. */
function allFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => join(d.parentPath, d.name));
  } catch {
    return [];
  }
}

describe.each(DATABASE_KINDS)('upload hardening on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  let tenantId: number;
  let port: number;

  const upload = (body: string, opts: { query?: string; contentType?: string } = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/files${opts.query ?? ''}`,
      headers: {
        host: 'demo.localhost',
        'x-tenant-id': 'demo',
        'x-client-type': 'api',
        authorization: `Bearer ${admin}`,
        'content-type': opts.contentType ?? `multipart/form-data; boundary=${BOUNDARY}`,
      },
      payload: body,
    });
  const fileCount = async () => json(await t.request({ url: '/api/files?_start=0&_end=100', token: admin })).total as number;
  const stored = () => allFiles(join(t.config.dataDir, 'files', String(tenantId)));
  const folder = async (name: string) => {
    const res = await t.request({ method: 'POST', url: '/api/folders', token: admin, body: { name, parent_id: null } });
    expectStatus(res, 201);
    return json(res).data.id as number;
  };

  beforeAll(async () => {
    t = await startApp(kind, {
      connections: { headersTimeoutSeconds: 2, requestTimeoutSeconds: 2, maxPerAddress: 6, listenSockets: 1, minBodyBytesPerSecond: 0, bodyGraceSeconds: 10 },
    });
    admin = (await t.signIn(t.root.username, t.root.password)).token;
    tenantId = (json(await t.request({ url: '/api/tenants?slug=demo', token: admin })).data as { id: number }[])[0]!.id;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => t?.close());

  it('takes the folder as a form field, before or after the file', async () => {
    const id = await folder('Συμβάσεις');
    const before = await upload(`${field('folder_id', String(id))}${fileWhole('πρώτο')}${end}`);
    expectStatus(before, 201);
    expect(json(before).data.folder_id).toBe(id);
    const after = await upload(`${fileWhole('δεύτερο')}${field('folder_id', String(id))}${end}`);
    expectStatus(after, 201);
    expect(json(after).data.folder_id).toBe(id);
    const listed = json(await t.request({ url: `/api/files?folder_id=${id}`, token: admin }));
    expect(listed.total).toBe(2);
  });

  it('refuses unknown fields, a second folder and a folder that is not an id, storing nothing', async () => {
    const files = await fileCount();
    const keys = stored().length;
    expectError(await upload(`${field('folder', '1')}${fileWhole('x')}${end}`), 400, 'validation', { folder: 'unknown-field' });
    expectError(await upload(`${fileWhole('x')}${field('__proto__', '1')}${end}`), 400, 'validation', { __proto__: 'unknown-field' });
    expectError(await upload(`${fileWhole('x', 'attachment')}${end}`), 400, 'validation', { attachment: 'unknown-field' });
    const id = await folder('Διπλός');
    expectError(await upload(`${field('folder_id', String(id))}${fileWhole('x')}${end}`, { query: `?folder_id=${id}` }), 400, 'validation', {
      folder_id: 'duplicate',
    });
    expectError(await upload(`${field('folder_id', 'constructor')}${fileWhole('x')}${end}`), 400, 'validation', { folder_id: 'invalid-type' });
    expectError(await upload(`${field('folder_id', '999999')}${fileWhole('x')}${end}`), 400, 'validation', { folder_id: 'invalid' });
    expect(await fileCount()).toBe(files);
    expect(stored()).toHaveLength(keys);
  });

  it('answers a missing, empty or over-long boundary, or a body cut short, with 400 and stores nothing', async () => {
    const files = await fileCount();
    const keys = stored().length;
    const body = `${fileWhole('x')}${end}`;
    for (const contentType of [
      'multipart/form-data',
      'multipart/form-data; boundary=',
      'multipart/form-data; boundary=""',
      `multipart/form-data; boundary=${'b'.repeat(71)}`,
    ]) {
      expectError(await upload(body, { contentType }), 400, 'validation');
    }
    expectError(await upload(`${fileHead()}half of a file`), 400, 'validation');
    expectError(await upload('no multipart here at all'), 400, 'validation');
    expect(await fileCount()).toBe(files);
    expect(stored()).toHaveLength(keys);
  });

  it('cuts a trickling upload with 408 timeout, leaving no partial file and no row', async () => {
    const files = await fileCount();
    const keys = stored().length;
    const { socket, answer } = rawRequest(
      port,
      'POST /api/files HTTP/1.1\r\nHost: demo.localhost\r\nx-tenant-id: demo\r\nx-client-type: api\r\n' +
        `authorization: Bearer ${admin}\r\ncontent-type: multipart/form-data; boundary=${BOUNDARY}\r\ncontent-length: 100000\r\n\r\n${fileHead()}the first bytes`,
    );
    // One more byte now and then, never the whole body.
    const trickle = setInterval(() => socket.writable && socket.write('.'), 300);
    const got = await answer;
    clearInterval(trickle);
    expect(got).toMatch(/^HTTP\/1\.1 408/);
    expect(JSON.parse(got.slice(got.indexOf('\r\n\r\n') + 4)).error.code).toBe('timeout');
    // The upload's own clean-up runs once the cut reaches it.
    await expect.poll(() => stored().length, { timeout: 10_000 }).toBe(keys);
    expect(await fileCount()).toBe(files);
  });

  it('leaves nothing stored when the client goes away mid-upload', async () => {
    const files = await fileCount();
    const keys = stored().length;
    const { socket, answer } = rawRequest(
      port,
      'POST /api/files HTTP/1.1\r\nHost: demo.localhost\r\nx-tenant-id: demo\r\nx-client-type: api\r\n' +
        `authorization: Bearer ${admin}\r\ncontent-type: multipart/form-data; boundary=${BOUNDARY}\r\ncontent-length: 100000\r\n\r\n${fileHead()}${'x'.repeat(20_000)}`,
    );
    setTimeout(() => socket.destroy(), 300);
    await answer;
    await expect.poll(() => stored().length, { timeout: 10_000 }).toBe(keys);
    expect(await fileCount()).toBe(files);
  });

  it('cuts slow headers, and bounds the connections one address holds', async () => {
    const slow = rawRequest(port, 'GET /healthz HTTP/1.1\r\nHost: demo.localhost\r\n');
    expect(await slow.answer).toMatch(/^HTTP\/1\.1 408/);

    const held = Array.from({ length: 6 }, () => rawRequest(port, 'GET /healthz HTTP/1.1\r\n'));
    await new Promise((r) => setTimeout(r, 200));
    const refused = rawRequest(port, '');
    const got = await refused.answer;
    expect(got).toMatch(/^HTTP\/1\.1 429/);
    expect(JSON.parse(got.slice(got.indexOf('\r\n\r\n') + 4)).error.code).toBe('rate-limited');
    for (const h of held) h.socket.destroy();
    await Promise.all(held.map((h) => h.answer));
    // Once they are gone the address is welcome again.
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
  });
});

describe.each(DATABASE_KINDS)('upload hardening on an S3-compatible store on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  let tenantId: number;
  let port: number;
  let s3: S3rver;
  const directory = mkdtempSync(join(tmpdir(), 'frontis-s3-hardening-'));

  beforeAll(async () => {
    s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: 'frontis-hardening' }] });
    const { port: s3port } = await s3.run();
    t = await startApp(kind, {
      connections: { headersTimeoutSeconds: 2, requestTimeoutSeconds: 2, maxPerAddress: 0, listenSockets: 1, minBodyBytesPerSecond: 0, bodyGraceSeconds: 10 },
      s3: {
        bucket: 'frontis-hardening',
        endpoint: `http://127.0.0.1:${s3port}`,
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
      },
    });
    admin = (await t.signIn(t.root.username, t.root.password)).token;
    tenantId = (json(await t.request({ url: '/api/tenants?slug=demo', token: admin })).data as { id: number }[])[0]!.id;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const objects = () => openFileStore(t.config).keys(tenantId);
  const head = `POST /api/files HTTP/1.1\r\nHost: demo.localhost\r\nx-tenant-id: demo\r\nx-client-type: api\r\n`;

  it('a trickling upload is cut with 408 and a client gone mid-upload leaves no object in the bucket', async () => {
    const before = (await objects()).length;
    const slow = rawRequest(
      port,
      `${head}authorization: Bearer ${admin}\r\ncontent-type: multipart/form-data; boundary=${BOUNDARY}\r\ncontent-length: 100000\r\n\r\n${fileHead()}the first bytes`,
    );
    const trickle = setInterval(() => slow.socket.writable && slow.socket.write('.'), 300);
    const got = await slow.answer;
    clearInterval(trickle);
    expect(got).toMatch(/^HTTP\/1\.1 408/);

    const gone = rawRequest(
      port,
      `${head}authorization: Bearer ${admin}\r\ncontent-type: multipart/form-data; boundary=${BOUNDARY}\r\ncontent-length: 100000\r\n\r\n${fileHead()}${'x'.repeat(20_000)}`,
    );
    setTimeout(() => gone.socket.destroy(), 300);
    await gone.answer;
    await expect.poll(async () => (await objects()).length, { timeout: 10_000 }).toBe(before);
    expect(json(await t.request({ url: '/api/files', token: admin })).total).toBe(0);
  });
});
