// A guardian's way into the portal: the office turns `portal` on, she is e-mailed (in Greek) a
// one-time link kept only as its hash; the link answers whom it is for, sets her password
// once (the staff's password rules) and then she signs in with her e-mail address as GUARDIAN.
// A link past its 7 days, used, replaced or unknown is refused; portal off ends her sessions
// and her sign-in; portal on again invites her again and brings her sign-in back.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../../server/modules/portal-auth/invitations';
import { expectError, json, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { created, createTeacher, fresh, makeWorld, ok, type Row, type World } from '../support/lessons-helpers';
import { withTenant } from '../../../server/db/doors';
import { queryRows } from '../../../server/db/statements';

const PASSWORD = 'mother-password-1';

describe.each(DATABASE_KINDS)('portal invitations on %s', (kind) => {
  let t: TestApp;
  let w: World;
  let tenantId: number;

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeWorld(t, { teachers: 0, classes: 0, subjects: 0, rooms: 0 });
    tenantId = (await queryRows<{ id: number }>(t.database.db, sql`select id from tenants where slug = 'demo'`))[0]!.id;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  const run = <T>(query: ReturnType<typeof sql>) => withTenant(t.database, tenantId, (tx) => queryRows<T>(tx, query));

  /** Her invitation e-mails, newest first. */
  const mails = (guardianId: number) =>
    run<{ recipient: string; subject: string; body: string; kind: string }>(
      sql`select recipient, subject, body, kind from outbox where tenant_id = ${tenantId} and guardian_id = ${guardianId} order by id desc`,
    );
  /** The token of her newest invitation, as the link in her e-mail carries it. */
  const tokenOf = async (guardianId: number) => {
    const [mail] = await mails(guardianId);
    const token = /\/invitation\?token=([A-Za-z0-9_-]+)/.exec(mail?.body ?? '')?.[1];
    expect(token, 'a link in her e-mail').toBeTruthy();
    return token!;
  };
  const open = (token: string) => t.request({ url: `/api/invitation?token=${encodeURIComponent(token)}` });
  const accept = (token: string, password = PASSWORD) => t.request({ method: 'POST', url: '/api/invitation', body: { token, password } });
  const newGuardian = async (over: Row = {}) => {
    const email = `${fresh('mitera')}@example.gr`;
    return created(
      await w.secretary('POST', '/api/guardians', { first_name: 'Θεοδώρα', last_name: 'Αλεξίου', relation: 'MOTHER', email, portal: true, ...over }),
      'guardian',
    );
  };
  const signIn = (username: string, password = PASSWORD) => t.request({ method: 'POST', url: '/login', body: { username, password, tenant: 'demo' } });

  it('e-mails her a Greek invitation with a one-time link, stored only as its hash', async () => {
    const guardian = await newGuardian();
    const [mail] = await mails(guardian.id);
    expect(mail).toMatchObject({ kind: 'portal-invitation', recipient: guardian.email });
    expect(mail!.subject).toContain('Πρόσκληση στην πύλη γονέων');
    expect(mail!.body.startsWith('Αγαπητή κυρία Αλεξίου,\n')).toBe(true);
    expect(mail!.body).toContain('http://demo.localhost/invitation?token=');
    const token = await tokenOf(guardian.id);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const stored = await run<Row>(sql`select * from portal_invitations where tenant_id = ${tenantId} and guardian_id = ${guardian.id}`);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    const days = (new Date(stored[0]!.expires_at).getTime() - new Date(stored[0]!.created_at).getTime()) / 86_400_000;
    expect(days).toBeCloseTo(7, 3);

    const about = ok(await open(token));
    expect(about).toEqual({ email: guardian.email, first_name: 'Θεοδώρα', expires_at: new Date(stored[0]!.expires_at).toISOString() });
  });

  it('sets her password once; she then signs in with her e-mail address as GUARDIAN; the link is spent', async () => {
    const guardian = await newGuardian({ email: `${fresh('Mitera')}@Example.gr` });
    const token = await tokenOf(guardian.id);
    const email = String(guardian.email).toLowerCase();
    // the staff's password rules
    expectError(await accept(token, 'short'), 400, 'validation', { password: 'too-short' });
    expect((await accept(token)).statusCode).toBe(204);
    const res = await signIn(email.toUpperCase());
    expect(res.statusCode, show(res)).toBe(200);
    expect(json(res).user).toMatchObject({ username: email, role: 'GUARDIAN', firstName: 'Θεοδώρα', lastName: 'Αλεξίου' });
    const me = await t.request({ url: '/me', token: json(res).token });
    expect(ok(me).user.role).toBe('GUARDIAN');
    // reuse refused
    expectError(await accept(token, 'another-password-1'), 410, 'invitation-used');
    expectError(await open(token), 410, 'invitation-used');
    expect((await signIn(email, 'another-password-1')).statusCode).toBe(401);

    const state = ok(await w.secretary('GET', `/api/guardians/${guardian.id}/portal`));
    expect(state.portal).toBe(true);
    expect(state.signed_up_at).toEqual(expect.any(String));
    expect(state.last_sign_in_at).toEqual(expect.any(String));
    expect(state.invited_at).toEqual(expect.any(String));
  });

  it('without a mail setting says no e-mail can leave, and hands the office her pending link to pass on', async () => {
    const guardian = await newGuardian();
    const token = await tokenOf(guardian.id);
    const state = ok(await w.secretary('GET', `/api/guardians/${guardian.id}/portal`));
    expect(state).toMatchObject({ portal: true, mail: false, signed_up_at: null, invitation_link: `http://demo.localhost/invitation?token=${token}` });
    // With mail, the e-mail carries it: the link is not shown.
    t.config.smtpUrl = 'smtp://127.0.0.1:9';
    try {
      expect(ok(await w.secretary('GET', `/api/guardians/${guardian.id}/portal`))).toMatchObject({ mail: true, invitation_link: null });
    } finally {
      t.config.smtpUrl = undefined;
    }
    // Spent, it is shown no more.
    expect((await accept(token)).statusCode).toBe(204);
    expect(ok(await w.secretary('GET', `/api/guardians/${guardian.id}/portal`))).toMatchObject({ mail: false, invitation_link: null });
  });

  it('refuses a link past its 7 days, an unknown link, and the older link once another is sent', async () => {
    const guardian = await newGuardian();
    const first = await tokenOf(guardian.id);
    await run(sql`update portal_invitations set expires_at = now() - interval '1 minute' where tenant_id = ${tenantId} and guardian_id = ${guardian.id}`);
    expectError(await open(first), 410, 'invitation-expired');
    expectError(await accept(first), 410, 'invitation-expired');
    expectError(await open('not-a-real-token'), 404, 'invitation-invalid');
    expectError(await accept('x'.repeat(43)), 404, 'invitation-invalid');

    expect((await w.secretary('POST', `/api/guardians/${guardian.id}/invitation`)).statusCode).toBe(204);
    const second = await tokenOf(guardian.id);
    expect(second).not.toBe(first);
    expect((await mails(guardian.id)).length).toBe(2);
    expect((await w.secretary('POST', `/api/guardians/${guardian.id}/invitation`)).statusCode).toBe(204);
    expectError(await open(second), 404, 'invitation-invalid');
    const third = await tokenOf(guardian.id);
    expect(ok(await open(third)).email).toBe(guardian.email);
    const history = ok(await w.admin('GET', `/api/history?entity=portal-invitations&entity_id=${guardian.id}`));
    expect(history.length).toBeGreaterThanOrEqual(3);
  });

  it('refuses portal access without an e-mail address, and changes nothing', async () => {
    const res = await w.secretary('POST', '/api/guardians', { first_name: 'Χωρίς', last_name: 'Email', portal: true });
    expectError(res, 400, 'validation', { portal: 'needs-email' });
    const plain = created(await w.secretary('POST', '/api/guardians', { first_name: 'Χωρίς', last_name: 'Email' }));
    expectError(await w.secretary('PATCH', `/api/guardians/${plain.id}`, { version: plain.version, portal: true }), 400, 'validation', {
      portal: 'needs-email',
    });
    expect(ok(await w.secretary('GET', `/api/guardians/${plain.id}`)).portal).toBe(false);
    expect(await mails(plain.id)).toHaveLength(0);
    expectError(await w.secretary('POST', `/api/guardians/${plain.id}/invitation`), 409, 'conflict', { portal: 'invalid' });
  });

  it('refuses an address that is already a staff username (409 email-taken)', async () => {
    const username = `${fresh('grammateia')}@example.gr`;
    created(await w.admin('POST', '/api/users', { username, password: 'user-password-1', role: 'SECRETARY', first_name: 'Γ', last_name: 'Γ' }));
    const res = await w.secretary('POST', '/api/guardians', { first_name: 'Ίδιο', last_name: 'Email', email: username, portal: true });
    const body = expectError(res, 409, 'conflict', { email: 'taken' });
    expect(body.error.details).toMatchObject({ reason: 'email-taken' });
  });

  it('portal off ends her sessions and her sign-in; portal on again invites her again and brings it back', async () => {
    const guardian = await newGuardian();
    expect((await accept(await tokenOf(guardian.id))).statusCode).toBe(204);
    const session = json(await signIn(guardian.email));
    expect((await t.request({ url: '/me', token: session.token })).statusCode).toBe(200);

    // another invitation sent and still pending is revoked with her access
    expect((await w.secretary('POST', `/api/guardians/${guardian.id}/invitation`)).statusCode).toBe(204);
    const pending = await tokenOf(guardian.id);
    const current = ok(await w.secretary('GET', `/api/guardians/${guardian.id}`));
    ok(await w.secretary('PATCH', `/api/guardians/${guardian.id}`, { version: current.version, portal: false }));

    const after = await t.request({ url: '/me', token: session.token });
    expect(after.statusCode).toBe(401);
    const refresh = await t.request({ method: 'POST', url: '/refresh-token', body: { refresh_token: session.refresh_token } });
    expect(refresh.statusCode).toBe(401);
    expect((await signIn(guardian.email)).statusCode).toBe(401);
    expectError(await open(pending), 404, 'invitation-invalid');
    expect(ok(await w.secretary('GET', `/api/guardians/${guardian.id}/portal`))).toMatchObject({ portal: false });

    const off = ok(await w.secretary('GET', `/api/guardians/${guardian.id}`));
    ok(await w.secretary('PATCH', `/api/guardians/${guardian.id}`, { version: off.version, portal: true }));
    const again = await tokenOf(guardian.id);
    expect(again).not.toBe(pending);
    expect((await accept(again, 'new-password-22')).statusCode).toBe(204);
    expect((await signIn(guardian.email)).statusCode).toBe(401);
    const back = await signIn(guardian.email, 'new-password-22');
    expect(back.statusCode, show(back)).toBe(200);
    expect(json(back).user.role).toBe('GUARDIAN');
  });

  it('deleting her removes her sign-in; her sign-in never shows under /api/users', async () => {
    const guardian = await newGuardian();
    expect((await accept(await tokenOf(guardian.id))).statusCode).toBe(204);
    const session = json(await signIn(guardian.email));
    const users = [
      ...(ok(await w.admin('GET', '/api/users?_end=100')) as Row[]),
      ...(ok(await w.admin('GET', `/api/users?q=${encodeURIComponent(String(guardian.email).split('@')[0]!)}`)) as Row[]),
    ];
    expect(users.some((u) => u.username === guardian.email)).toBe(false);
    expect(users.every((u) => u.role !== 'GUARDIAN')).toBe(true);
    expectError(await w.admin('GET', `/api/users/${session.user.id}`), 404, 'not-found');
    expectError(await w.admin('PATCH', `/api/users/${session.user.id}`, { version: 1, status: 'ACTIVE' }), 404, 'not-found');
    expectError(await w.admin('DELETE', `/api/users/${session.user.id}`), 404, 'not-found');
    expectError(
      await w.admin('POST', '/api/users', { username: fresh('gu'), password: 'user-password-1', role: 'GUARDIAN', first_name: 'Α', last_name: 'Β' }),
      400,
      'validation',
      {
        role: 'invalid-option',
      },
    );

    const gone = await w.secretary('DELETE', `/api/guardians/${guardian.id}`);
    expect(gone.statusCode, show(gone)).toBeLessThan(300);
    expect((await t.request({ url: '/me', token: session.token })).statusCode).toBe(401);
    expect((await signIn(guardian.email)).statusCode).toBe(401);
    expect(await run(sql`select id from users where tenant_id = ${tenantId} and id = ${session.user.id}`)).toHaveLength(0);
  });

  it('erasing her removes her sign-in and her invitations', async () => {
    const guardian = await newGuardian();
    expect((await accept(await tokenOf(guardian.id))).statusCode).toBe(204);
    const session = json(await signIn(guardian.email));
    ok(await w.admin('POST', `/api/guardians/${guardian.id}/erase`));
    expect((await t.request({ url: '/me', token: session.token })).statusCode).toBe(401);
    expect((await signIn(guardian.email)).statusCode).toBe(401);
    expect(await run(sql`select id from portal_invitations where tenant_id = ${tenantId} and guardian_id = ${guardian.id}`)).toHaveLength(0);
  });

  it('is the office’s: a TEACHER gets 403 on the portal state and the resend', async () => {
    const guardian = await newGuardian();
    const teacher = (await createTeacher(t, w.admin, 'Άννα', fresh('Καθ'))).token;
    expectError(await t.request({ url: `/api/guardians/${guardian.id}/portal`, token: teacher }), 403, 'forbidden');
    expectError(await t.request({ method: 'POST', url: `/api/guardians/${guardian.id}/invitation`, token: teacher }), 403, 'forbidden');
    expectError(await w.secretary('GET', '/api/guardians/999999/portal'), 404, 'not-found');
  });
});
