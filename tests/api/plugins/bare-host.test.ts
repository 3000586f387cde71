import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startApp, type TestApp } from '../support/harness';

// a bare localhost or IP address means DEFAULT_TENANT. The web client
// sends the host's first label ('localhost', '127') as x-tenant-id there.
describe('a bare host opens the default tenant', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp('pglite');
  });
  afterAll(() => t.close());

  it.each([
    ['localhost:3000', 'localhost'],
    ['127.0.0.1:3000', '127'],
  ])('on %s with x-tenant-id %s', async (host, label) => {
    const login = await t.request({
      method: 'POST',
      url: '/login',
      tenant: label,
      headers: { host },
      body: { username: ROOT.username, password: ROOT.password, tenant: label },
    });
    expect(login.statusCode).toBe(200);
    const token = login.json().token as string;
    const me = await t.request({ url: '/api/mydata', tenant: label, headers: { host }, token });
    expect(me.statusCode).toBe(200);
    const demo = await t.request({ url: '/api/mydata', tenant: 'demo', token });
    expect(demo.statusCode).toBe(200);
  });

  it('still lets an API client on a bare host name another tenant, which this session does not belong to', async () => {
    await t.createTenant('acme');
    const session = await t.signIn(ROOT.username, ROOT.password);
    const res = await t.request({ url: '/api/mydata', tenant: 'acme', headers: { host: '127.0.0.1' }, token: session.token });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('tenant-mismatch');
  });
});
