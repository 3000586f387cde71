// The calendar's query: every lesson with
// from <= date <= to, not paged, ordered by date and start time, with reference labels and the
// lesson type's colour; repeatable filters by teacher, class, room and subject (and status);
// to before from, a range over 42 days, or a missing bound is 400. The answer is compact (a row
// of values per lesson, each label once): the client's decoder turns it back into the lessons
// the server holds, and a busy week of 1,248 lessons stays within 150 KB of JSON.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response } from 'light-my-request';
import { sql, type SQL } from 'drizzle-orm';
import { DATABASE_KINDS, ROOT, startApp, type TestApp } from '../support/harness';
import { expectError, expectStatus, json, show } from '../support/api-helpers';
import { CALENDAR_COLUMNS, CALENDAR_LABELS, decodeCalendar, type CalendarAnswer } from '../../../domain/calendar';
import { addDays } from '../../../domain/lessons';
import { withTenant } from '../../../server/db/doors';
import {
  callerOf,
  createLessonType,
  created,
  fresh,
  lessonBody,
  makeLesson,
  makeWorld,
  patchLesson,
  TEACHER_PASSWORD,
  type Row,
  type World,
} from '../support/lessons-helpers';

/** What a calendar lesson carries once decoded (the lesson's view reads the whole row). */
const CALENDAR_FIELDS = [
  'id',
  'version',
  'date',
  'start_time',
  'end_time',
  'status',
  'kind',
  'teacher_id',
  'teacher',
  'subject_id',
  'subject',
  'room_id',
  'room',
  'class_id',
  'class',
  'lesson_type_id',
  'lesson_type',
  'color',
  'recurring_lesson_id',
  'replaces_lesson_id',
  'detached',
];

const FROM = '2027-02-01';
const TO = '2027-02-14';

