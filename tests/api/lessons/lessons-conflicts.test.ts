// Conflicts: a room, a teacher or a class
// never holds two overlapping NORMAL lessons; the 409 `conflict` names the lessons in the way with
// what they clash on; half-open times; other statuses hold nothing; and on PostgreSQL 50
// concurrent bookings of one slot give exactly one 201 (the database's exclusion constraints).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response } from 'light-my-request';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, expectStatus, json, show } from '../support/api-helpers';
import {
  bringTo,
  created,
  dateCursor,
  fresh,
  getLesson,
  lessonBody,
  makeLesson,
  makeWorld,
  patchLesson,
  TEACHER_PASSWORD,
  type Row,
  type World,
} from '../support/lessons-helpers';

const sorted = (a: readonly string[]) => [...a].sort();

describe.each(DATABASE_KINDS)('lesson conflicts on %s', (kind) => {
  let t: TestApp;
  let w: World;
  const nextDate = dateCursor('2027-04-01');

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeWorld(t, { teachers: 3, rooms: 3, classes: 3 });
  });
  afterAll(async () => {
    await t?.close();
  });

  const T = (i: number) => w.teachers[i]!.row.id;
  const R = (i: number) => w.rooms[i]!.id;
  const C = (i: number) => w.classes[i]!.id;

  function expectConflict(res: Response, expected: { id: number; clashes: string[] }[]) {
    const body = expectError(res, 409, 'conflict');
    const lessons = body.error.details.lessons;
    expect(Array.isArray(lessons), show(res)).toBe(true);
    expect(
      lessons.map((l: Row) => l.id),
      show(res),
    ).toEqual(expected.map((e) => e.id));
    lessons.forEach((l: Row, i: number) => expect(sorted(l.clashes), show(res)).toEqual(sorted(expected[i]!.clashes)));
    return lessons as Row[];
  }

  it.each([
    { on: 'room', over: () => ({ teacher_id: T(1), class_id: C(1), room_id: R(0) }) },
    { on: 'teacher', over: () => ({ teacher_id: T(0), class_id: C(1), room_id: R(1) }) },
    { on: 'class', over: () => ({ teacher_id: T(1), class_id: C(0), room_id: R(1) }) },
  ])('the same $on at an overlapping time is 409 naming the lesson in the way; nothing is created', async ({ on, over }) => {
    const date = nextDate();
    const held = await makeLesson(w.admin, lessonBody(w, date));
    for (const [start, end] of [
      ['17:30', '18:30'],
      ['16:30', '17:01'],
      ['17:00', '18:00'],
      ['17:15', '17:45'],
      ['16:00', '19:00'],
    ]) {
      const res = await w.admin('POST', '/api/lessons', lessonBody(w, date, { ...over(), start_time: start, end_time: end }));
      const [l] = expectConflict(res, [{ id: held.id, clashes: [on] }]);
      expect(l, show(res)).toMatchObject({
        id: held.id,
        date,
        start_time: '17:00',
        end_time: '18:00',
        status: 'NORMAL',
        teacher: { id: T(0), name: w.teachers[0]!.name },
        room: { id: R(0), name: w.rooms[0]!.name },
        class: { id: C(0), name: w.classes[0]!.name },
        subject: { id: w.subjects[0]!.id, name: w.subjects[0]!.name },
      });
      expect(typeof json(res).error.message).toBe('string');
      expect(json(res).error.details).toMatchObject({ reason: 'overlap', count: 1 });
      expect(json(res).error.details.lessons).toHaveLength(1);
    }
    expect(json(await w.admin('GET', `/api/lessons?date=${date}`)).total).toBe(1);
  });

  it('all three at once: clashes lists room, teacher and class; several lessons in the way are listed by start time', async () => {
    const date = nextDate();
    const a = await makeLesson(w.admin, lessonBody(w, date, { start_time: '17:00', end_time: '18:00' }));
    const b = await makeLesson(w.admin, lessonBody(w, date, { start_time: '15:00', end_time: '16:00', teacher_id: T(1), room_id: R(1), class_id: C(1) }));
    expectConflict(await w.admin('POST', '/api/lessons', lessonBody(w, date, { start_time: '17:30', end_time: '18:30' })), [
      { id: a.id, clashes: ['room', 'teacher', 'class'] },
    ]);
    // 15:30–17:30 with teacher 1 in room 0: b holds teacher 1 (15:00–16:00), a holds room 0 (17:00–18:00)
    expectConflict(
      await w.admin('POST', '/api/lessons', lessonBody(w, date, { start_time: '15:30', end_time: '17:30', teacher_id: T(1), room_id: R(0), class_id: C(2) })),
      [
        { id: b.id, clashes: ['teacher'] },
        { id: a.id, clashes: ['room'] },
      ],
    );
  });

  it('adjacent times, other days, other rooms/teachers/classes and lessons without them do not clash', async () => {
    const date = nextDate();
    await makeLesson(w.admin, lessonBody(w, date));
    await makeLesson(w.admin, lessonBody(w, date, { start_time: '18:00', end_time: '19:00' }));
    await makeLesson(w.admin, lessonBody(w, date, { start_time: '16:00', end_time: '17:00' }));
    await makeLesson(w.admin, lessonBody(w, nextDate()));
    await makeLesson(w.admin, lessonBody(w, date, { teacher_id: T(1), room_id: R(1), class_id: C(1) }));
    // no room, no teacher, no class: nothing to hold
    const bare = { date, start_time: '17:00', end_time: '18:00', subject_id: w.subjects[0]!.id };
    await makeLesson(w.admin, bare);
    await makeLesson(w.admin, bare);
    await makeLesson(w.admin, { ...bare, teacher_id: T(2) });
  });

  it('only NORMAL lessons hold their slot: TO_BE_REPLACED, CANCELED and REPLACED ones do not', async () => {
    for (const status of ['TO_BE_REPLACED', 'CANCELED', 'REPLACED'] as const) {
      const date = nextDate();
      const held = await makeLesson(w.admin, lessonBody(w, date));
      await bringTo(w.admin, held, status, lessonBody(w, nextDate()));
      const l = await makeLesson(w.admin, lessonBody(w, date));
      expect(l.status).toBe('NORMAL');
    }
  });

  it('PATCH moving a lesson into a held slot is 409 with the lessons in the way, and changes nothing', async () => {
    const date = nextDate();
    const held = await makeLesson(w.admin, lessonBody(w, date));
    const mover = await makeLesson(w.admin, lessonBody(w, date, { start_time: '19:00', end_time: '20:00' }));
    expectConflict(await patchLesson(w.admin, mover.id, { start_time: '17:30', end_time: '18:30' }), [{ id: held.id, clashes: ['room', 'teacher', 'class'] }]);
    const other = await makeLesson(w.admin, lessonBody(w, nextDate(), { teacher_id: T(1), room_id: R(1), class_id: C(1) }));
    // moved to the held date: only the date changes
    expectConflict(await patchLesson(w.admin, other.id, { date, start_time: '17:00', room_id: R(0) }), [{ id: held.id, clashes: ['room'] }]);
    expectConflict(await patchLesson(w.admin, other.id, { date, teacher_id: T(0) }), [{ id: held.id, clashes: ['teacher'] }]);
    expect(await getLesson(w.admin, mover.id)).toEqual(mover);
    expect(await getLesson(w.admin, other.id)).toEqual(other);
    // a move that is clear goes through; a lesson never clashes with itself
    const moved = await patchLesson(w.admin, mover.id, { start_time: '18:00', end_time: '19:30' });
    expectStatus(moved, 200);
    expect(json(moved).data).toMatchObject({ start_time: '18:00', end_time: '19:30' });
    expectStatus(await patchLesson(w.admin, held.id, { start_time: '16:30', end_time: '17:45' }), 200);
  });

  it('10 simultaneous bookings of one slot: one 201, nine 409 conflict, no 500', async () => {
    const date = nextDate();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        w.admin('POST', '/api/lessons', lessonBody(w, date, { teacher_id: T(i % 3), class_id: C((i + 1) % 3), room_id: R(0) })),
      ),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201).length, codes.join(',')).toBe(1);
    expect(codes.filter((c) => c === 409).length, codes.join(',')).toBe(9);
    expect(json(await w.admin('GET', `/api/lessons?date=${date}`)).total).toBe(1);
  });

  it('end_time <= start_time is 400 fields.end_time too-small, on POST and PATCH', async () => {
    const date = nextDate();
    for (const [s, e] of [
      ['17:00', '17:00'],
      ['18:00', '17:00'],
      ['23:30', '00:30'],
    ]) {
      expectError(await w.admin('POST', '/api/lessons', lessonBody(w, date, { start_time: s, end_time: e })), 400, 'validation', { end_time: 'too-small' });
    }
    expect(json(await w.admin('GET', `/api/lessons?date=${date}`)).total).toBe(0);
    const l = await makeLesson(w.admin, lessonBody(w, date));
    expectError(await patchLesson(w.admin, l.id, { end_time: '16:00' }), 400, 'validation', { end_time: 'too-small' });
    expectError(await patchLesson(w.admin, l.id, { start_time: '18:00' }), 400, 'validation', { end_time: 'too-small' });
    expect(await getLesson(w.admin, l.id)).toEqual(l);
  });

  it('a CANCELED lesson restored to NORMAL is checked like a new one', async () => {
    const date = nextDate();
    const c = await bringTo(w.admin, await makeLesson(w.admin, lessonBody(w, date)), 'CANCELED');
    const taker = await makeLesson(w.admin, lessonBody(w, date, { teacher_id: T(1), room_id: R(1), start_time: '17:45', end_time: '18:15' }));
    expectConflict(await w.admin('PATCH', `/api/lessons/${c.id}`, { status: 'NORMAL', version: c.version }), [{ id: taker.id, clashes: ['class'] }]);
    expect((await getLesson(w.admin, c.id)).status).toBe('CANCELED');
  });
});

