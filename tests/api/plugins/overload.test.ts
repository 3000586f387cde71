// Admission (server/plugins/overload.ts, admission.ts): beyond what it serves a process answers
// 503 `unavailable` with Retry-After and details.reason `overloaded`; /healthz is never refused;
// under its bound nothing changes. The bound is made one request through the settings, and the
// queue's wait 100 ms, so that one held request (a body that never finishes) is "too much".
// A busy event loop with little in flight refuses nothing (tests/api/plugins/overload-admission.test.ts
// has the default settings' bursts and a flood).
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';

const defaults = loadConfig({}).overload;
/** The built web client (npm test builds it first). */
const DIST = fileURLToPath(new URL('../../../dist', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A signed-in write whose body never finishes arriving: it stays in flight until the socket goes. */
async function holdOne(app: FastifyInstance, token: string): Promise<Socket> {
  const { port } = app.server.address() as AddressInfo;
  // The previous request may still be leaving the count (its connection's close comes just
  // after its answer): a held request refused at once is tried again.
  for (let attempt = 0; attempt < 10; attempt++) {
    const socket = connect(port, '127.0.0.1');
    let answered = false;
    socket.on('data', () => (answered = true));
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /api/subjects HTTP/1.1\r\nHost: demo.localhost\r\nx-tenant-id: demo\r\nx-client-type: api\r\n' +
        `authorization: Bearer ${token}\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n{"name":`,
    );
    await sleep(100);
    if (!answered) return socket;
    socket.destroy();
  }
  throw new Error('the held request was answered every time');
}

describe.each(DATABASE_KINDS)('overload shedding on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let token: string;

  const get = (path: string) => fetch(`${base}${path}`, { headers: { 'x-tenant-id': 'demo', 'x-client-type': 'api', authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    t = await startApp(kind, { overload: { ...defaults, maxInFlight: 1, maxQueueWaitMs: 100, retryAfterSeconds: 3 } });
    token = (await t.signIn(t.root.username, t.root.password)).token;
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('under its limit every request is served, one after another (each leaves the count when answered)', async () => {
    for (let i = 0; i < 12; i++) expect((await get('/api/subjects')).status).toBe(200);
    for (let i = 0; i < 12; i++) expect((await t.request({ url: '/api/subjects', token })).statusCode).toBe(200);
  });

  it('beyond it: 503 unavailable after a short wait at most, with Retry-After and reason overloaded; /healthz still answers; served again when the held one ends', async () => {
    const held = await holdOne(t.app, token);
    try {
      let refused: Response | undefined;
      // The held request is counted as soon as its headers are read: a few tries at most; the
      // next one waits for it in the queue 100 ms, then is refused.
      for (let i = 0; i < 50 && !refused; i++) {
        const res = await get('/api/subjects');
        if (res.status === 503) refused = res;
        else await sleep(20);
      }
      expect(refused?.status).toBe(503);
      expect(refused!.headers.get('retry-after')).toBe('3');
      const body = (await refused!.json()) as { error: { code: string; message: string; details?: { reason?: string; retry_after?: number } } };
      expect(body.error.code).toBe('unavailable');
      expect(body.error.details).toEqual({ reason: 'overloaded', retry_after: 3 });
      expect(body.error.message).toMatch(/busy/);

      const health = await fetch(`${base}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
    } finally {
      held.destroy();
    }
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await get('/api/subjects')).status;
      if (status !== 200) await sleep(20);
    }
    expect(status).toBe(200);
  });

  it("the web client's page and scripts are sent while the API is refused (a refused script leaves a blank page)", async () => {
    const app = await buildApp({ database: t.database, config: t.config, serveClient: true, distDir: DIST });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const site = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const held = await holdOne(app, token);
    try {
      const api = await fetch(`${site}/api/subjects`, { headers: { 'x-tenant-id': 'demo', 'x-client-type': 'api', authorization: `Bearer ${token}` } });
      expect(api.status).toBe(503);
      const page = await fetch(`${site}/login`);
      expect(page.status).toBe(200);
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1];
      expect(script).toBeDefined();
      const file = await fetch(`${site}${script}`);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toMatch(/javascript/);
    } finally {
      held.destroy();
      // the held request's connection is closed from this side too, rather than waited for
      app.server.closeAllConnections();
      await app.close();
    }
  });
});

describe.each(DATABASE_KINDS)('a busy event loop on %s', (kind) => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startApp(kind, { overload: { ...defaults, sampleIntervalMs: 50 } });
    token = (await t.signIn(t.root.username, t.root.password)).token;
    await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Keeps the loop busy (60 ms of work every millisecond) while fn runs: a machine busy with other work looks the same from here. */
  const busyLoop = async <T>(fn: () => Promise<T>): Promise<T> => {
    const busy = setInterval(() => {
      const until = Date.now() + 60;
      while (Date.now() < until) {}
    }, 1);
    try {
      return await fn();
    } finally {
      clearInterval(busy);
    }
  };

  const fiveRequests = () =>
    busyLoop(async () => {
      const seen: number[] = [];
      for (let i = 0; i < 5; i++) {
        await sleep(100);
        seen.push((await t.request({ url: '/api/subjects', token })).statusCode);
      }
      return seen;
    });

  it('a late loop with nothing else in flight refuses nothing (one client’s long requests are not overload)', async () => {
    expect(await fiveRequests()).toEqual([200, 200, 200, 200, 200]);
  });

  // Before, a late loop with another request in flight refused: a slow machine made a lightly
  // loaded process refuse. Only a queue that stands refuses now.
  it('a late loop with another request in flight refuses nothing either: light load is served however slow the loop', async () => {
    const held = await holdOne(t.app, token);
    try {
      expect(await fiveRequests()).toEqual([200, 200, 200, 200, 200]);
    } finally {
      held.destroy();
    }
    expect((await t.request({ url: '/healthz', tenant: null, clientType: null })).statusCode).toBe(200);
  });
});
