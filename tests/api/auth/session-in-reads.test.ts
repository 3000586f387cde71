// A list request whose session was found live before sends the session check in the same
// message as its page (one round trip). What the session has become since is judged before any
// row is answered: an ended session, a deactivated account or a changed role get exactly what
// they would get on any other route, whatever else is wrong with the request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, json, show } from '../support/api-helpers';

describe.each(DATABASE_KINDS)('the session checked with the first reads, on %s', (kind) => {
  let t: TestApp;
  let rootToken: string;

  beforeAll(async () => {
    t = await startApp(kind, { dbCounts: true });
    rootToken = (await t.signIn(t.root.username, t.root.password)).token;
    const res = await t.request({ method: 'POST', url: '/api/students', token: rootToken, body: { first_name: 'Άννα', last_name: 'Αλεξίου' } });
    expect(res.statusCode, show(res)).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A list answered with rows, in one round trip once the session has been seen live. */
  async function listsInOneRoundTrip(token: string, url = '/api/students') {
    const first = await t.request({ url, token });
    expect(first.statusCode, show(first)).toBe(200);
    const again = await t.request({ url, token });
    expect(again.statusCode, show(again)).toBe(200);
    expect(json(again).total).toBeGreaterThan(0);
    expect(Number(again.headers['x-db-round-trips'])).toBe(1);
  }

  const signOut = async (token: string) => {
    const res = await t.request({ method: 'POST', url: '/sign-out', clientType: 'api', token, body: { data: '' } });
    expect(res.statusCode, show(res)).toBe(204);
  };

  it('a session signed out since the last list gets 401 session-revoked and no rows', async () => {
    const user = await t.createUser(rootToken, { role: 'SECRETARY' });
    await listsInOneRoundTrip(user.token);
    await signOut(user.token);
    const res = await t.request({ url: '/api/students', token: user.token });
    const body = expectError(res, 401, 'session-revoked');
    expect(body.data).toBeUndefined();
    expect(res.body).not.toContain('Αλεξίου');
  });

  it('an ended session is told so before a query string it sent wrong', async () => {
    const user = await t.createUser(rootToken, { role: 'SECRETARY' });
    await listsInOneRoundTrip(user.token);
    await signOut(user.token);
    // Refused by the list's own check, and by the route's query schema.
    expectError(await t.request({ url: '/api/students?_sort=no_such_field', token: user.token }), 401, 'session-revoked');
    expectError(await t.request({ url: '/api/receipts?_start=abc', token: user.token }), 401, 'session-revoked');
    expectError(await t.request({ url: '/api/attendance?_sort=no_such_field', token: user.token }), 401, 'session-revoked');
  });

  it('a deactivated account gets 401 on its next list', async () => {
    const user = await t.createUser(rootToken, { role: 'SECRETARY' });
    await listsInOneRoundTrip(user.token);
    const res = await t.request({ method: 'DELETE', url: `/api/users/${user.id}`, token: rootToken });
    expect(res.statusCode, show(res)).toBe(204);
    expect((await t.request({ url: '/api/students', token: user.token })).statusCode).toBe(401);
  });

  it('a role taken away since the last list is refused 403; a renamed account reads on', async () => {
    const user = await t.createUser(rootToken, { role: 'ADMIN' });
    const expense = await t.request({
      method: 'POST',
      url: '/api/expenses',
      token: rootToken,
      body: { date: '2026-11-02', amount: 1500, description: 'Χαρτί' },
    });
    expect(expense.statusCode, show(expense)).toBe(201);
    await listsInOneRoundTrip(user.token, '/api/expenses');
    const seen = json(await t.request({ url: `/api/users/${user.id}`, token: rootToken })).data;
    const renamed = await t.request({
      method: 'PATCH',
      url: `/api/users/${user.id}`,
      token: rootToken,
      body: { first_name: 'Κατερίνα', version: seen.version },
    });
    expect(renamed.statusCode, show(renamed)).toBe(200);
    // Her name changed (the session is no longer as last seen): checked afresh, and answered.
    const after = await t.request({ url: '/api/expenses', token: user.token });
    expect(after.statusCode, show(after)).toBe(200);
    expect(json(after).total).toBeGreaterThan(0);

    const demoted = await t.request({
      method: 'PATCH',
      url: `/api/users/${user.id}`,
      token: rootToken,
      body: { role: 'SECRETARY', version: json(renamed).data.version },
    });
    expect(demoted.statusCode, show(demoted)).toBe(200);
    const refused = await t.request({ url: '/api/expenses', token: user.token });
    const body = expectError(refused, 403, 'forbidden');
    expect(body.data).toBeUndefined();
    expect(refused.body).not.toContain('Χαρτί');
    // What a secretary may read, she reads, in one round trip again.
    await listsInOneRoundTrip(user.token);
  });
});
