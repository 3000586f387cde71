// Required headers, tenant resolution and security headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, expectStatus, json, setCookies } from '../support/api-helpers';

describe.each(DATABASE_KINDS)('headers and tenancy on %s', (kind) => {
  let t: TestApp;
  let demoAdmin: { id: number; username: string; password: string; token: string };
  let other: Awaited<ReturnType<TestApp['createTenant']>>;
  let rootToken: string;

  /** Raw inject, so that exactly the given headers are sent. */
  const raw = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, body?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    t = await startApp(kind);
    rootToken = (await t.signIn(t.root.username, t.root.password)).token;
    demoAdmin = await t.createUser(rootToken, { role: 'ADMIN' });
    other = await t.createTenant('otherco');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET /healthz needs no headers and answers 200 {status:"ok"}', async () => {
    const res = await raw('GET', '/healthz', {});
    expectStatus(res, 200);
    expect(json(res)).toEqual({ status: 'ok' });
  });

  it('the OpenAPI description needs no headers', async () => {
    const res = await raw('GET', '/api/docs/json', {});
    expectStatus(res, 200);
    const doc = json(res);
    expect(String(doc.openapi ?? doc.swagger)).toMatch(/^[23]\./);
    expect(Object.keys(doc.paths ?? {})).toEqual(expect.arrayContaining(['/login', '/api/users']));
  });

  const routes: Array<['GET' | 'POST', string, unknown?]> = [
    ['POST', '/login', { username: 'root', password: 'root-password-1', tenant: 'demo' }],
    ['GET', '/me'],
    ['POST', '/refresh-token'],
    ['POST', '/sign-out', { data: '' }],
    ['GET', '/api/users'],
    ['GET', '/api/tenants'],
    ['GET', '/api/mydata'],
    ['GET', '/api/history?entity=users&entity_id=1'],
    ['GET', '/api/no-such-resource'],
  ];

  it.each(routes)('%s %s without x-client-type or x-tenant-id answers 400 missing-headers', async (method, url, body) => {
    expectError(await raw(method, url, {}, body), 400, 'missing-headers');
    expectError(await raw(method, url, { 'x-tenant-id': 'demo' }, body), 400, 'missing-headers');
    expectError(await raw(method, url, { 'x-client-type': 'web' }, body), 400, 'missing-headers');
    expectError(await raw(method, url, { 'x-client-type': 'mobile', 'x-tenant-id': 'demo' }, body), 400, 'missing-headers');
    expectError(await raw(method, url, { 'x-client-type': 'web', 'x-tenant-id': '' }, body), 400, 'missing-headers');
  });

  it('missing headers are checked before authentication (a valid token does not help)', async () => {
    const res = await raw('GET', '/api/users', { authorization: `Bearer ${demoAdmin.token}`, 'x-tenant-id': 'demo' });
    expectError(res, 400, 'missing-headers');
    const res2 = await raw('GET', '/me', { authorization: `Bearer ${demoAdmin.token}`, 'x-client-type': 'api' });
    expectError(res2, 400, 'missing-headers');
  });

  it('a session of tenant A used with tenant B in x-tenant-id answers 403 tenant-mismatch', async () => {
    expectStatus(await t.request({ method: 'GET', url: '/me', clientType: 'api', token: demoAdmin.token }), 200);
    const res = await t.request({ method: 'GET', url: '/api/users', clientType: 'api', tenant: 'otherco', token: demoAdmin.token });
    expectError(res, 403, 'tenant-mismatch');
    expectError(await t.request({ method: 'GET', url: '/me', clientType: 'api', tenant: 'otherco', token: demoAdmin.token }), 403, 'tenant-mismatch');
    // and the other way round
    const res2 = await t.request({ method: 'GET', url: '/api/users', clientType: 'api', tenant: 'demo', token: other.admin.token });
    expectError(res2, 403, 'tenant-mismatch');
  });

  it('a web session cookie of tenant A sent with tenant B answers 403 tenant-mismatch', async () => {
    const login = await t.request({
      method: 'POST',
      url: '/login',
      clientType: 'web',
      body: { username: demoAdmin.username, password: demoAdmin.password, tenant: 'demo' },
    });
    expectStatus(login, 200);
    const access = setCookies(login).access_token.value;
    expectStatus(await t.request({ method: 'GET', url: '/me', clientType: 'web', cookies: { access_token: access } }), 200);
    expectError(
      await t.request({ method: 'GET', url: '/me', clientType: 'web', tenant: 'otherco', cookies: { access_token: access } }),
      403,
      'tenant-mismatch',
    );
  });

  it('x-forwarded-proto is ignored without trustProxy: no Secure cookies, no HSTS', async () => {
    const login = await t.request({
      method: 'POST',
      url: '/login',
      clientType: 'web',
      headers: { 'x-forwarded-proto': 'https' },
      body: { username: demoAdmin.username, password: demoAdmin.password, tenant: 'demo' },
    });
    expectStatus(login, 200);
    const cookies = setCookies(login);
    expect(cookies.access_token.attrs.secure).toBeUndefined();
    expect(cookies.refresh_token.attrs.secure).toBeUndefined();
    expect(login.headers['strict-transport-security']).toBeUndefined();
  });

  it('a Host whose first label differs from x-tenant-id answers 403 tenant-mismatch', async () => {
    const headers = { 'x-client-type': 'api', 'x-tenant-id': 'demo' };
    expectError(await raw('GET', '/me', { ...headers, host: 'otherco.frontis.app', authorization: `Bearer ${demoAdmin.token}` }), 403, 'tenant-mismatch');
    expectError(
      await raw('POST', '/login', { ...headers, host: 'otherco.localhost' }, { username: demoAdmin.username, password: demoAdmin.password, tenant: 'demo' }),
      403,
      'tenant-mismatch',
    );
    // matching host label, bare localhost and an IP address are all fine
    for (const host of ['demo.frontis.app', 'demo.localhost:3000', 'localhost', 'localhost:3000', '127.0.0.1:3000']) {
      const res = await raw('GET', '/me', { ...headers, host, authorization: `Bearer ${demoAdmin.token}` });
      expectStatus(res, 200);
    }
  });

  it('unknown /api routes answer 404 not-found', async () => {
    expectError(await t.request({ method: 'GET', url: '/api/no-such-resource', clientType: 'api', token: rootToken }), 404, 'not-found');
  });

  it('answers carry the security headers and never CORS headers', async () => {
    for (const res of [
      await raw('GET', '/healthz', {}),
      await t.request({ method: 'GET', url: '/me', clientType: 'api', token: demoAdmin.token }),
      await raw('GET', '/api/users', {}),
    ]) {
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['origin-agent-cluster']).toBe('?1');
      expect(res.headers['x-dns-prefetch-control']).toBe('off');
      expect(res.headers['x-download-options']).toBe('noopen');
      expect(res.headers['x-permitted-cross-domain-policies']).toBe('none');
      expect(res.headers['x-xss-protection']).toBe('0');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(res.headers['strict-transport-security']).toBeUndefined(); // plain HTTP
    }
  });

  it("the API docs' pages alone may run their inline scripts", async () => {
    const docs = await raw('GET', '/api/docs/', {});
    expect(String(docs.headers['content-security-policy'])).toContain("script-src 'self' 'unsafe-inline'");
    expect(docs.headers['x-frame-options']).toBe('DENY');
    const api = await raw('GET', '/api/docs/json', {});
    expect(String(api.headers['content-security-policy'])).toContain("script-src 'self' 'unsafe-inline'");
    expect(String((await raw('GET', '/healthz', {})).headers['content-security-policy'])).toContain("script-src 'self';");
  });

  it('a request from a foreign Origin answers 403 forbidden', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/users',
      clientType: 'api',
      token: demoAdmin.token,
      headers: { origin: 'https://evil.example', host: 'demo.localhost' },
    });
    expectError(res, 403, 'forbidden');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
