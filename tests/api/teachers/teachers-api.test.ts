// /api/teachers: a teacher is also a TEACHER
// sign-in, created in one transaction with it; confirm_password must match; usernames are unique
// across all accounts of a centre; username and password are create-only; deleting a teacher
// keeps the row ('deleted: true', label {id, name: null, deleted: true}), refuses its sign-in and
// ends its sessions; history for every write, never a password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, expectNoSecret, expectStatus, json, show } from '../support/api-helpers';

type Row = Record<string, any>;
const PASSWORD = 'teacher-password-1';

describe.each(DATABASE_KINDS)('/api/teachers on %s', (kind) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<TestApp['createUser']>>;

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, token = admin.token) =>
    t.request({ method, url, body, token, clientType: 'api' });
  const teacherBody = (username: string, extra: Row = {}) => ({
    username,
    password: PASSWORD,
    confirm_password: PASSWORD,
    first_name: 'Μαρία',
    last_name: 'Παπαδοπούλου',
    ...extra,
  });
  const create = async (username: string, extra: Row = {}) => {
    const res = await call('POST', '/api/teachers', teacherBody(username, extra));
    expect(res.statusCode, show(res)).toBe(201);
    return json(res).data as Row;
  };
  const canSignIn = async (username: string, password = PASSWORD) =>
    (await t.request({ method: 'POST', url: '/login', body: { username, password, tenant: 'demo' } })).statusCode === 200;

  beforeAll(async () => {
    t = await startApp(kind);
    const rootToken = (await t.signIn(t.root.username, t.root.password)).token;
    admin = await t.createUser(rootToken, { role: 'ADMIN', username: 'teachadmin' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates the teacher and its TEACHER account in one go: user_id, username, no password; the account signs in', async () => {
    const subject = json(await call('POST', '/api/subjects', { name: 'Φυσική' })).data;
    const res = await call('POST', '/api/teachers', teacherBody('mpapadopoulou', { email: 'maria@example.gr', subject_ids: [subject.id], color: '#112233' }));
    expectStatus(res, 201);
    expectNoSecret(res, PASSWORD);
    const data = json(res).data;
    expect(data).toMatchObject({
      username: 'mpapadopoulou',
      first_name: 'Μαρία',
      last_name: 'Παπαδοπούλου',
      email: 'maria@example.gr',
      subject_ids: [subject.id],
      color: '#112233',
    });
    expect(data.subjects).toEqual([{ id: subject.id, name: 'Φυσική' }]);
    expect(Number.isInteger(data.user_id)).toBe(true);
    expect(data).not.toHaveProperty('password');
    expect(data).not.toHaveProperty('confirm_password');
    const session = await t.signIn('mpapadopoulou', PASSWORD);
    expect(session.user).toMatchObject({ id: data.user_id, role: 'TEACHER', firstName: 'Μαρία', lastName: 'Παπαδοπούλου' });
    // the account is one of the centre's users, with the TEACHER role
    const users = json(await call('GET', '/api/users?role=TEACHER&_end=200')).data;
    expect(users.map((u: Row) => u.username)).toContain('mpapadopoulou');
  });

  it('confirm_password must match (400 mismatch) and nothing is created', async () => {
    const res = await call('POST', '/api/teachers', { ...teacherBody('mismatched'), confirm_password: 'other-password-1' });
    expectError(res, 400, 'validation', { confirm_password: 'mismatch' });
    expect(await canSignIn('mismatched')).toBe(false);
    expect(json(await call('GET', '/api/teachers?username=mismatched')).total).toBe(0);
    expectError(await call('POST', '/api/teachers', { ...teacherBody('nopassword'), password: undefined, confirm_password: undefined }), 400, 'validation', {
      password: 'required',
      confirm_password: 'required',
    });
    expectError(await call('POST', '/api/teachers', teacherBody('shortpw', { password: 'short', confirm_password: 'short' })), 400, 'validation', {
      password: 'too-short',
    });
  });

  it('a username taken by any account of the centre, in any case, is 409 taken; another centre may reuse it', async () => {
    await create('takenteacher');
    for (const username of ['takenteacher', 'TakenTeacher', 'teachadmin', 'TEACHADMIN']) {
      const res = await call('POST', '/api/teachers', teacherBody(username, { first_name: 'Άλλος' }));
      expectError(res, 409, 'conflict', { username: 'taken' });
    }
    expect(json(await call('GET', '/api/teachers?first_name=%CE%86%CE%BB%CE%BB%CE%BF%CF%82')).total).toBe(0);
    // /api/users cannot take a teacher's username either
    const u = await call('POST', '/api/users', { username: 'TAKENTEACHER', password: 'user-password-1', role: 'SECRETARY', first_name: 'Α', last_name: 'Β' });
    expectError(u, 409, 'conflict', { username: 'taken' });
    const other = await t.createTenant('teachother');
    const res = await t.request({ method: 'POST', url: '/api/teachers', tenant: 'teachother', token: other.admin.token, body: teacherBody('takenteacher') });
    expectStatus(res, 201);
  });

  it('the teacher and its account are one transaction: a refused teacher leaves no account behind', async () => {
    const res = await call('POST', '/api/teachers', teacherBody('halfmade', { subject_ids: [2147483000] }));
    expectError(res, 400, 'validation', { subject_ids: 'invalid' });
    expect(await canSignIn('halfmade')).toBe(false);
    const users = json(await call('GET', '/api/users?_end=200&username=halfmade')).total;
    expect(users).toBe(0);
    await create('halfmade'); // the username is still free
  });

  it('username and password are create-only: PATCH refuses them and changes nothing', async () => {
    const row = await create('createonly');
    for (const body of [{ username: 'renamed' }, { password: 'new-password-1' }, { confirm_password: 'new-password-1' }, { user_id: 1 }]) {
      const res = await call('PATCH', `/api/teachers/${row.id}`, { ...body, version: row.version });
      expectError(res, 400, 'validation');
      expect(Object.keys(json(res).error.fields ?? {}), show(res)).toEqual(Object.keys(body));
    }
    expect(json(await call('GET', `/api/teachers/${row.id}`)).data).toEqual(row);
    expect(await canSignIn('createonly')).toBe(true);
  });

  it('DELETE keeps the row with deleted: true, refuses its sign-in, ends its sessions, and labels it "deleted" on notes', async () => {
    const row = await create('leaving', { first_name: 'Γιάννης', last_name: 'Φεύγων' });
    const session = await t.signIn('leaving', PASSWORD);
    expectStatus(await t.request({ method: 'GET', url: '/me', token: session.token }), 200);
    const note = json(await call('POST', '/api/notes', { title: 'Για τον Γιάννη', teacher_id: row.id })).data;
    expect(note.teacher).toEqual({ id: row.id, name: 'Γιάννης Φεύγων' });

    expectStatus(await call('DELETE', `/api/teachers/${row.id}`), 204);

    const after = await call('GET', `/api/teachers/${row.id}`);
    expectStatus(after, 200);
    expect(json(after).data).toMatchObject({ id: row.id, deleted: true, first_name: 'Γιάννης', last_name: 'Φεύγων' });
    // its sign-in is refused and its session ended
    const login = await t.request({ method: 'POST', url: '/login', body: { username: 'leaving', password: PASSWORD, tenant: 'demo' } });
    expect(login.statusCode, show(login)).toBe(401);
    expectStatus(await t.request({ method: 'GET', url: '/me', token: session.token }), 401);
    expectStatus(await t.request({ method: 'GET', url: '/api/mydata', token: session.token }), 401);
    // excluded from lists unless asked for
    expect(json(await call('GET', '/api/teachers?_end=200')).data.map((r: Row) => r.id)).not.toContain(row.id);
    expect(json(await call('GET', `/api/teachers?_end=200&q=${encodeURIComponent('φευγων')}`)).total).toBe(0);
    const deleted = await call('GET', '/api/teachers?_end=200&deleted=true');
    expectStatus(deleted, 200);
    expect(json(deleted).data.map((r: Row) => r.id)).toContain(row.id);
    expect(json(deleted).data.find((r: Row) => r.id === row.id).deleted).toBe(true);
    // references keep pointing at it, labelled as deleted
    const n = json(await call('GET', `/api/notes/${note.id}`)).data;
    expect(n.teacher_id).toBe(row.id);
    expect(n.teacher).toEqual({ id: row.id, name: null, deleted: true });
    const listed = json(await call('GET', `/api/notes?teacher_id=${row.id}`)).data;
    expect(listed.map((x: Row) => x.teacher)).toEqual([{ id: row.id, name: null, deleted: true }]);
    // history: create and delete
    const h = json(await call('GET', `/api/history?entity=teachers&entity_id=${row.id}`)).data;
    expect(h.map((e: Row) => e.action).sort()).toEqual(['create', 'delete']);

    // its sign-in cannot be switched back on from Users/Admins
    const account = json(await call('GET', `/api/users?_end=200&username=leaving`)).data[0];
    const reactivate = await call('PATCH', `/api/users/${account.id}`, { status: 'ACTIVE', version: account.version });
    expectStatus(reactivate, 409);
    expect(json(reactivate).error.code).toBe('conflict');
    const again = await t.request({ method: 'POST', url: '/login', body: { username: 'leaving', password: PASSWORD, tenant: 'demo' } });
    expect(again.statusCode, show(again)).toBe(401);
  });

  it('another tenant cannot read, change or delete a teacher, nor end its sign-in', async () => {
    const row = await create('isolated');
    const other = await t.createTenant('teachspy');
    const spy = (method: 'GET' | 'PATCH' | 'DELETE', body?: unknown) =>
      t.request({ method, url: `/api/teachers/${row.id}`, tenant: 'teachspy', token: other.admin.token, body });
    expectError(await spy('GET'), 404, 'not-found');
    expectError(await spy('PATCH', { first_name: 'Χάκερ', version: row.version }), 404, 'not-found');
    expectError(await spy('DELETE'), 404, 'not-found');
    expect(json(await call('GET', `/api/teachers/${row.id}`)).data).toEqual(row);
    expect(await canSignIn('isolated')).toBe(true);
  });

  it('history records create and update without the password', async () => {
    const res = await call('POST', '/api/teachers', teacherBody('historied'));
    const row = json(res).data;
    const p = await call('PATCH', `/api/teachers/${row.id}`, { last_name: 'Ιστορικού', version: row.version });
    expectStatus(p, 200);
    const h = await call('GET', `/api/history?entity=teachers&entity_id=${row.id}`);
    expectStatus(h, 200);
    expectNoSecret(h, PASSWORD);
    const entries: Row[] = json(h).data;
    expect(entries.map((e) => e.action).sort()).toEqual(['create', 'update']);
    expect(entries.find((e) => e.action === 'update')!.changes.last_name).toEqual({ old: 'Παπαδοπούλου', new: 'Ιστορικού' });
    expect(entries.find((e) => e.action === 'create')!.changes.username?.new).toBe('historied');
  });
});
