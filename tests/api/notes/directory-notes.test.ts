// /api/notes: author_id is the signed-in user (ROOT:
// null, labelled "Root") and never taken from the body; a TEACHER lists and reads their own notes
// and the notes about their teacher record, and writes only their own; staff see all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response } from 'light-my-request';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, expectStatus, json, show } from '../support/api-helpers';

type Row = Record<string, any>;

describe.each(DATABASE_KINDS)('/api/notes on %s', (kind) => {
  let t: TestApp;
  let rootToken: string;
  let admin: Awaited<ReturnType<TestApp['createUser']>>;
  const teachers = {} as Record<'one' | 'two', { record: Row; token: string }>;
  const notes: Record<string, Row> = {};

  const call = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    t.request({ method, url, body, token, clientType: 'api' });
  const refused = (res: Response) => {
    expect([403, 404], show(res)).toContain(res.statusCode);
    expectError(res, res.statusCode, res.statusCode === 403 ? 'forbidden' : 'not-found');
  };

  beforeAll(async () => {
    t = await startApp(kind);
    rootToken = (await t.signIn(t.root.username, t.root.password)).token;
    admin = await t.createUser(rootToken, { role: 'ADMIN', first_name: 'Άννα', last_name: 'Διευθύντρια' });
    for (const [key, username, first_name] of [
      ['one', 'noteteacherone', 'Κατερίνα'],
      ['two', 'noteteachertwo', 'Σπύρος'],
    ] as const) {
      const res = await call(admin.token, 'POST', '/api/teachers', {
        username,
        password: 'teacher-password-1',
        confirm_password: 'teacher-password-1',
        first_name,
        last_name: 'Δασκάλου',
      });
      expect(res.statusCode, show(res)).toBe(201);
      teachers[key] = { record: json(res).data, token: (await t.signIn(username, 'teacher-password-1')).token };
    }
    const make = async (token: string, body: Row) => {
      const res = await call(token, 'POST', '/api/notes', body);
      expect(res.statusCode, show(res)).toBe(201);
      return json(res).data as Row;
    };
    notes.staff = await make(admin.token, { title: 'Σημείωση γραμματείας', body: 'Μόνο για το γραφείο' });
    notes.aboutOne = await make(admin.token, { title: 'Για την Κατερίνα', teacher_id: teachers.one.record.id });
    notes.byOne = await make(teachers.one.token, { title: 'Δική μου σημείωση', body: 'Κείμενο' });
    notes.byTwo = await make(teachers.two.token, { title: 'Του Σπύρου' });
    notes.byRoot = await make(rootToken, { title: 'Από τον διαχειριστή' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('author_id is the signed-in user with a label; ROOT notes have author_id null labelled "Root"; author_id cannot be sent', async () => {
    expect(notes.staff.author_id).toBe(admin.id);
    expect(notes.staff.author).toMatchObject({ id: admin.id, name: 'Άννα Διευθύντρια' });
    expect(notes.byOne.author_id).toBe(teachers.one.record.user_id);
    expect(notes.byOne.author).toMatchObject({ id: teachers.one.record.user_id, name: 'Κατερίνα Δασκάλου' });
    expect(notes.byRoot.author_id).toBeNull();
    expect(notes.byRoot.author?.name).toBe('Root');
    expect(notes.aboutOne.teacher).toEqual({ id: teachers.one.record.id, name: 'Κατερίνα Δασκάλου' });
    const forged = await call(admin.token, 'POST', '/api/notes', { title: 'Πλαστή', author_id: teachers.two.record.user_id });
    expectError(forged, 400, 'validation', { author_id: 'unknown-field' });
    const p = await call(admin.token, 'PATCH', `/api/notes/${notes.staff.id}`, { author_id: teachers.two.record.user_id, version: notes.staff.version });
    expectError(p, 400, 'validation', { author_id: 'unknown-field' });
    const byAuthor = json(await call(admin.token, 'GET', `/api/notes?author_id=${teachers.one.record.user_id}`)).data;
    expect(byAuthor.map((n: Row) => n.id)).toEqual([notes.byOne.id]);
  });

  it('staff see every note; a TEACHER sees their own and those about their teacher record', async () => {
    const ids = async (token: string, query = '') => (json(await call(token, 'GET', `/api/notes?_end=200${query}`)).data as Row[]).map((n) => n.id).sort();
    const all = Object.values(notes)
      .map((n) => n.id)
      .sort();
    expect(await ids(admin.token)).toEqual(all);
    expect(await ids(rootToken)).toEqual(all);
    expect(await ids(teachers.one.token)).toEqual([notes.aboutOne.id, notes.byOne.id].sort());
    expect(await ids(teachers.two.token)).toEqual([notes.byTwo.id]);
    // filters and q do not widen it
    expect(await ids(teachers.two.token, `&q=${encodeURIComponent('κατερινα')}`)).toEqual([]);
    expect(await ids(teachers.two.token, `&author_id=${teachers.one.record.user_id}`)).toEqual([]);
    const total = json(await call(teachers.two.token, 'GET', '/api/notes')).total;
    expect(total).toBe(1);
    expectStatus(await call(teachers.one.token, 'GET', `/api/notes/${notes.aboutOne.id}`), 200);
    expectStatus(await call(teachers.one.token, 'GET', `/api/notes/${notes.byOne.id}`), 200);
    for (const n of [notes.staff, notes.byTwo, notes.byRoot]) refused(await call(teachers.one.token, 'GET', `/api/notes/${n.id}`));
  });

  it('a TEACHER writes only their own notes; others are refused and unchanged', async () => {
    const one = teachers.one.token;
    for (const n of [notes.aboutOne, notes.staff, notes.byTwo]) {
      refused(await call(one, 'PATCH', `/api/notes/${n.id}`, { title: 'Αλλαγμένο', version: n.version }));
      refused(await call(one, 'DELETE', `/api/notes/${n.id}`));
      expect(json(await call(admin.token, 'GET', `/api/notes/${n.id}`)).data).toEqual(n);
    }
    const p = await call(one, 'PATCH', `/api/notes/${notes.byOne.id}`, { title: 'Διορθωμένη', version: notes.byOne.version });
    expectStatus(p, 200);
    expect(json(p).data).toMatchObject({ title: 'Διορθωμένη', author_id: teachers.one.record.user_id });
    expectStatus(await call(one, 'DELETE', `/api/notes/${notes.byOne.id}`), 204);
    expectError(await call(admin.token, 'GET', `/api/notes/${notes.byOne.id}`), 404, 'not-found');
    // new notes of a TEACHER are theirs
    const mine = await call(one, 'POST', '/api/notes', { title: 'Νέα', student_id: null });
    expectStatus(mine, 201);
    expect(json(mine).data.author_id).toBe(teachers.one.record.user_id);
  });
});
