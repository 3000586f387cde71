// The student's Lessons tab asks the lessons list for `student_id`: the lessons of the classes
// the student is in, filtered, paged and counted by the server, within the centre and within
// what the caller may see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, json } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { created, dateCursor, lessonBody, makeLesson, makeWorld, type Row, type World } from '../support/lessons-helpers';

describe.each(DATABASE_KINDS)('a student’s lessons on %s', (kind) => {
  let t: TestApp;
  let w: World;
  let student: Row;
  let loner: Row;
  const inA: number[] = [];
  const inB: number[] = [];
  const next = dateCursor('2027-03-01');

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeWorld(t, { classes: 3, teachers: 2, rooms: 2 });
    const [a, b, c] = w.classes as [Row, Row, Row];
    student = created(await w.admin('POST', '/api/students', { first_name: 'Ιάσονας', last_name: 'Μαθητής', class_ids: [a.id, b.id] }), 'student');
    loner = created(await w.admin('POST', '/api/students', { first_name: 'Χωρίς', last_name: 'Τμήμα' }), 'student');
    for (let i = 0; i < 3; i++) inA.push((await makeLesson(w.admin, lessonBody(w, next(), { class_id: a.id }))).id);
    inB.push((await makeLesson(w.admin, lessonBody(w, next(), { class_id: b.id, teacher_id: w.teachers[1]!.row.id, room_id: w.rooms[1]!.id }))).id);
    // A class the student is not in: never listed.
    await makeLesson(w.admin, lessonBody(w, next(), { class_id: c.id }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists the lessons of the student’s classes only, paged and counted, in the order asked', async () => {
    const all = json(await w.secretary('GET', `/api/lessons?student_id=${student.id}&_sort=date&_order=asc&_end=50`));
    expect(all.total).toBe(4);
    expect(all.data.map((l: Row) => l.id)).toEqual([...inA, ...inB]);
    expect(all.data.every((l: Row) => [w.classes[0]!.id, w.classes[1]!.id].includes(l.class_id))).toBe(true);
    const page2 = json(await w.secretary('GET', `/api/lessons?student_id=${student.id}&_sort=date&_order=asc&_start=2&_end=4`));
    expect(page2.total).toBe(4);
    expect(page2.data.map((l: Row) => l.id)).toEqual([inA[2], inB[0]]);
    // with the tab's other filters: the days from a date on
    const dates = all.data.map((l: Row) => l.date as string);
    const later = json(await w.secretary('GET', `/api/lessons?student_id=${student.id}&date_gte=${dates[2]}&_sort=date&_order=asc`));
    expect(later.data.map((l: Row) => l.id)).toEqual([inA[2], inB[0]]);
  });

  it('a student in no class has no lessons; a student of another centre or an unknown id shows nothing', async () => {
    expect(json(await w.admin('GET', `/api/lessons?student_id=${loner.id}`)).total).toBe(0);
    expect(json(await w.admin('GET', '/api/lessons?student_id=999999')).total).toBe(0);
    const other = await makeWorld(t, { tenant: 'lessonsother', classes: 1, teachers: 1, rooms: 1, subjects: 1 });
    const stranger = created(await other.admin('POST', '/api/students', { first_name: 'Άλλος', last_name: 'Μαθητής', class_ids: [other.classes[0]!.id] }));
    await makeLesson(other.admin, lessonBody(other, next()));
    expect(json(await other.admin('GET', `/api/lessons?student_id=${stranger.id}`)).total).toBe(1);
    // the demo centre never sees the other centre's lessons through its student's id
    expect(json(await w.admin('GET', `/api/lessons?student_id=${stranger.id}`)).total).toBe(0);
  });

  it('a teacher sees only her own lessons among the student’s', async () => {
    const teacher = w.teachers[1]!;
    const mine = json(await teacher.call('GET', `/api/lessons?student_id=${student.id}`));
    expect(mine.data.map((l: Row) => l.id)).toEqual(inB);
  });

  it('bad values of student_id are 400 with the field named', async () => {
    expectError(await w.admin('GET', '/api/lessons?student_id=abc'), 400, 'validation', { student_id: 'invalid' });
    expectError(await w.admin('GET', '/api/lessons?student_id=-1'), 400, 'validation', { student_id: 'invalid' });
    expectError(await w.admin('GET', `/api/lessons?student_id_ne=${student.id}`), 400, 'validation', { student_id_ne: 'invalid-option' });
  });
});
