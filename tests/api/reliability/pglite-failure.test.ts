// An embedded database that has failed (closed, or its WebAssembly aborted) must not crash the
// server or answer 500: every request that needs it gets 503 `unavailable` with Retry-After,
// and /healthz says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/harness';

describe('a failed PGlite', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startApp('pglite');
    token = (await t.signIn(t.root.username, t.root.password)).token;
    expect((await t.request({ url: '/api/subjects', token })).statusCode).toBe(200);
    await t.database.pglite!.close();
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers 503 unavailable with Retry-After to signed-in reads, writes and sign-in', async () => {
    const answers = [
      await t.request({ url: '/api/subjects', token }),
      await t.request({ method: 'POST', url: '/api/subjects', token, body: { name: 'Φυσική' } }),
      await t.request({ method: 'POST', url: '/login', body: { username: 'root', password: 'root-password-1', tenant: 'demo' } }),
    ];
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().error.code).toBe('unavailable');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('reports 503 on /healthz', async () => {
    const res = await t.request({ url: '/healthz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable' });
    expect(res.headers['retry-after']).toBeTruthy();
  });
});
