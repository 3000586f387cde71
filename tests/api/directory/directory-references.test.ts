// References between directory rows: deleting a row that another row points
// to through a single reference is 409 in-use naming what uses it, and nothing changes; links in
// join lists (class_ids, subject_ids, student_ids) are removed with the row and recorded as an
// update in the owner's history; students referenced by notes are in use; labels follow renames.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, expectStatus, json, show } from '../support/api-helpers';

type Row = Record<string, any>;

describe.each(DATABASE_KINDS)('directory references on %s', (kind) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<TestApp['createUser']>>;

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    t.request({ method, url, body, token: admin.token, clientType: 'api' });
  const make = async (resource: string, body: Row) => {
    const res = await call('POST', `/api/${resource}`, body);
    expect(res.statusCode, `${resource}: ${show(res)}`).toBe(201);
    return json(res).data as Row;
  };
  const get = async (resource: string, id: number) => json(await call('GET', `/api/${resource}/${id}`)).data as Row;
  const history = async (resource: string, id: number) => json(await call('GET', `/api/history?entity=${resource}&entity_id=${id}`)).data as Row[];

  beforeAll(async () => {
    t = await startApp(kind);
    const rootToken = (await t.signIn(t.root.username, t.root.password)).token;
    admin = await t.createUser(rootToken, { role: 'ADMIN' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a class category used by a class: 409 in-use naming classes, both unchanged; free once unused', async () => {
    const cat = await make('class-categories', { name: 'Λύκειο' });
    const cls = await make('classes', { name: 'Β΄ Λυκείου Θετική', category_id: cat.id });
    expect(cls.category).toEqual({ id: cat.id, name: 'Λύκειο' });
    const res = await call('DELETE', `/api/class-categories/${cat.id}`);
    expectError(res, 409, 'in-use');
    expect(json(res).error.message.toLowerCase()).toMatch(/class/);
    expect(await get('class-categories', cat.id)).toEqual(cat);
    expect(await get('classes', cls.id)).toEqual(cls);
    expect((await history('class-categories', cat.id)).map((e) => e.action)).toEqual(['create']);
    // the label follows a rename of the category
    const renamed = json(await call('PATCH', `/api/class-categories/${cat.id}`, { name: 'Γενικό Λύκειο', version: cat.version })).data;
    expect((await get('classes', cls.id)).category).toEqual({ id: cat.id, name: 'Γενικό Λύκειο' });
    // unset the reference (null), then the category can go
    const cleared = await call('PATCH', `/api/classes/${cls.id}`, { category_id: null, version: cls.version });
    expectStatus(cleared, 200);
    expect(json(cleared).data).toMatchObject({ category_id: null, category: null });
    expectStatus(await call('DELETE', `/api/class-categories/${renamed.id}`), 204);
  });

  it('a class and a student used by a note: 409 in-use; the note is unchanged', async () => {
    const cls = await make('classes', { name: 'Α΄ Γυμνασίου' });
    const st = await make('students', { first_name: 'Ελένη', last_name: 'Κωστοπούλου' });
    const note = await make('notes', { title: 'Πρόοδος', student_id: st.id, class_id: cls.id });
    expect(note.student).toEqual({ id: st.id, name: 'Ελένη Κωστοπούλου' });
    expect(note.class).toEqual({ id: cls.id, name: 'Α΄ Γυμνασίου' });
    expectError(await call('DELETE', `/api/classes/${cls.id}`), 409, 'in-use');
    expectError(await call('DELETE', `/api/students/${st.id}`), 409, 'in-use');
    expect(await get('classes', cls.id)).toEqual(cls);
    expect(await get('students', st.id)).toEqual(st);
    expect(await get('notes', note.id)).toEqual(note);
    // after the note goes, both can be deleted
    expectStatus(await call('DELETE', `/api/notes/${note.id}`), 204);
    expectStatus(await call('DELETE', `/api/students/${st.id}`), 204);
    expectStatus(await call('DELETE', `/api/classes/${cls.id}`), 204);
    expectError(await call('GET', `/api/students/${st.id}`), 404, 'not-found');
  });

  it('a subject held only in join lists is deleted with its links, each owner getting an update in its history', async () => {
    const keep = await make('subjects', { name: 'Χημεία' });
    const gone = await make('subjects', { name: 'Λατινικά' });
    const teacher = await make('teachers', {
      username: 'joinlist-teacher',
      password: 'teacher-password-1',
      confirm_password: 'teacher-password-1',
      first_name: 'Άρης',
      last_name: 'Λατίνος',
      subject_ids: [keep.id, gone.id],
    });
    const student = await make('students', { first_name: 'Πέτρος', last_name: 'Λατίνος', subject_ids: [gone.id, keep.id] });
    const cls = await make('classes', { name: 'Κλασικές Σπουδές', subject_ids: [gone.id] });
    expectStatus(await call('DELETE', `/api/subjects/${gone.id}`), 204);
    expectError(await call('GET', `/api/subjects/${gone.id}`), 404, 'not-found');
    for (const [resource, row, left] of [
      ['teachers', teacher, [keep.id]],
      ['students', student, [keep.id]],
      ['classes', cls, []],
    ] as const) {
      const now = await get(resource, row.id);
      expect(now.subject_ids, resource).toEqual(left);
      expect(now.subjects, resource).toEqual(left.map((id) => ({ id, name: 'Χημεία' })));
      expect(now.version, resource).toBeGreaterThan(row.version);
      const h = await history(resource, row.id);
      const update = h.find((e) => e.action === 'update');
      expect(update, `${resource}: ${JSON.stringify(h)}`).toBeDefined();
      expect(update!.changes.subject_ids, resource).toBeDefined();
      // filtering by the removed subject finds nothing any more
      expect(json(await call('GET', `/api/${resource}?subject_ids=${gone.id}`)).total, resource).toBe(0);
    }
    expect((await history('subjects', gone.id)).map((e) => e.action).sort()).toEqual(['create', 'delete']);
  });

  it("a class held in students' class_ids and a student held in a class's student_ids are removed from those lists on delete", async () => {
    const cls = await make('classes', { name: 'Γ΄ Λυκείου' });
    const other = await make('classes', { name: 'Β΄ Λυκείου' });
    const st = await make('students', { first_name: 'Ζωή', last_name: 'Ιωάννου', class_ids: [cls.id, other.id] });
    expect(st.classes.map((c: Row) => c.name).sort()).toEqual(['Β΄ Λυκείου', 'Γ΄ Λυκείου']);
    expectStatus(await call('DELETE', `/api/classes/${cls.id}`), 204);
    const now = await get('students', st.id);
    expect(now.class_ids).toEqual([other.id]);
    expect(now.classes).toEqual([{ id: other.id, name: 'Β΄ Λυκείου' }]);
    expect((await history('students', st.id)).map((e) => e.action).sort()).toEqual(['create', 'update']);

    const holder = await make('classes', { name: 'Ολιγομελές', student_ids: [] });
    const s2 = await make('students', { first_name: 'Άγγελος', last_name: 'Μόνος' });
    const withStudent = json(await call('PATCH', `/api/classes/${holder.id}`, { student_ids: [s2.id], version: holder.version })).data;
    expect(withStudent.students).toEqual([{ id: s2.id, name: 'Άγγελος Μόνος' }]);
    expectStatus(await call('DELETE', `/api/students/${s2.id}`), 204);
    const after = await get('classes', holder.id);
    expect(after.student_ids).toEqual([]);
    expect(after.students).toEqual([]);
    expect((await history('classes', holder.id)).filter((e) => e.action === 'update').length).toBe(2);
  });

  it('a reference must point at an existing row of the right resource in this centre', async () => {
    const subject = await make('subjects', { name: 'Βιολογία' });
    const cat = await make('class-categories', { name: 'Γυμνάσιο' });
    const before = json(await call('GET', '/api/classes?_end=200')).total;
    const cases: Array<[Row, string]> = [
      [{ name: 'Λάθος', category_id: subject.id + 100000 }, 'category_id'],
      [{ name: 'Λάθος', subject_ids: [subject.id, 2147483000] }, 'subject_ids'],
      [{ name: 'Λάθος', subject_ids: [subject.id, subject.id] }, 'subject_ids'],
      [{ name: 'Λάθος', student_ids: [2147483000] }, 'student_ids'],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', '/api/classes', body);
      expectError(res, 400, 'validation', { [field]: 'invalid' });
    }
    expect(json(await call('GET', '/api/classes?_end=200')).total).toBe(before);
    expectStatus(await call('POST', '/api/classes', { name: 'Σωστό', category_id: cat.id, subject_ids: [subject.id] }), 201);
  });
});
