// /api/mydata (CONTRACT "My data"): a signed-in user's own record and password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, expectNoSecret, expectStatus, json } from '../support/api-helpers';

const MYDATA_KEYS = ['email', 'first_name', 'id', 'last_name', 'phone', 'role', 'username', 'version'];

describe.each(DATABASE_KINDS)('/api/mydata on %s', (kind) => {
  let t: TestApp;
  let rootToken: string;

  const me = (token: string, method: 'GET' | 'PATCH' | 'POST' = 'GET', url = '/api/mydata', body?: unknown) =>
    t.request({ method, url, token, body, clientType: 'api' });

  beforeAll(async () => {
    t = await startApp(kind);
    rootToken = (await t.signIn(t.root.username, t.root.password)).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET answers the own record, without secrets', async () => {
    const u = await t.createUser(rootToken, { role: 'SECRETARY', first_name: 'Σοφία', last_name: 'Μάρκου' });
    const res = await me(u.token);
    expectStatus(res, 200);
    expectNoSecret(res, u.password);
    const body = json(res);
    expect(Object.keys(body)).toEqual(['data']);
    expect(Object.keys(body.data).sort()).toEqual(expect.arrayContaining(MYDATA_KEYS));
    expect(body.data).not.toHaveProperty('password');
    expect(body.data).toMatchObject({ id: u.id, username: u.username, role: 'SECRETARY', first_name: 'Σοφία', last_name: 'Μάρκου' });
  });

  it('ROOT reads its own (root) account', async () => {
    const res = await me(rootToken);
    expectStatus(res, 200);
    expect(json(res).data).toMatchObject({ username: t.root.username, role: 'ROOT' });
    expectNoSecret(res, t.root.password);
  });

  it('PATCH updates names, email and phone with the version; stale is 409; /me follows', async () => {
    const u = await t.createUser(rootToken, { role: 'ADMIN' });
    const current = json(await me(u.token)).data;
    const res = await me(u.token, 'PATCH', '/api/mydata', {
      first_name: 'Θεοδώρα',
      last_name: 'Ζαχαρίου',
      email: 'theodora@example.gr',
      phone: '+30 697 000 0000',
      version: current.version,
    });
    expectStatus(res, 200);
    const updated = json(res).data;
    expect(updated).toMatchObject({
      id: u.id,
      username: u.username,
      role: 'ADMIN',
      first_name: 'Θεοδώρα',
      last_name: 'Ζαχαρίου',
      email: 'theodora@example.gr',
      phone: '+30 697 000 0000',
    });
    expect(updated.version).toBeGreaterThan(current.version);
    expectError(await me(u.token, 'PATCH', '/api/mydata', { first_name: 'Stale', version: current.version }), 409, 'stale');
    expectError(await me(u.token, 'PATCH', '/api/mydata', { first_name: 'No version' }), 400, 'validation', { version: 'required' });
    expectError(await me(u.token, 'PATCH', '/api/mydata', { email: 'nope', version: updated.version }), 400, 'validation', { email: 'invalid-format' });
    expectError(await me(u.token, 'PATCH', '/api/mydata', { first_name: '', version: updated.version }), 400, 'validation', { first_name: 'required' });
    expect(json(await me(u.token)).data).toEqual(updated);

    const session = json(await t.request({ method: 'GET', url: '/me', token: u.token }));
    expect(session.data.user).toMatchObject({ firstName: 'Θεοδώρα', lastName: 'Ζαχαρίου' });
  });

  it('PATCH cannot change role, status or username (400) and changes nothing', async () => {
    const u = await t.createUser(rootToken, { role: 'SECRETARY' });
    const current = json(await me(u.token)).data;
    for (const body of [
      { role: 'ADMIN', version: current.version },
      { status: 'INACTIVE', version: current.version },
      { username: 'renamed-self', version: current.version },
      { id: 1, version: current.version },
      { password: 'sneaky-password-1', version: current.version },
    ]) {
      const res = await me(u.token, 'PATCH', '/api/mydata', body);
      expectError(res, 400, 'validation');
    }
    expect(json(await me(u.token)).data).toEqual(current);
    expectStatus(await t.request({ method: 'GET', url: '/api/users', token: u.token }), 403);
  });

  it('password change: the current password is checked, confirm must match, other sessions end', async () => {
    const u = await t.createUser(rootToken, { role: 'SECRETARY' });
    const other = await t.signIn(u.username, u.password);
    const pw = (body: unknown) => me(u.token, 'POST', '/api/mydata/password', body);

    expectError(await pw({ current_password: 'wrong-password-1', password: 'brand-new-pass-1', confirm_password: 'brand-new-pass-1' }), 400, 'validation', {
      current_password: 'invalid',
    });
    expectError(await pw({ current_password: u.password, password: 'brand-new-pass-1', confirm_password: 'brand-new-pass-2' }), 400, 'validation', {
      confirm_password: 'mismatch',
    });
    expectError(await pw({ current_password: u.password, password: 'short', confirm_password: 'short' }), 400, 'validation', { password: 'too-short' });
    expectError(await pw({ current_password: u.password }), 400, 'validation', { password: 'required' });
    // none of that changed anything: both sessions alive, the old password still works
    expectStatus(await me(other.token), 200);

    const ok = await pw({ current_password: u.password, password: 'brand-new-pass-1', confirm_password: 'brand-new-pass-1' });
    expectStatus(ok, 204);
    expect(ok.body).toBe('');
    // the current session stays, including its refresh token
    expectStatus(await me(u.token), 200);
    // the other session ends, access and refresh
    expectStatus(await me(other.token), 401);
    expectStatus(await t.request({ method: 'POST', url: '/refresh-token', body: { refresh_token: other.refresh_token } }), 401);
    // old password refused, new one accepted
    expectError(
      await t.request({ method: 'POST', url: '/login', body: { username: u.username, password: u.password, tenant: 'demo' } }),
      401,
      'bad-credentials',
    );
    expect((await t.signIn(u.username, 'brand-new-pass-1')).user.id).toBe(u.id);
  });

  it('the current session keeps refreshing after its own password change', async () => {
    const u = await t.createUser(rootToken, { role: 'SECRETARY' });
    const s = await t.signIn(u.username, u.password);
    const res = await me(s.token, 'POST', '/api/mydata/password', {
      current_password: u.password,
      password: 'another-pass-12',
      confirm_password: 'another-pass-12',
    });
    expectStatus(res, 204);
    const refresh = await t.request({ method: 'POST', url: '/refresh-token', body: { refresh_token: s.refresh_token } });
    expectStatus(refresh, 200);
    expectStatus(await me(json(refresh).token), 200);
    // the harness' own session of the user (another family) ended
    expectStatus(await me(u.token), 401);
  });

  it('mydata needs a session', async () => {
    expectError(await t.request({ method: 'GET', url: '/api/mydata' }), 401, 'unauthorized');
    expectError(await t.request({ method: 'PATCH', url: '/api/mydata', body: { first_name: 'X', version: 1 } }), 401, 'unauthorized');
    expectError(
      await t.request({ method: 'POST', url: '/api/mydata/password', body: { current_password: 'a', password: 'b', confirm_password: 'b' } }),
      401,
      'unauthorized',
    );
  });

  // Last: it ends the ROOT sessions of the file's other tests.
  it("a ROOT's password change ends its sessions in every centre, all but the current one", async () => {
    await t.createTenant('mydata-b');
    const here = await t.signIn(t.root.username, t.root.password);
    const sameCentre = await t.signIn(t.root.username, t.root.password);
    const elsewhere = await t.signIn(t.root.username, t.root.password, 'mydata-b');
    const change = (from: string, to: string) => me(here.token, 'POST', '/api/mydata/password', { current_password: from, password: to, confirm_password: to });
    expectStatus(await change(t.root.password, 'root-new-pass-1'), 204);
    expectStatus(await me(here.token), 200);
    expectStatus(await me(sameCentre.token), 401);
    expectStatus(await t.request({ url: '/api/mydata', token: elsewhere.token, tenant: 'mydata-b' }), 401);
    expectStatus(await change('root-new-pass-1', t.root.password), 204);
  });
});