describe.each(DATABASE_KINDS)('lessons calendar on %s', (kind) => {
  let t: TestApp;
  let w: World;
  let all: Row[] = []; // every lesson made, in creation order
  let plainType: Row;

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeWorld(t, { teachers: 3, rooms: 3, classes: 3, subjects: 3 });
    plainType = await createLessonType(w.admin, '#123456');
    // 3 teachers × a spread of days and times, created out of order; each teacher i uses room i, class i, subject i
    const plan: [number, string, string, string][] = [];
    const times: [string, string][] = [
      ['18:00', '19:00'],
      ['09:30', '10:15'],
      ['14:00', '15:30'],
    ];
    for (const d of [15, 13, 11, 9, 7, 5, 3, 0, -1]) {
      for (let i = 0; i < 3; i++) {
        const [s, e] = times[(d + i + 30) % 3]!;
        plan.push([i, addDays(FROM, d), s, e]);
      }
    }
    for (const [i, date, s, e] of plan) {
      all.push(
        await makeLesson(
          w.admin,
          lessonBody(w, date, {
            start_time: s,
            end_time: e,
            teacher_id: w.teachers[i]!.row.id,
            room_id: w.rooms[i]!.id,
            class_id: w.classes[i]!.id,
            subject_id: w.subjects[i]!.id,
            lesson_type_id: i === 2 ? plainType.id : w.lessonType.id,
            tag_ids: [w.tag.id],
          }),
        ),
      );
    }
    // one lesson with no type or references at all, and 30 bare lessons on one day (more than a page)
    all.push(await makeLesson(w.admin, { date: addDays(FROM, 5), start_time: '07:00', end_time: '08:00' }));
    for (let k = 0; k < 30; k++)
      all.push(
        await makeLesson(w.admin, {
          date: addDays(FROM, 7),
          start_time: `${String(6 + (k % 12)).padStart(2, '0')}:${k < 12 ? '00' : k < 24 ? '10' : '20'}`,
          end_time: '22:00',
        }),
      );
    // a cancelled one still shows (with its status)
    const c = all.find((l) => l.date === addDays(FROM, 3))!;
    expectStatus(await patchLesson(w.admin, c.id, { status: 'CANCELED' }), 200);
    all = all.map((l) => (l.id === c.id ? { ...l, status: 'CANCELED' } : l));
  });
  afterAll(async () => {
    await t?.close();
  });

  const cal = (query: string) => w.admin('GET', `/api/lessons/calendar?${query}`);
  /** The lessons of an answer, as the calendar screen decodes them. */
  const lessonsOf = (res: Response) => decodeCalendar(json(res) as CalendarAnswer).map((lesson): Row => ({ ...lesson }));
  const expectIds = (res: Response, pick: (l: Row) => boolean, from = FROM, to = TO) => {
    expectStatus(res, 200);
    const data = lessonsOf(res);
    const want = all.filter((l) => l.date >= from && l.date <= to && pick(l));
    expect(data.map((l: Row) => l.id).sort(), show(res)).toEqual(want.map((l) => l.id).sort());
    expect(json(res).total).toBe(data.length);
    // ordered by date, then start time
    const order = data.map((l: Row) => `${l.date} ${l.start_time}`);
    expect(order).toEqual([...order].sort());
    return data;
  };

  it('returns every lesson with from <= date <= to (both ends included), not paged, ordered by date and start time', async () => {
    const data = expectIds(await cal(`from=${FROM}&to=${TO}`), () => true);
    expect(data.length).toBeGreaterThan(25);
    expect(data.some((l) => l.date === FROM)).toBe(true);
    expect(data.some((l) => l.date === TO)).toBe(true);
    expect(data.some((l) => l.date < FROM || l.date > TO)).toBe(false);
    // the lesson the day before FROM and the one after TO are left out
    expect(all.some((l) => l.date === addDays(FROM, -1))).toBe(true);
    expect(all.some((l) => l.date === addDays(FROM, 15))).toBe(true);
    // one day
    expectIds(await cal(`from=${addDays(FROM, 7)}&to=${addDays(FROM, 7)}`), () => true, addDays(FROM, 7), addDays(FROM, 7));
  });

  it('answers a row of plain values per lesson and each label once, keyed by id', async () => {
    const res = await cal(`from=${FROM}&to=${TO}`);
    const body = json(res);
    expect(Object.keys(body).sort()).toEqual(['columns', 'labels', 'rows', 'total']);
    expect(body.columns).toEqual([...CALENDAR_COLUMNS]);
    expect(body.rows.length).toBe(body.total);
    expect(body.rows.length).toBeGreaterThan(25);
    const at = (c: string) => body.columns.indexOf(c);
    for (const row of body.rows) {
      expect(row).toHaveLength(CALENDAR_COLUMNS.length);
      // nothing but ids, numbers, the date, times and the status: no label inside a row
      for (const value of row) expect(value === null || ['number', 'boolean', 'string'].includes(typeof value)).toBe(true);
      expect(row.filter((v: unknown) => typeof v === 'string')).toEqual([row[at('date')], row[at('start_time')], row[at('end_time')], row[at('status')]]);
    }
    expect(Object.keys(body.labels).sort()).toEqual(Object.keys(CALENDAR_LABELS).sort());
    // each label is there once, for exactly the ids the rows name
    for (const [name, column] of Object.entries(CALENDAR_LABELS)) {
      const used = new Set(body.rows.map((r: unknown[]) => r[at(column)]).filter((id: unknown) => id !== null));
      expect(Object.keys(body.labels[name]).sort(), name).toEqual([...used].map(String).sort());
    }
    expect(body.labels.teacher[String(w.teachers[0]!.row.id)]).toEqual({ name: w.teachers[0]!.name });
    expect(body.labels.room[String(w.rooms[1]!.id)]).toEqual({ name: w.rooms[1]!.name });
    expect(body.labels.lesson_type[String(plainType.id)]).toEqual({ name: plainType.name, color: '#123456' });
    // the teacher's name once in the whole answer, however many lessons they teach
    expect(res.body.split(w.teachers[0]!.name).length - 1).toBe(1);
  });

  it('decoded, each lesson carries what the calendar draws, as the list shows it: labels, color of the lesson type (null without one), status', async () => {
    const res = await cal(`from=${FROM}&to=${TO}`);
    const data = lessonsOf(res);
    const listed = json(await w.admin('GET', `/api/lessons?date_gte=${FROM}&date_lte=${TO}&_end=200`)).data as Row[];
    for (const l of data) {
      const row = listed.find((x) => x.id === l.id)!;
      expect(l, `lesson ${l.id}`).toEqual(Object.fromEntries(CALENDAR_FIELDS.map((f) => [f, row[f]])));
    }
    const typed = data.find((l) => l.teacher_id === w.teachers[0]!.row.id)!;
    expect(typed).toMatchObject({
      teacher: { id: w.teachers[0]!.row.id, name: w.teachers[0]!.name },
      room: { id: w.rooms[0]!.id, name: w.rooms[0]!.name },
      class: { id: w.classes[0]!.id, name: w.classes[0]!.name },
      subject: { id: w.subjects[0]!.id, name: w.subjects[0]!.name },
      lesson_type: { id: w.lessonType.id, name: w.lessonType.name },
      color: w.lessonType.color,
      kind: 1,
    });
    expect(data.find((l) => l.teacher_id === w.teachers[2]!.row.id)!.color).toBe('#123456');
    const bare = data.find((l) => l.start_time === '07:00')!;
    expect(bare).toMatchObject({ teacher_id: null, teacher: null, lesson_type_id: null, lesson_type: null, color: null });
    expect(data.some((l) => l.status === 'CANCELED')).toBe(true);
  });

  it('a week asked again is the same answer with the same ETag, and If-None-Match gives 304', async () => {
    const first = await cal(`from=${FROM}&to=${TO}`);
    const again = await cal(`from=${FROM}&to=${TO}`);
    expectStatus(again, 200);
    expect(again.body).toBe(first.body);
    const etag = String(first.headers.etag);
    expect(again.headers.etag).toBe(etag);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const revalidated = await t.request({
      method: 'GET',
      url: `/api/lessons/calendar?from=${FROM}&to=${TO}`,
      token: w.adminToken,
      clientType: 'api',
      headers: { 'if-none-match': etag },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
  });

  it('a browser that accepts gzip gets the same week gzipped', async () => {
    const plain = await cal(`from=${FROM}&to=${TO}`);
    const zipped = await t.request({
      method: 'GET',
      url: `/api/lessons/calendar?from=${FROM}&to=${TO}`,
      token: w.adminToken,
      clientType: 'api',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('accept-encoding');
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(plain.body);
  });

  it('every change the calendar shows reaches the next answer: a lesson moved, created, deleted, a teacher or room renamed, a type recoloured', async () => {
    const week = () => cal(`from=${FROM}&to=${TO}`);
    const find = async (id: number) => lessonsOf(await week()).find((l) => l.id === id);
    const lesson = all.find((l) => l.teacher_id === w.teachers[1]!.row.id && l.date === addDays(FROM, 9))!;
    const etag = String((await week()).headers.etag);

    expectStatus(await patchLesson(w.admin, lesson.id, { start_time: '20:00', end_time: '21:00' }), 200);
    const moved = await week();
    expect(moved.headers.etag).not.toBe(etag);
    expect(lessonsOf(moved).find((l) => l.id === lesson.id)).toMatchObject({ start_time: '20:00', end_time: '21:00' });

    const added = await makeLesson(w.admin, { date: addDays(FROM, 12), start_time: '05:00', end_time: '05:30' });
    expect(await find(added.id)).toMatchObject({ date: addDays(FROM, 12), start_time: '05:00' });
    expectStatus(await w.admin('DELETE', `/api/lessons/${added.id}`), 204);
    expect(await find(added.id)).toBeUndefined();

    const teacher = w.teachers[1]!.row;
    const renamed = json(
      await w.admin('PATCH', `/api/teachers/${teacher.id}`, {
        last_name: 'Μετονομασμένη',
        version: json(await w.admin('GET', `/api/teachers/${teacher.id}`)).data.version,
      }),
    );
    expect((await find(lesson.id))!.teacher.name).toBe(`${renamed.data.first_name} Μετονομασμένη`);

    const room = json(await w.admin('GET', `/api/rooms/${w.rooms[1]!.id}`)).data;
    expectStatus(await w.admin('PATCH', `/api/rooms/${room.id}`, { name: 'Αίθουσα Νέα', version: room.version }), 200);
    expect((await find(lesson.id))!.room.name).toBe('Αίθουσα Νέα');

    const type = json(await w.admin('GET', `/api/lesson-types/${w.lessonType.id}`)).data;
    expectStatus(await w.admin('PATCH', `/api/lesson-types/${type.id}`, { color: '#abcdef', version: type.version }), 200);
    expect((await find(lesson.id))!.color).toBe('#abcdef');
  });

  it('a week kept for the calendar is refused at once to a session signed out, and to a deactivated account', async () => {
    const week = (token: string) => t.request({ method: 'GET', url: `/api/lessons/calendar?from=${FROM}&to=${TO}`, token, clientType: 'api' });
    const session = await t.signIn(ROOT.username, ROOT.password);
    expectStatus(await week(session.token), 200);
    expectStatus(await week(session.token), 200);
    expectStatus(await t.request({ method: 'POST', url: '/sign-out', clientType: 'api', token: session.token, body: { data: '' } }), 204);
    expectError(await week(session.token), 401, 'session-revoked');

    const root = await t.signIn(ROOT.username, ROOT.password);
    const secretary = await t.createUser(root.token, { role: 'SECRETARY' });
    expectStatus(await week(secretary.token), 200);
    expectStatus(await week(secretary.token), 200);
    expectStatus(await t.request({ method: 'DELETE', url: `/api/users/${secretary.id}`, clientType: 'api', token: root.token }), 204);
    expectStatus(await week(secretary.token), 401);
  });

  it("a TEACHER never gets the office's week from the cache, nor the office the teacher's", async () => {
    const office = lessonsOf(await cal(`from=${FROM}&to=${TO}`));
    const mine = lessonsOf(await w.teachers[0]!.call('GET', `/api/lessons/calendar?from=${FROM}&to=${TO}`));
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((l) => l.teacher_id === w.teachers[0]!.row.id)).toBe(true);
    expect(office.length).toBeGreaterThan(mine.length);
    expect(lessonsOf(await cal(`from=${FROM}&to=${TO}`)).length).toBe(office.length);
    // the teacher's answer names only the teacher's own labels
    const theirs = json(await w.teachers[0]!.call('GET', `/api/lessons/calendar?from=${FROM}&to=${TO}`));
    expect(Object.keys(theirs.labels.teacher)).toEqual([String(w.teachers[0]!.row.id)]);
  });

  it.each([
    { field: 'teacher_id', ids: (w: World) => [w.teachers[0]!.row.id] },
    { field: 'teacher_id', ids: (w: World) => [w.teachers[0]!.row.id, w.teachers[2]!.row.id] },
    { field: 'class_id', ids: (w: World) => [w.classes[1]!.id] },
    { field: 'class_id', ids: (w: World) => [w.classes[1]!.id, w.classes[2]!.id] },
    { field: 'room_id', ids: (w: World) => [w.rooms[2]!.id] },
    { field: 'room_id', ids: (w: World) => [w.rooms[0]!.id, w.rooms[1]!.id] },
    { field: 'subject_id', ids: (w: World) => [w.subjects[0]!.id] },
    { field: 'subject_id', ids: (w: World) => [w.subjects[0]!.id, w.subjects[1]!.id, w.subjects[2]!.id] },
  ])('filters by $field (repeatable)', async ({ field, ids }) => {
    const want = ids(w);
    const q = want.map((id) => `${field}=${id}`).join('&');
    expectIds(await cal(`from=${FROM}&to=${TO}&${q}`), (l) => want.includes(l[field]));
  });

  it('filters combine (teacher and room), and by status', async () => {
    expectIds(await cal(`from=${FROM}&to=${TO}&teacher_id=${w.teachers[0]!.row.id}&room_id=${w.rooms[1]!.id}`), () => false);
    expectIds(await cal(`from=${FROM}&to=${TO}&teacher_id=${w.teachers[1]!.row.id}&room_id=${w.rooms[1]!.id}`), (l) => l.teacher_id === w.teachers[1]!.row.id);
    expectIds(await cal(`from=${FROM}&to=${TO}&status=CANCELED`), (l) => l.status === 'CANCELED');
  });

  it('a busy week of 1,248 lessons (26 rooms, each with its teacher and class, 8 hours a day, Monday to Saturday) is at most 150 KB of JSON', async () => {
    // a centre of its own: teachers, rooms, classes, subjects and types through the API, the
    // week's lessons in one insert (what 208 weekly series would make)
    const slug = `busy${fresh('')}`;
    const { tenantId, admin: owner } = await t.createTenant(slug);
    const admin = callerOf(t, owner.token, slug);
    const make = async (url: string, body: (k: number) => Row, count: number) => {
      const ids: number[] = [];
      for (let k = 0; k < count; k++) ids.push(created(await admin('POST', url, body(k)), url).id);
      return ids;
    };
    const teachers = await make(
      '/api/teachers',
      (k) => ({ username: fresh('busy'), password: TEACHER_PASSWORD, confirm_password: TEACHER_PASSWORD, first_name: 'Καθηγητής', last_name: `Νο ${k + 1}` }),
      26,
    );
    const rooms = await make('/api/rooms', (k) => ({ name: `Αίθουσα ${k + 1}`, capacity: 12 }), 26);
    const classes = await make('/api/classes', (k) => ({ name: `Τμήμα ${k + 1}` }), 26);
    const subjects = await make(
      '/api/subjects',
      (k) => ({ name: ['Μαθηματικά', 'Φυσική', 'Χημεία', 'Έκθεση', 'Αγγλικά', 'Βιολογία'][k]!, color: '#1677ff' }),
      6,
    );
    const types = await make('/api/lesson-types', (k) => ({ name: ['Θεωρία', 'Ασκήσεις', 'Διαγώνισμα'][k]!, color: '#52c41a', entity: 'NORMAL' }), 3);
    const monday = addDays(FROM, 13 * 7);
    const values: SQL[] = [];
    for (let day = 0; day < 6; day++)
      for (let k = 0; k < 26; k++)
        for (let h = 0; h < 8; h++)
          values.push(
            sql`(${tenantId}, ${addDays(monday, day)}, ${`${14 + h}:00`}, ${`${15 + h}:00`}, ${teachers[k]}, ${rooms[k]}, ${classes[k]}, ${subjects[(k + h) % 6]}, ${types[h % 3]})`,
          );
    await withTenant(t.database, tenantId, (tx) =>
      tx.execute(
        sql`insert into lessons (tenant_id, date, start_time, end_time, teacher_id, room_id, class_id, subject_id, lesson_type_id) values ${sql.join(values, sql`, `)}`,
      ),
    );
    const res = await admin('GET', `/api/lessons/calendar?from=${monday}&to=${addDays(monday, 6)}`);
    expectStatus(res, 200);
    const week = lessonsOf(res);
    expect(week).toHaveLength(1248);
    expect(week.every((l) => l.teacher?.name && l.room?.name && l.class?.name && l.subject?.name && l.color === '#52c41a')).toBe(true);
    const kb = Buffer.byteLength(res.body, 'utf8') / 1024;
    expect(kb, `${kb.toFixed(1)} KB`).toBeLessThanOrEqual(150);
  });

  it('a six-week month view is allowed; to before from, more than 42 days, or a missing bound is 400', async () => {
    expectStatus(await cal(`from=${FROM}&to=${addDays(FROM, 41)}`), 200);
    expectStatus(await cal(`from=${FROM}&to=${FROM}`), 200);
    // 42 days counted inclusively: from + 41 is the last day allowed
    expectError(await cal(`from=${FROM}&to=${addDays(FROM, 42)}`), 400, 'validation');
    for (const q of [`from=${FROM}&to=${addDays(FROM, -1)}`, `from=${FROM}&to=${addDays(FROM, 60)}`, `from=${FROM}&to=${addDays(FROM, 400)}`]) {
      const body = expectError(await cal(q), 400, 'validation');
      expect(
        Object.keys(body.error.fields ?? {}).some((k) => k === 'from' || k === 'to'),
        q,
      ).toBe(true);
    }
    expectError(await cal(`from=${FROM}`), 400, 'validation', { to: 'required' });
    expectError(await cal(`to=${TO}`), 400, 'validation', { from: 'required' });
    expectError(await cal(''), 400, 'validation');
    for (const bad of ['2027-02-30', '2027-2-1', 'yesterday', '20270201', '']) {
      const body = expectError(await cal(`from=${encodeURIComponent(bad)}&to=${TO}`), 400, 'validation');
      expect(Object.keys(body.error.fields ?? {})).toContain('from');
    }
  });
});
