// The built client (dist/, made by `npm run build`; npm test builds it first) and the API as a
// browser receives them: each encoding the browser accepts, the cache headers, and bodies that
// decode to exactly the file on disk or the JSON a client without compression gets.
import type { FastifyInstance } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';

const DIST = 'dist';
if (!existsSync(join(DIST, 'index.html'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does).');

const INDEX = readFileSync(join(DIST, 'index.html'), 'utf8');
/** The entry script and the chunks index.html preloads: what every first visit downloads. */
const FIRST_FILES = [...INDEX.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);

function decoded(encoding: string | undefined, body: Buffer): Buffer {
  if (encoding === 'br') return brotliDecompressSync(body);
  if (encoding === 'gzip') return gunzipSync(body);
  expect(encoding, 'an encoding nobody asked for').toBeUndefined();
  return body;
}

const varyList = (value: unknown) =>
  String(value ?? '')
    .toLowerCase()
    .split(',')
    .map((v) => v.trim());

describe.each(DATABASE_KINDS)('compressed client and API on %s', (kind) => {
  let t: TestApp;
  let app: FastifyInstance;
  let rootToken: string;

  beforeAll(async () => {
    t = await startApp(kind);
    // The harness's app serves no client; this one serves dist/ like `npm start` does.
    app = await buildApp({ database: t.database, config: t.config, serveClient: true, distDir: DIST });
    rootToken = (await t.signIn(t.root.username, t.root.password)).token;
    // Enough users that the list's answer is well above the compression threshold.
    for (let i = 0; i < 8; i++) await t.createUser(rootToken, { role: i % 2 ? 'ADMIN' : 'SECRETARY', last_name: `Παπαδοπούλου ${i}` });
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers: { host: 'demo.localhost', ...headers } });

  it('index.html names its scripts and is revalidated on every load, in each encoding', async () => {
    expect(FIRST_FILES.length).toBeGreaterThan(0);
    for (const path of ['/', '/login', '/students/']) {
      for (const accept of [undefined, 'gzip', 'br', 'gzip, deflate, br, zstd']) {
        const res = await get(path, accept ? { 'accept-encoding': accept } : {});
        expect(res.statusCode, show(res)).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.headers['cache-control']).toBe('no-cache');
        expect(decoded(res.headers['content-encoding'] as string | undefined, res.rawPayload).toString('utf8')).toBe(INDEX);
      }
    }
  });

  it('hashed scripts come as brotli or gzip, as the browser asks, kept a year without asking again', async () => {
    for (const path of FIRST_FILES) {
      const onDisk = readFileSync(join(DIST, path));
      for (const [accept, expected] of [
        ['br', 'br'],
        ['gzip', 'gzip'],
        ['gzip;q=1, br;q=0.5', 'gzip'],
        ['identity', undefined],
        [undefined, undefined],
      ] as const) {
        const res = await get(path, accept ? { 'accept-encoding': accept } : {});
        expect(res.statusCode, `${path} ${accept}`).toBe(200);
        expect(res.headers['content-type']).toMatch(/javascript/);
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(varyList(res.headers.vary)).toContain('accept-encoding');
        // a small chunk may have no compressed copy: then it comes as it is
        const hasCopy = existsSync(join(DIST, `${path}.${expected === 'br' ? 'br' : 'gz'}`));
        expect(res.headers['content-encoding'], `${path} with ${accept}`).toBe(hasCopy ? expected : undefined);
        const body = decoded(res.headers['content-encoding'] as string | undefined, res.rawPayload);
        expect(body.equals(onDisk), `${path} with ${accept} decodes to the file`).toBe(true);
        if (res.headers['content-encoding']) expect(res.rawPayload.length).toBeLessThan(onDisk.length);
      }
    }
  });

  it('a browser that accepts both gets a compressed script, and the biggest one at least 3 times smaller', async () => {
    const sizes = FIRST_FILES.map((path) => ({ path, size: readFileSync(join(DIST, path)).length })).sort((a, b) => b.size - a.size);
    const biggest = sizes[0]!;
    const res = await get(biggest.path, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(['br', 'gzip']).toContain(res.headers['content-encoding']);
    expect(res.rawPayload.length * 3).toBeLessThan(biggest.size);
  });

  it('a missing script is a JSON 404, not the page', async () => {
    const res = await get('/assets/no-such-chunk-123.js', { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'not-found' } });
  });

  const api = (url: string, accept?: string) =>
    get(url, { 'x-client-type': 'web', 'x-tenant-id': 'demo', authorization: `Bearer ${rootToken}`, ...(accept ? { 'accept-encoding': accept } : {}) });

  it('a JSON answer above 1 KB is compressed for a browser and decodes to the same JSON', async () => {
    const url = '/api/users?_start=0&_end=50';
    const plain = await api(url);
    expect(plain.statusCode, show(plain)).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const expected = JSON.parse(plain.body);
    for (const [accept, encoding] of [
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip, deflate, br', 'br'],
    ] as const) {
      const res = await api(url, accept);
      expect(res.statusCode, show(res)).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(varyList(res.headers.vary)).toContain('accept-encoding');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(JSON.parse(decoded(encoding, res.rawPayload).toString('utf8'))).toEqual(expected);
    }
  });

  it('a small answer goes out as it is', async () => {
    const res = await get('/healthz', { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body)).toEqual({ status: 'ok' });
  });

  it("the calendar's week, which encodes itself, still decodes to the same JSON in every encoding", async () => {
    const url = '/api/lessons/calendar?from=2026-03-02&to=2026-03-08';
    const plain = await api(url);
    expect(plain.statusCode, show(plain)).toBe(200);
    const expected = JSON.parse(plain.body);
    for (const accept of ['gzip', 'br', 'gzip, deflate, br, zstd']) {
      const res = await api(url, accept);
      expect(res.statusCode, show(res)).toBe(200);
      expect(varyList(res.headers.vary)).toContain('accept-encoding');
      expect(JSON.parse(decoded(res.headers['content-encoding'] as string | undefined, res.rawPayload).toString('utf8'))).toEqual(expected);
    }
  });
});