// Real concurrency: 50 requests at once against PostgreSQL (a pool of parallel transactions). The
// first wins; the others are 409 conflict, never a 500 (the advisory lock and the exclusion
// constraints). PGlite runs one transaction at a time, so this only means something here.
describe.each(DATABASE_KINDS.filter((k) => k === 'postgres'))('concurrent booking on %s', (kind) => {
  const N = 50;
  let t: TestApp;
  let w: World;
  const teachers: number[] = [];
  const rooms: number[] = [];
  const classes: number[] = [];

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeWorld(t, { teachers: 1, rooms: 1, classes: 1, subjects: 1 });
    for (let i = 0; i < N; i++) {
      const username = fresh('conc');
      teachers.push(
        created(
          await w.admin('POST', '/api/teachers', {
            username,
            password: TEACHER_PASSWORD,
            confirm_password: TEACHER_PASSWORD,
            first_name: 'Ταυτόχρονος',
            last_name: `Καθηγητής ${i}`,
          }),
        ).id,
      );
      rooms.push(created(await w.admin('POST', '/api/rooms', { name: `Ταυτόχρονη ${i} ${fresh('')}` })).id);
      classes.push(created(await w.admin('POST', '/api/classes', { name: `Ταυτόχρονο ${i} ${fresh('')}` })).id);
    }
  }, 300_000);
  afterAll(async () => {
    await t?.close();
  });

  async function race(date: string, bodyOf: (i: number) => Row) {
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        w.admin('POST', '/api/lessons', { date, start_time: '17:00', end_time: '18:00', subject_id: w.subjects[0]!.id, ...bodyOf(i) }),
      ),
    );
    const codes = answers.map((r) => r.statusCode);
    const worst = answers.find((r) => r.statusCode >= 500);
    expect(worst ? show(worst) : 'no 5xx').toBe('no 5xx');
    expect(codes.filter((c) => c === 201).length, codes.join(',')).toBe(1);
    expect(codes.filter((c) => c === 409).length, codes.join(',')).toBe(N - 1);
    for (const r of answers.filter((x) => x.statusCode === 409)) expect(json(r).error.code, show(r)).toBe('conflict');
    const winner = json(answers.find((r) => r.statusCode === 201)!).data;
    const stored = json(await w.admin('GET', `/api/lessons?date=${date}&_end=200`));
    expect(stored.total).toBe(1);
    expect(stored.data[0].id).toBe(winner.id);
    return winner;
  }

  it('50 concurrent bookings of one room slot (different teachers and classes): exactly one 201, 49 × 409 conflict', async () => {
    await race('2027-09-06', (i) => ({ room_id: w.rooms[0]!.id, teacher_id: teachers[i], class_id: classes[i] }));
  });

  it('50 concurrent bookings of one teacher (different rooms and classes): exactly one 201', async () => {
    await race('2027-09-07', (i) => ({ teacher_id: w.teachers[0]!.row.id, room_id: rooms[i], class_id: classes[i] }));
  });

  it('50 concurrent bookings of one class (different rooms and teachers): exactly one 201', async () => {
    await race('2027-09-08', (i) => ({ class_id: w.classes[0]!.id, room_id: rooms[i], teacher_id: teachers[i] }));
  });

  it('the same over real HTTP connections (app.listen), not only app.inject', async () => {
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        fetch(`${address}/api/lessons`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-client-type': 'api', 'x-tenant-id': 'demo', authorization: `Bearer ${w.adminToken}` },
          body: JSON.stringify({
            date: '2027-09-10',
            start_time: '17:00',
            end_time: '18:00',
            room_id: w.rooms[0]!.id,
            teacher_id: teachers[i],
            class_id: classes[i],
          }),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as Row })),
      ),
    );
    const codes = answers.map((a) => a.status);
    expect(codes.filter((c) => c === 201).length, codes.join(',')).toBe(1);
    expect(codes.filter((c) => c === 409).length, codes.join(',')).toBe(N - 1);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.error?.code === 'conflict')).toBe(true);
  });

  it('10 concurrent weekly series in one room: exactly one is created, whole', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        w.admin('POST', '/api/recurring-lessons', {
          start_time: '17:00',
          end_time: '18:00',
          room_id: w.rooms[0]!.id,
          teacher_id: teachers[i],
          class_id: classes[i],
          repeat: 'WEEKLY',
          start_date: '2027-10-04',
          end_type: 'AFTER',
          occurrences: 10,
        }),
      ),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201).length, codes.join(',')).toBe(1);
    expect(codes.filter((c) => c === 409).length, codes.join(',')).toBe(9);
    const winner = json(answers.find((r) => r.statusCode === 201)!);
    expect(winner.lesson_ids).toHaveLength(10);
    expect(json(await w.admin('GET', `/api/lessons?room_id=${w.rooms[0]!.id}&date_gte=2027-10-04&date_lte=2027-12-31&_end=200`)).total).toBe(10);
  });

  it('30 concurrent PATCHes moving different lessons into one slot: exactly one 200', async () => {
    const date = '2027-09-13';
    const lessons: Row[] = [];
    for (let i = 0; i < 30; i++) {
      lessons.push(
        created(
          await w.admin('POST', '/api/lessons', {
            date,
            start_time: '06:00',
            end_time: '07:00',
            room_id: rooms[i],
            teacher_id: teachers[i],
            class_id: classes[i],
          }),
        ),
      );
    }
    const answers = await Promise.all(
      lessons.map((l) => w.admin('PATCH', `/api/lessons/${l.id}`, { start_time: '20:00', end_time: '21:00', room_id: rooms[0], version: l.version })),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200).length, codes.join(',')).toBe(1);
    expect(codes.filter((c) => c === 409).length, codes.join(',')).toBe(29);
    expect(json(await w.admin('GET', `/api/lessons?date=${date}&start_time=20:00`)).total).toBe(1);
  });

  it('overlapping but not equal times race the same way', async () => {
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) => {
        const start = 16 * 60 + (i % 30) * 2; // 16:00 … 16:58, each 60 minutes long: all overlap 16:58–17:00
        const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
        return w.admin('POST', '/api/lessons', {
          date: '2027-09-09',
          start_time: hhmm(start),
          end_time: hhmm(start + 60),
          room_id: w.rooms[0]!.id,
          teacher_id: teachers[i],
          class_id: classes[i],
        });
      }),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201).length, codes.join(',')).toBe(1);
    expect(codes.filter((c) => c === 409).length, codes.join(',')).toBe(N - 1);
  });
});
