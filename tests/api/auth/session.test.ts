// Session protocol:
// what a web client and an API client receive from /login, /me, /refresh-token, /sign-out.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeJwt, SignJWT } from 'jose';
import type { Response } from 'light-my-request';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, expectNoSecret, expectStatus, isClearing, json, setCookies, show } from '../support/api-helpers';

const JWT = /^[\w-]+\.[\w-]+\.[\w-]+$/;
// The signed-in user, and the display name of the centre it signed in to (printed on receipts).
const USER_KEYS = ['firstName', 'id', 'lastName', 'role', 'tenantName', 'username'];

describe.each(DATABASE_KINDS)('session protocol on %s', (kind) => {
  let t: TestApp;
  let rootToken: string;
  const seen: Response[] = [];

  // Every answer of this block is kept and searched for password hashes at the end.
  const call = async (opts: Parameters<TestApp['request']>[0]) => {
    const res = await t.request(opts);
    seen.push(res);
    return res;
  };
  const webLogin = (username: string, password: string, extra: Partial<Parameters<TestApp['request']>[0]> = {}) =>
    call({ method: 'POST', url: '/login', clientType: 'web', body: { username, password, tenant: 'demo' }, ...extra });
  const apiLogin = (username: string, password: string, tenant = 'demo') =>
    call({ method: 'POST', url: '/login', clientType: 'api', tenant, body: { username, password, tenant } });
  const meWithCookie = (access: string) => call({ method: 'GET', url: '/me', clientType: 'web', cookies: { access_token: access } });
  const meWithBearer = (token: string) => call({ method: 'GET', url: '/me', clientType: 'api', token });

  let staff: { id: number; username: string; password: string };

  beforeAll(async () => {
    t = await startApp(kind, { trustProxy: true });
    rootToken = (await t.signIn(t.root.username, t.root.password)).token;
    const u = await t.createUser(rootToken, { role: 'SECRETARY', first_name: 'Ελένη', last_name: 'Σταύρου' });
    staff = { id: u.id, username: u.username, password: u.password };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('web /login answers {user, token, exp} and sets both cookies with the right attributes', async () => {
    const res = await webLogin(staff.username, staff.password);
    expectStatus(res, 200);
    const body = json(res);
    expect(Object.keys(body).sort()).toEqual(['exp', 'token', 'user']);
    expect(Object.keys(body.user).sort()).toEqual(USER_KEYS);
    expect(body.user).toMatchObject({ id: staff.id, username: staff.username, role: 'SECRETARY', firstName: 'Ελένη', lastName: 'Σταύρου' });
    expect(typeof body.token).toBe('string');
    expect(body.token.length).toBeGreaterThan(0);
    const now = Math.floor(Date.now() / 1000);
    expect(Number.isInteger(body.exp)).toBe(true);
    expect(body.exp).toBeGreaterThan(now + t.config.accessTtlSeconds - 60);
    expect(body.exp).toBeLessThanOrEqual(now + t.config.accessTtlSeconds + 5);

    const cookies = setCookies(res);
    const access = cookies.access_token;
    const refresh = cookies.refresh_token;
    expect(access, show(res)).toBeDefined();
    expect(refresh, show(res)).toBeDefined();
    expect(access.value).toMatch(JWT);
    expect(access.value).not.toBe(body.token); // the web body holds the public session id, not the credential
    expect(access.attrs.httponly).toBe(true);
    expect(String(access.attrs.samesite).toLowerCase()).toBe('lax');
    expect(access.attrs.path).toBe('/');
    expect(Number(access.attrs['max-age'])).toBeGreaterThan(t.config.accessTtlSeconds - 10);
    expect(Number(access.attrs['max-age'])).toBeLessThanOrEqual(t.config.accessTtlSeconds);
    expect(access.attrs.secure).toBeUndefined();

    expect(refresh.value.length).toBeGreaterThanOrEqual(32);
    expect(refresh.attrs.httponly).toBe(true);
    expect(String(refresh.attrs.samesite).toLowerCase()).toBe('strict');
    expect(refresh.attrs.path).toBe('/refresh-token');
    expect(refresh.attrs.secure).toBeUndefined();
    const refreshLife =
      refresh.attrs['max-age'] !== undefined ? Number(refresh.attrs['max-age']) : (Date.parse(String(refresh.attrs.expires)) - Date.now()) / 1000;
    expect(refreshLife).toBeGreaterThan(29 * 24 * 3600);
    expect(refreshLife).toBeLessThanOrEqual(30 * 24 * 3600 + 5);
  });

  it('web cookies are Secure when the request came over HTTPS through a trusted proxy', async () => {
    const res = await webLogin(staff.username, staff.password, { headers: { 'x-forwarded-proto': 'https' } });
    expectStatus(res, 200);
    const cookies = setCookies(res);
    expect(cookies.access_token?.attrs.secure, show(res)).toBe(true);
    expect(cookies.refresh_token?.attrs.secure, show(res)).toBe(true);
    expect(res.headers['strict-transport-security']).toBeDefined();
  });

  it('GET /me with the access cookie answers {data:{user}}; without a session 401 unauthorized', async () => {
    const login = await webLogin(staff.username, staff.password);
    const access = setCookies(login).access_token.value;
    const me = await meWithCookie(access);
    expectStatus(me, 200);
    const body = json(me);
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data.user).toEqual(json(login).user);

    expectError(await call({ method: 'GET', url: '/me', clientType: 'web' }), 401, 'unauthorized');
    expectError(await meWithCookie('not-a-jwt'), 401, 'unauthorized');
    expectError(await meWithBearer('abc.def.ghi'), 401, 'unauthorized');
    // a token whose signature was tampered with
    const [h, p, s] = access.split('.');
    const flipped = `${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}`;
    expectError(await meWithCookie(flipped), 401, 'unauthorized');
  });

  it('api /login answers the JWT and refresh_token in the body and Bearer authenticates', async () => {
    const res = await apiLogin(staff.username, staff.password);
    expectStatus(res, 200);
    const body = json(res);
    expect(Object.keys(body).sort()).toEqual(['exp', 'refresh_token', 'token', 'user']);
    expect(Object.keys(body.user).sort()).toEqual(USER_KEYS);
    expect(body.token).toMatch(JWT);
    expect(typeof body.refresh_token).toBe('string');
    expect(body.refresh_token.length).toBeGreaterThanOrEqual(32);
    const me = await meWithBearer(body.token);
    expectStatus(me, 200);
    expect(json(me).data.user).toEqual(body.user);
  });

  it('web /refresh-token rotates both cookies; the old access token still works', async () => {
    const login = await webLogin(staff.username, staff.password);
    const first = setCookies(login);
    const res = await call({ method: 'POST', url: '/refresh-token', clientType: 'web', cookies: { refresh_token: first.refresh_token.value } });
    expectStatus(res, 200);
    const body = json(res);
    expect(Object.keys(body).sort()).toEqual(['exp', 'token', 'user']);
    expect(body.user).toEqual(json(login).user);
    const second = setCookies(res);
    expect(second.access_token?.value, show(res)).toMatch(JWT);
    expect(second.refresh_token?.value).toBeDefined();
    expect(second.refresh_token.value).not.toBe(first.refresh_token.value);
    // (the new access JWT may equal the old one when issued within the same second)
    expect(second.refresh_token.attrs.path).toBe('/refresh-token');
    expect(String(second.refresh_token.attrs.samesite).toLowerCase()).toBe('strict');
    expect(second.access_token.attrs.httponly).toBe(true);
    expectStatus(await meWithCookie(first.access_token.value), 200);
    expectStatus(await meWithCookie(second.access_token.value), 200);
  });

  it('a reused refresh token answers 401 session-revoked and revokes the whole family', async () => {
    const login = await webLogin(staff.username, staff.password);
    const r0 = setCookies(login).refresh_token.value;
    const a1res = await call({ method: 'POST', url: '/refresh-token', clientType: 'web', cookies: { refresh_token: r0 } });
    expectStatus(a1res, 200);
    const { access_token: a1, refresh_token: r1 } = setCookies(a1res);

    // r0 was already used: the family ends
    expectError(await call({ method: 'POST', url: '/refresh-token', clientType: 'web', cookies: { refresh_token: r0 } }), 401, 'session-revoked');
    // the newer token of the same family is dead too …
    const again = await call({ method: 'POST', url: '/refresh-token', clientType: 'web', cookies: { refresh_token: r1.value } });
    expectStatus(again, 401);
    expect(['session-revoked', 'session-expired']).toContain(json(again).error.code);
    // … and so are the access tokens of the family (the server checks the session row)
    expectStatus(await meWithCookie(a1.value), 401);
    expectStatus(await meWithCookie(setCookies(login).access_token.value), 401);
    // another sign-in of the same user is unaffected
    const other = await apiLogin(staff.username, staff.password);
    expectStatus(await meWithBearer(json(other).token), 200);
  });

  it('two concurrent refreshes with one token never both succeed', async () => {
    const login = json(await apiLogin(staff.username, staff.password));
    const both = await Promise.all(
      [1, 2].map(() => call({ method: 'POST', url: '/refresh-token', clientType: 'api', body: { refresh_token: login.refresh_token } })),
    );
    const statuses = both.map((r) => r.statusCode).sort();
    expect(statuses, both.map(show).join('\n')).not.toEqual([200, 200]);
    for (const r of both) expect([200, 401], show(r)).toContain(r.statusCode);
    // the reuse was detected: whatever the winner got is revoked with the family
    const winner = both.find((r) => r.statusCode === 200);
    if (winner) {
      const again = await call({ method: 'POST', url: '/refresh-token', clientType: 'api', body: { refresh_token: json(winner).refresh_token } });
      expectStatus(again, 401);
    }
  });

  it('api refresh takes {refresh_token} in the body and rotates it', async () => {
    const login = json(await apiLogin(staff.username, staff.password));
    const res = await call({ method: 'POST', url: '/refresh-token', clientType: 'api', body: { refresh_token: login.refresh_token } });
    expectStatus(res, 200);
    const body = json(res);
    expect(body.token).toMatch(JWT);
    expect(body.refresh_token).not.toBe(login.refresh_token);
    expectStatus(await meWithBearer(body.token), 200);
    expectError(await call({ method: 'POST', url: '/refresh-token', clientType: 'api', body: { refresh_token: login.refresh_token } }), 401, 'session-revoked');
    expectStatus(await meWithBearer(body.token), 401);
  });

  it('refresh without a token or with an unknown one answers 401 session-expired', async () => {
    expectError(await call({ method: 'POST', url: '/refresh-token', clientType: 'web' }), 401, 'session-expired');
    expectError(await call({ method: 'POST', url: '/refresh-token', clientType: 'web', cookies: { refresh_token: 'x'.repeat(43) } }), 401, 'session-expired');
    expectError(await call({ method: 'POST', url: '/refresh-token', clientType: 'api', body: { refresh_token: 'nope' } }), 401, 'session-expired');
  });

  it('web /sign-out answers 204, clears both cookies and revokes the family', async () => {
    const login = await webLogin(staff.username, staff.password);
    const c = setCookies(login);
    const out = await call({
      method: 'POST',
      url: '/sign-out',
      clientType: 'web',
      cookies: { access_token: c.access_token.value, refresh_token: c.refresh_token.value },
      body: { data: '' },
    });
    expectStatus(out, 204);
    expect(out.body).toBe('');
    const cleared = setCookies(out);
    expect(cleared.access_token, show(out)).toBeDefined();
    expect(cleared.refresh_token, show(out)).toBeDefined();
    expect(isClearing(cleared.access_token), cleared.access_token.raw).toBe(true);
    expect(isClearing(cleared.refresh_token), cleared.refresh_token.raw).toBe(true);
    expect(cleared.access_token.attrs.path).toBe('/');
    expect(cleared.refresh_token.attrs.path).toBe('/refresh-token');

    const refresh = await call({ method: 'POST', url: '/refresh-token', clientType: 'web', cookies: { refresh_token: c.refresh_token.value } });
    expectStatus(refresh, 401);
    expect(['session-revoked', 'session-expired']).toContain(json(refresh).error.code);
    expectStatus(await meWithCookie(c.access_token.value), 401);
  });

  it('api /sign-out with Bearer answers 204 and the refresh token is dead afterwards', async () => {
    const login = json(await apiLogin(staff.username, staff.password));
    expectStatus(await call({ method: 'POST', url: '/sign-out', clientType: 'api', token: login.token, body: { data: '' } }), 204);
    expectStatus(await meWithBearer(login.token), 401);
    const refresh = await call({ method: 'POST', url: '/refresh-token', clientType: 'api', body: { refresh_token: login.refresh_token } });
    expectStatus(refresh, 401);
  });

  it('wrong password, unknown user and unknown tenant get the same 401 bad-credentials', async () => {
    const wrong = await webLogin(staff.username, 'wrong-password-123');
    const unknown = await webLogin('nobody-here', 'wrong-password-123');
    const noTenant = await call({
      method: 'POST',
      url: '/login',
      clientType: 'web',
      tenant: 'no-such-centre',
      body: { username: staff.username, password: staff.password, tenant: 'no-such-centre' },
    });
    for (const res of [wrong, unknown, noTenant]) {
      expectError(res, 401, 'bad-credentials');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect(json(unknown)).toEqual(json(wrong));
    expect(json(noTenant)).toEqual(json(wrong));
  });

  it('the login body tenant must equal x-tenant-id', async () => {
    const res = await call({
      method: 'POST',
      url: '/login',
      clientType: 'web',
      tenant: 'demo',
      body: { username: staff.username, password: staff.password, tenant: 'other' },
    });
    expectError(res, 403, 'tenant-mismatch');
  });

  it('a deactivated user cannot sign in and its access and refresh tokens stop working', async () => {
    const u = await t.createUser(rootToken, { role: 'SECRETARY' });
    const web = await webLogin(u.username, u.password);
    const c = setCookies(web);
    expectStatus(await meWithBearer(u.token), 200);
    expectStatus(await call({ method: 'DELETE', url: `/api/users/${u.id}`, clientType: 'api', token: rootToken }), 204);
    expectError(await webLogin(u.username, u.password), 401, 'bad-credentials');
    expectStatus(await meWithBearer(u.token), 401);
    expectStatus(await meWithCookie(c.access_token.value), 401);
    expectStatus(await call({ method: 'POST', url: '/refresh-token', clientType: 'web', cookies: { refresh_token: c.refresh_token.value } }), 401);
  });

  it('ROOT signs in on any tenant host and acts there', async () => {
    const other = await t.createTenant('sessionother');
    const res = await apiLogin(t.root.username, t.root.password, 'sessionother');
    expectStatus(res, 200);
    const body = json(res);
    expect(body.user.role).toBe('ROOT');
    const list = await call({ method: 'GET', url: '/api/users', clientType: 'api', tenant: 'sessionother', token: body.token });
    expectStatus(list, 200);
    const usernames = json(list).data.map((u: { username: string }) => u.username);
    expect(usernames).toContain(other.admin.username);
    expect(usernames).not.toContain(staff.username);
  });

  it('a token signed with the real key but without an expiry answers 401 unauthorized', async () => {
    const login = await apiLogin(staff.username, staff.password);
    expectStatus(login, 200);
    const real = json(login).token as string;
    const claims = decodeJwt(real);
    const forged = await new SignJWT({ tid: claims.tid, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(String(claims.iss))
      .setSubject(String(claims.sub))
      .setIssuedAt()
      .sign(t.app.frontis.jwtKey);
    expectStatus(await meWithBearer(real), 200);
    expectError(await meWithBearer(forged), 401, 'unauthorized');
  });

  it('no answer of this block contained a password hash', () => {
    expect(seen.length).toBeGreaterThan(20);
    for (const res of seen) expectNoSecret(res, staff.password);
  });
});

describe.each(DATABASE_KINDS)('access token expiry and login rate limit on %s', (kind) => {
  let t: TestApp;
  const window = 600;
  let staff: Awaited<ReturnType<TestApp['createUser']>>;

  beforeAll(async () => {
    t = await startApp(kind, { loginRateLimit: { perUser: 3, perAddress: 8, windowSeconds: window } });
    const rootToken = (await t.signIn(t.root.username, t.root.password)).token;
    staff = await t.createUser(rootToken, { role: 'SECRETARY' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const loginFrom = (address: string, username: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/login',
      remoteAddress: address,
      headers: { 'x-client-type': 'web', 'x-tenant-id': 'demo', 'content-type': 'application/json' },
      payload: JSON.stringify({ username, password, tenant: 'demo' }),
    });

  function expectLimited(res: Response) {
    expectError(res, 429, 'rate-limited');
    const retry = Number(res.headers['retry-after']);
    expect(Number.isInteger(retry), `Retry-After ${res.headers['retry-after']}`).toBe(true);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(window);
    expect(res.headers['set-cookie']).toBeUndefined();
  }

  // The clock is moved, not waited for: a busy machine cannot make a token expire early or late.
  it('an expired access token answers 401 unauthorized; refresh still works; sign-out works with the refresh cookie alone', async () => {
    const ttlMs = t.config.accessTtlSeconds * 1000;
    const later = (ms: number) => vi.setSystemTime(Date.now() + ms);
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      const login = await t.request({
        method: 'POST',
        url: '/login',
        clientType: 'web',
        body: { username: staff.username, password: staff.password, tenant: 'demo' },
      });
      expectStatus(login, 200);
      const c = setCookies(login);
      expectStatus(await t.request({ method: 'GET', url: '/me', clientType: 'web', cookies: { access_token: c.access_token.value } }), 200);
      later(ttlMs + 60_000);
      expectError(await t.request({ method: 'GET', url: '/me', clientType: 'web', cookies: { access_token: c.access_token.value } }), 401, 'unauthorized');
      const refreshed = await t.request({ method: 'POST', url: '/refresh-token', clientType: 'web', cookies: { refresh_token: c.refresh_token.value } });
      expectStatus(refreshed, 200);
      const r1 = setCookies(refreshed);
      expectStatus(await t.request({ method: 'GET', url: '/me', clientType: 'web', cookies: { access_token: r1.access_token.value } }), 200);
      later(ttlMs + 60_000);
      const out = await t.request({
        method: 'POST',
        url: '/sign-out',
        clientType: 'web',
        cookies: { access_token: r1.access_token.value, refresh_token: r1.refresh_token.value },
        body: { data: '' },
      });
      expectStatus(out, 204);
      expectStatus(await t.request({ method: 'POST', url: '/refresh-token', clientType: 'web', cookies: { refresh_token: r1.refresh_token.value } }), 401);
    } finally {
      vi.useRealTimers();
    }
  });

  it('after perUser failed attempts the (tenant, username) is limited, even with the right password', async () => {
    const user = t.root.username;
    for (let i = 0; i < 3; i++) expectError(await loginFrom('10.1.0.1', user, `wrong-password-${i}`), 401, 'bad-credentials');
    expectLimited(await loginFrom('10.1.0.1', user, 'wrong-password-x'));
    // right password, another address: still limited per (tenant, username)
    expectLimited(await loginFrom('10.1.0.2', user, t.root.password));
    // another username is not affected
    expectError(await loginFrom('10.1.0.3', 'someone-else', 'wrong-password-1'), 401, 'bad-credentials');
  });

  it('after perAddress attempts an address is limited for every username', async () => {
    for (let i = 0; i < 8; i++) {
      expectError(await loginFrom('10.2.0.1', `addr-user-${i}`, 'wrong-password-1'), 401, 'bad-credentials');
    }
    expectLimited(await loginFrom('10.2.0.1', 'addr-user-fresh', 'wrong-password-1'));
    // another address still gets an ordinary answer
    expectError(await loginFrom('10.2.0.2', 'addr-user-fresh', 'wrong-password-1'), 401, 'bad-credentials');
  });
});
