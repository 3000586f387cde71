// What a TEACHER may name in a write and read around her classes: the students and classes of
// the classes she teaches (read-only), notes on those classes, and nothing else — a reference
// to a row she may not read is answered exactly like one to a row that does not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectStatus, json, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { created, dateCursor, lessonBody, makeLesson, makeWorld, ok, type Row, type World } from '../support/lessons-helpers';

describe.each(DATABASE_KINDS)('a TEACHER’s references and reads on %s', (kind) => {
  let t: TestApp;
  let w: World;
  const students = {} as Record<'mine' | 'theirs' | 'nowhere', Row>;
  const nextDate = dateCursor('2027-05-03');

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeWorld(t, { teachers: 2, classes: 3 });
    const [mine, theirs] = w.classes;
    students.mine = created(await w.admin('POST', '/api/students', { first_name: 'Άννα', last_name: 'Δική', class_ids: [mine!.id] }));
    students.theirs = created(await w.admin('POST', '/api/students', { first_name: 'Ιουλία', last_name: 'Ξένη', class_ids: [theirs!.id] }));
    students.nowhere = created(await w.admin('POST', '/api/students', { first_name: 'Μυρτώ', last_name: 'Άτμητη' }));
    // Teacher 0 teaches class 0, teacher 1 teaches class 1; class 2 has no lessons.
    await makeLesson(w.admin, lessonBody(w, nextDate()));
    await makeLesson(w.admin, lessonBody(w, nextDate(), { teacher_id: w.teachers[1]!.row.id, class_id: theirs!.id, room_id: w.rooms[1]!.id }));
  });
  afterAll(async () => {
    await t?.close();
  });

  const me = () => w.teachers[0]!;
  const ids = (rows: Row[]) => rows.map((r) => r.id).sort((a: number, b: number) => a - b);

  it('lists and reads only the students and classes of her own classes, and herself of the teachers', async () => {
    expect(ids(ok(await me().call('GET', '/api/students')))).toEqual([students.mine.id]);
    expect(ok(await me().call('GET', `/api/students/${students.mine.id}`)).first_name).toBe('Άννα');
    for (const s of [students.theirs, students.nowhere]) expectError(await me().call('GET', `/api/students/${s.id}`), 404, 'not-found');
    expect(ids(ok(await me().call('GET', '/api/classes')))).toEqual([w.classes[0]!.id]);
    expectError(await me().call('GET', `/api/classes/${w.classes[1]!.id}`), 404, 'not-found');
    // Of the teachers, she reads herself (to name herself in a note).
    expect(ids(ok(await me().call('GET', '/api/teachers')))).toEqual([me().row.id]);
    expectError(await me().call('GET', `/api/teachers/${w.teachers[1]!.row.id}`), 404, 'not-found');
    // Staff still see everything.
    expect(ids(ok(await w.secretary('GET', '/api/students')))).toEqual(ids(Object.values(students)));
    expect(ok(await w.secretary('GET', '/api/classes')).length).toBe(3);
  });

  it('reads students and classes but never writes them', async () => {
    expectError(await me().call('POST', '/api/students', { first_name: 'Νέα', last_name: 'Μαθήτρια' }), 403, 'forbidden');
    expectError(await me().call('PATCH', `/api/students/${students.mine.id}`, { first_name: 'Άλλη', version: students.mine.version }), 403, 'forbidden');
    expectError(await me().call('POST', '/api/classes', { name: 'Δικό μου' }), 403, 'forbidden');
    expectError(await me().call('DELETE', `/api/classes/${w.classes[0]!.id}`), 403, 'forbidden');
    expectError(await me().call('PATCH', `/api/teachers/${me().row.id}`, { first_name: 'Άλλο', version: me().row.version }), 403, 'forbidden');
  });

  it('a note naming a student, class or teacher she may not read is refused like a missing one, and names nobody', async () => {
    const cases: Array<[string, number]> = [
      ['student_id', students.theirs.id],
      ['student_id', students.nowhere.id],
      ['class_id', w.classes[1]!.id],
      ['class_id', w.classes[2]!.id],
      ['teacher_id', w.teachers[1]!.row.id],
    ];
    for (const [field, id] of cases) {
      const res = await me().call('POST', '/api/notes', { title: 'Ερώτηση', [field]: id });
      expectError(res, 400, 'validation', { [field]: 'invalid' });
      const missing = await me().call('POST', '/api/notes', { title: 'Ερώτηση', [field]: 2_000_000_000 });
      expect(json(res), `${field}=${id}`).toEqual(json(missing));
      for (const name of ['Ιουλία', 'Ξένη', 'Μυρτώ', w.teachers[1]!.row.first_name, w.classes[1]!.name, w.classes[2]!.name]) {
        expect(res.body.includes(name), show(res)).toBe(false);
      }
    }
    // Nothing was written.
    const titles = ok(await w.admin('GET', '/api/notes?_end=200')).map((n: Row) => n.title);
    expect(titles).not.toContain('Ερώτηση');
  });

  it('a note on her own student, class and self is written with their names; changing it to a foreign student is refused', async () => {
    const res = await me().call('POST', '/api/notes', {
      title: 'Πρόοδος',
      student_id: students.mine.id,
      class_id: w.classes[0]!.id,
      teacher_id: me().row.id,
    });
    const note = created(res, 'note');
    expect(note.student).toEqual({ id: students.mine.id, name: 'Άννα Δική' });
    expect(note.class).toEqual({ id: w.classes[0]!.id, name: w.classes[0]!.name });
    const moved = await me().call('PATCH', `/api/notes/${note.id}`, { student_id: students.theirs.id, version: note.version });
    expectError(moved, 400, 'validation', { student_id: 'invalid' });
    expect(moved.body.includes('Ιουλία')).toBe(false);
    // Unchanged references of her own note stay valid on an update of something else.
    expectStatus(await me().call('PATCH', `/api/notes/${note.id}`, { title: 'Πρόοδος Μαΐου', version: note.version }), 200);
  });

  it('reads the notes on her own classes (read-only), not those on other classes', async () => {
    const onMine = created(await w.admin('POST', '/api/notes', { title: 'Για το τμήμα', class_id: w.classes[0]!.id }));
    const onTheirs = created(await w.admin('POST', '/api/notes', { title: 'Για άλλο τμήμα', class_id: w.classes[1]!.id }));
    const listed = ok(await me().call('GET', '/api/notes?_end=200')).map((n: Row) => n.id);
    expect(listed).toContain(onMine.id);
    expect(listed).not.toContain(onTheirs.id);
    expect(ok(await me().call('GET', `/api/notes/${onMine.id}`)).title).toBe('Για το τμήμα');
    expectError(await me().call('GET', `/api/notes/${onTheirs.id}`), 404, 'not-found');
    expectError(await me().call('PATCH', `/api/notes/${onMine.id}`, { title: 'Αλλαγή', version: onMine.version }), 403, 'forbidden');
    // The other teacher sees the other class's note and not this one.
    const other = ok(await w.teachers[1]!.call('GET', '/api/notes?_end=200')).map((n: Row) => n.id);
    expect(other).toContain(onTheirs.id);
    expect(other).not.toContain(onMine.id);
  });
});
