// Sign-in limits under parallel attack, device cookies, and sign-out without the access cookie:
// what an attacker and the real person each get back from /login, /refresh-token and /sign-out.
import type { FastifyInstance } from 'fastify';
import type { Response } from 'light-my-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { expectError, expectStatus, isClearing, json, setCookies, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { openDatabase } from '../../../server/db/open';

const PER_USER = 10;
const PER_ADDRESS = 50;

/** Every Set-Cookie of a response (several may share a name on different paths). */
function allSetCookies(res: Response): Array<{ name: string; value: string; path: string; raw: string }> {
  const header = res.headers['set-cookie'];
  const list = header === undefined ? [] : Array.isArray(header) ? header : [String(header)];
  return list.map((raw) => {
    const [pair] = raw.split(';');
    const eq = pair!.indexOf('=');
    const path = /;\s*path=([^;]*)/i.exec(raw)?.[1] ?? '';
    return { name: pair!.slice(0, eq).trim(), value: pair!.slice(eq + 1).trim(), path, raw };
  });
}

const deviceCookieOf = (res: Response) => {
  const found = allSetCookies(res).find((c) => c.name.startsWith('device_'));
  if (!found) throw new Error(`no device cookie: ${show(res)}`);
  return found;
};

describe.each(DATABASE_KINDS)('sign-in limits and device cookies on %s', (kind) => {
  let t: TestApp;
  /** A second Frontis on the same PostgreSQL database (another pool, like another process). */
  let second: { app: FastifyInstance; close(): Promise<void> } | undefined;
  // Taken once: the ROOT test below spends ROOT's untrusted budget.
  let rootToken: string;
  let address = 0;
  const nextAddress = () => `10.9.${Math.floor(++address / 250)}.${address % 250}`;

  beforeAll(async () => {
    t = await startApp(kind, { loginRateLimit: { perUser: PER_USER, perAddress: PER_ADDRESS, windowSeconds: 600 } });
    rootToken = (await t.signIn(t.root.username, t.root.password)).token;
    if (kind === 'postgres') {
      const database = await openDatabase({ url: t.config.databaseUrl });
      const app = await buildApp({ database, config: t.config, serveClient: false });
      second = {
        app,
        async close() {
          await app.close();
          await database.close();
        },
      };
    }
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  const login = (opts: { username: string; password: string; tenant?: string; from?: string; cookies?: Record<string, string>; app?: FastifyInstance }) => {
    const tenant = opts.tenant ?? 'demo';
    return (opts.app ?? t.app).inject({
      method: 'POST',
      url: '/login',
      remoteAddress: opts.from ?? nextAddress(),
      headers: { host: `${tenant}.localhost`, 'x-client-type': 'web', 'x-tenant-id': tenant, 'content-type': 'application/json' },
      cookies: opts.cookies,
      payload: JSON.stringify({ username: opts.username, password: opts.password, tenant }),
    });
  };

  /** Signs in once, as the person's own browser, and keeps the device cookie it is given. */
  async function knownBrowser(username: string, password: string, tenant = 'demo') {
    const res = await login({ username, password, tenant });
    expectStatus(res, 200);
    const cookie = deviceCookieOf(res);
    return { [cookie.name]: cookie.value };
  }

  /** Wrong passwords spread over both apps (when there are two) and many addresses. */
  const attack = (username: string, count: number, tenants: readonly string[]) =>
    Array.from({ length: count }, (_, i) =>
      login({ username, password: `wrong-password-${i}`, tenant: tenants[i % tenants.length], app: second && i % 2 ? second.app : t.app }),
    );

  function tally(answers: Response[]) {
    const checked = answers.filter((r) => r.statusCode !== 429);
    for (const r of checked) expectError(r, 401, 'bad-credentials');
    for (const r of answers.filter((a) => a.statusCode === 429)) {
      expectError(r, 429, 'rate-limited');
      expect(Number(r.headers['retry-after']), show(r)).toBeGreaterThan(0);
    }
    return checked.length;
  }

  it('the device cookie is signed, httpOnly, long-lived and sent only to /login', async () => {
    const u = await t.createUser(rootToken, { role: 'SECRETARY' });
    const res = await login({ username: u.username, password: u.password });
    expectStatus(res, 200);
    const cookie = deviceCookieOf(res);
    expect(cookie.path).toBe('/login');
    expect(cookie.raw.toLowerCase()).toContain('httponly');
    expect(cookie.raw.toLowerCase()).toContain('samesite=strict');
    expect(Number(/max-age=(\d+)/i.exec(cookie.raw)?.[1])).toBeGreaterThan(300 * 24 * 3600);
    // A failed attempt gets no cookie at all.
    expect((await login({ username: u.username, password: 'wrong-password-0' })).headers['set-cookie']).toBeUndefined();
  });

  it('200 parallel wrong passwords against one user: at most the limit is checked, and the user signs in from a known browser meanwhile', async () => {
    const victim = await t.createUser(rootToken, { role: 'SECRETARY' });
    const device = await knownBrowser(victim.username, victim.password);

    const [mine, ...answers] = await Promise.all([
      login({ username: victim.username, password: victim.password, cookies: device }),
      ...attack(victim.username, 200, ['demo']),
    ]);
    expectStatus(mine, 200);
    const checked = tally(answers);
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(PER_USER);

    // A stranger's browser with the right password is locked out; the known one is not.
    expectError(await login({ username: victim.username, password: victim.password }), 429, 'rate-limited');
    expectStatus(await login({ username: victim.username, password: victim.password, cookies: device }), 200);
  });

  it("ROOT's limit is one budget across all centres; ROOT still signs in from a known browser", async () => {
    await t.createTenant(`lim${kind}`);
    const device = await knownBrowser(t.root.username, t.root.password);

    const [mine, ...answers] = await Promise.all([
      login({ username: t.root.username, password: t.root.password, cookies: device }),
      ...attack(t.root.username, 200, ['demo', `lim${kind}`]),
    ]);
    expectStatus(mine, 200);
    const checked = tally(answers);
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(PER_USER);
    // Spent on demo, so spent on the other centre too.
    expectError(await login({ username: t.root.username, password: t.root.password, tenant: `lim${kind}` }), 429, 'rate-limited');
  });

  it('a device cookie counts only for the name it was given to, and a known device has its own limit', async () => {
    const alice = await t.createUser(rootToken, { role: 'SECRETARY' });
    const bob = await t.createUser(rootToken, { role: 'SECRETARY' });
    const aliceDevice = await knownBrowser(alice.username, alice.password);
    const bobDevice = await knownBrowser(bob.username, bob.password);
    await Promise.all(attack(bob.username, PER_USER + 5, ['demo']));
    expectError(await login({ username: bob.username, password: bob.password }), 429, 'rate-limited');
    // Alice's cookie, under Bob's cookie name or as itself, does not make a stranger trusted for Bob.
    const [aliceName, aliceValue] = Object.entries(aliceDevice)[0]!;
    const [bobName] = Object.keys(bobDevice);
    expectError(await login({ username: bob.username, password: bob.password, cookies: { [bobName!]: aliceValue! } }), 429, 'rate-limited');
    expectError(await login({ username: bob.username, password: bob.password, cookies: { [aliceName]: aliceValue! } }), 429, 'rate-limited');
    // A tampered cookie is no cookie.
    const [value] = Object.values(bobDevice);
    const tampered = `${value!.slice(0, -2)}${value!.endsWith('AA') ? 'BB' : 'AA'}`;
    expectError(await login({ username: bob.username, password: bob.password, cookies: { [bobName!]: tampered } }), 429, 'rate-limited');

    // Someone guessing on the known device itself is stopped after the limit too.
    const onDevice = await Promise.all(
      Array.from({ length: PER_USER + 5 }, (_, i) => login({ username: alice.username, password: `wrong-password-${i}`, cookies: aliceDevice })),
    );
    expect(tally(onDevice)).toBeLessThanOrEqual(PER_USER);
    expectError(await login({ username: alice.username, password: alice.password, cookies: aliceDevice }), 429, 'rate-limited');
    // … which does not lock Alice out of a fresh browser.
    expectStatus(await login({ username: alice.username, password: alice.password }), 200);
  });

  it('the address limit applies to untrusted attempts only: people behind one address sign in from their browsers', async () => {
    const office = await t.createUser(rootToken, { role: 'SECRETARY' });
    const device = await knownBrowser(office.username, office.password);
    const shared = '10.77.0.1';
    await Promise.all(Array.from({ length: PER_ADDRESS }, (_, i) => login({ username: `nobody-${i}`, password: 'wrong-password-1', from: shared })));
    expectError(await login({ username: office.username, password: office.password, from: shared }), 429, 'rate-limited');
    expectStatus(await login({ username: office.username, password: office.password, from: shared, cookies: device }), 200);
  });

  it('sign-out with only the refresh cookie (access cookie expired and gone) ends the session', async () => {
    const u = await t.createUser(rootToken, { role: 'SECRETARY' });
    const res = await login({ username: u.username, password: u.password });
    expectStatus(res, 200);
    const refreshCookies = allSetCookies(res).filter((c) => c.name === 'refresh_token');
    // The browser sends the refresh cookie to /refresh-token and /sign-out, and nowhere else.
    expect(refreshCookies.map((c) => c.path).sort()).toEqual(['/refresh-token', '/sign-out']);
    expect(new Set(refreshCookies.map((c) => c.value)).size).toBe(1);
    const refresh = refreshCookies[0]!.value;

    const out = await t.request({ method: 'POST', url: '/sign-out', clientType: 'web', cookies: { refresh_token: refresh }, body: { data: '' } });
    expectStatus(out, 204);
    const cleared = allSetCookies(out).filter((c) => c.name === 'refresh_token');
    expect(cleared.map((c) => c.path).sort()).toEqual(['/refresh-token', '/sign-out']);
    const again = await t.request({ method: 'POST', url: '/refresh-token', clientType: 'web', cookies: { refresh_token: refresh } });
    expectStatus(again, 401);
    expect(['session-revoked', 'session-expired']).toContain(json(again).error.code);
    expect(isClearing(setCookies(out).access_token!)).toBe(true);
  });

  it('a refresh rotates the refresh cookie on both paths', async () => {
    const u = await t.createUser(rootToken, { role: 'SECRETARY' });
    const res = await login({ username: u.username, password: u.password });
    const first = allSetCookies(res).find((c) => c.name === 'refresh_token')!.value;
    const rotated = await t.request({ method: 'POST', url: '/refresh-token', clientType: 'web', cookies: { refresh_token: first } });
    expectStatus(rotated, 200);
    const next = allSetCookies(rotated).filter((c) => c.name === 'refresh_token');
    expect(next.map((c) => c.path).sort()).toEqual(['/refresh-token', '/sign-out']);
    expect(new Set(next.map((c) => c.value)).size).toBe(1);
    expect(next[0]!.value).not.toBe(first);
    // Signing out with the rotated cookie ends the family.
    expectStatus(await t.request({ method: 'POST', url: '/sign-out', clientType: 'web', cookies: { refresh_token: next[0]!.value }, body: { data: '' } }), 204);
    expectStatus(await t.request({ method: 'POST', url: '/refresh-token', clientType: 'web', cookies: { refresh_token: next[0]!.value } }), 401);
  });
});
