// Notifications: which events reach whom (a teacher hears of her own lessons, the office of
// lessons waiting for a replacement and of unpaid months), that each user reads only their
// own, and that the scheduled job creates each time-based one once however often it runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNotificationJob } from '../../../server/jobs/notifications';
import { expectError, json, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { eq, sql } from 'drizzle-orm';
import { addDays, displayDate, unpaidListLink } from '../../../domain/index';
import { tenants } from '../../../server/db/schema/index';
import { platform, withTenant } from '../../../server/db/doors';
import {
  created,
  dateCursor,
  lessonBody,
  makeLesson,
  makeWorld,
  ok,
  patchLesson,
  seriesCreate,
  seriesLessons,
  type Call,
  type Row,
  type World,
} from '../support/lessons-helpers';

/** Someone's notifications as the list answers them, newest first. */
async function inbox(call: Call, query = '') {
  const res = await call('GET', `/api/notifications${query}`);
  expect(res.statusCode, show(res)).toBe(200);
  expect(res.headers['x-total-count']).toBe(String(json(res).total));
  return json(res) as { data: Row[]; total: number; unread: number };
}

describe.each(DATABASE_KINDS)('notifications on %s', (kind) => {
  let t: TestApp;
  let w: World;
  let teacherA: Call;
  let teacherB: Call;
  const nextDate = dateCursor('2027-04-01');

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeWorld(t, { tenant: `notif${kind === 'pglite' ? 'a' : 'b'}`, teachers: 2 });
    teacherA = w.teachers[0]!.call;
    teacherB = w.teachers[1]!.call;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Everyone's count of notifications, to see who got what from one step. */
  async function counts() {
    const all = { admin: w.admin, secretary: w.secretary, teacherA, teacherB };
    return Object.fromEntries(await Promise.all(Object.entries(all).map(async ([who, call]) => [who, (await inbox(call)).total] as const)));
  }
  async function delta(step: () => Promise<unknown>) {
    const before = await counts();
    await step();
    const after = await counts();
    return Object.fromEntries(Object.entries(after).map(([who, n]) => [who, n - before[who]!]));
  }

  it('a lesson created for a teacher tells that teacher only, in Greek, with a link that opens it', async () => {
    let lesson: Row = {};
    const got = await delta(async () => {
      lesson = await makeLesson(w.admin, lessonBody(w, '2027-03-25'));
    });
    expect(got).toEqual({ admin: 0, secretary: 0, teacherA: 1, teacherB: 0 });
    const [latest] = (await inbox(teacherA)).data;
    expect(latest).toMatchObject({ kind: 'lesson-created', link: `/?mode=view&lesson=${lesson.id}`, read: false, read_at: null, title: 'Νέο μάθημα' });
    expect(latest!.body).toContain('25/03/2027, 17:00–18:00');
    expect(latest!.body).toContain(w.subjects[0]!.name);
    // The same notification in English for a reader who asks for it.
    const en = await t.request({ url: '/api/notifications', token: w.teachers[0]!.token, tenant: w.tenant, headers: { 'accept-language': 'en' } });
    expect(json(en).data[0].title).toBe('New lesson');
  });

  it('moving, cancelling and marking to be replaced each tell the teacher; a waiting lesson tells the office but whoever marked it', async () => {
    const lesson = await makeLesson(w.admin, lessonBody(w, nextDate()));
    const moved = await delta(async () => {
      expect((await patchLesson(w.secretary, lesson.id, { start_time: '18:00', end_time: '19:00' })).statusCode).toBe(200);
    });
    expect(moved).toEqual({ admin: 0, secretary: 0, teacherA: 1, teacherB: 0 });
    const [move] = (await inbox(teacherA)).data;
    expect(move).toMatchObject({ kind: 'lesson-moved', link: `/?mode=view&lesson=${lesson.id}`, title: 'Το μάθημά σας μετακινήθηκε' });
    expect(move!.body).toContain('17:00');
    expect(move!.body).toContain('18:00–19:00');

    // Homework is no news.
    expect(await delta(async () => expect((await patchLesson(w.admin, lesson.id, { homework: 'Ασκήσεις 1-5' })).statusCode).toBe(200))).toEqual({
      admin: 0,
      secretary: 0,
      teacherA: 0,
      teacherB: 0,
    });

    const marked = await delta(async () => expect((await patchLesson(w.admin, lesson.id, { status: 'TO_BE_REPLACED' })).statusCode).toBe(200));
    expect(marked).toEqual({ admin: 0, secretary: 1, teacherA: 1, teacherB: 0 });
    expect((await inbox(teacherA)).data[0]).toMatchObject({ kind: 'lesson-to-be-replaced' });
    expect((await inbox(w.secretary)).data[0]).toMatchObject({ kind: 'lesson-waiting', link: `/?mode=view&lesson=${lesson.id}` });

    const canceled = await delta(async () => expect((await patchLesson(w.admin, lesson.id, { status: 'CANCELED' })).statusCode).toBe(200));
    expect(canceled).toEqual({ admin: 0, secretary: 0, teacherA: 1, teacherB: 0 });
    expect((await inbox(teacherA)).data[0]).toMatchObject({ kind: 'lesson-canceled', title: 'Το μάθημά σας ακυρώθηκε' });
  });

  it('a lesson given to another teacher is new for her and off the first one’s timetable', async () => {
    const lesson = await makeLesson(w.admin, lessonBody(w, nextDate()));
    const got = await delta(async () => expect((await patchLesson(w.admin, lesson.id, { teacher_id: w.teachers[1]!.row.id })).statusCode).toBe(200));
    expect(got).toEqual({ admin: 0, secretary: 0, teacherA: 1, teacherB: 1 });
    expect((await inbox(teacherB)).data[0]).toMatchObject({ kind: 'lesson-created' });
    expect((await inbox(teacherA)).data[0]).toMatchObject({ kind: 'lesson-canceled' });
  });

  it('deleting a replacement tells the office its original waits again, and its teacher it is off her timetable', async () => {
    const original = await makeLesson(w.admin, lessonBody(w, nextDate()));
    expect((await patchLesson(w.admin, original.id, { status: 'TO_BE_REPLACED' })).statusCode).toBe(200);
    const replacement = await makeLesson(w.admin, lessonBody(w, nextDate(), { teacher_id: w.teachers[1]!.row.id, replaces_lesson_id: original.id }));
    const got = await delta(async () => expect((await w.secretary('DELETE', `/api/lessons/${replacement.id}`)).statusCode).toBe(204));
    expect(got).toEqual({ admin: 1, secretary: 0, teacherA: 0, teacherB: 1 });
    expect((await inbox(w.admin)).data[0]).toMatchObject({ kind: 'lesson-waiting', link: `/?mode=view&lesson=${original.id}` });
    expect((await inbox(teacherB)).data[0]).toMatchObject({ kind: 'lesson-canceled', link: '/', title: 'Το μάθημά σας ακυρώθηκε' });
  });

  it('deleting a lesson still to be given tells its teacher; deleting a cancelled one tells nobody', async () => {
    const lesson = await makeLesson(w.admin, lessonBody(w, nextDate()));
    const got = await delta(async () => expect((await w.secretary('DELETE', `/api/lessons/${lesson.id}`)).statusCode).toBe(204));
    expect(got).toEqual({ admin: 0, secretary: 0, teacherA: 1, teacherB: 0 });
    const [latest] = (await inbox(teacherA)).data;
    expect(latest).toMatchObject({ kind: 'lesson-canceled', link: '/' });
    expect(latest!.body).toContain(w.subjects[0]!.name);
    const canceled = await makeLesson(w.admin, lessonBody(w, nextDate()));
    expect((await patchLesson(w.admin, canceled.id, { status: 'CANCELED' })).statusCode).toBe(200);
    const none = await delta(async () => expect((await w.secretary('DELETE', `/api/lessons/${canceled.id}`)).statusCode).toBe(204));
    expect(none).toEqual({ admin: 0, secretary: 0, teacherA: 0, teacherB: 0 });
  });

  it('a weekly series tells its teacher once, with the number of lessons', async () => {
    const start = nextDate();
    const got = await delta(async () => {
      const res = await w.admin('POST', '/api/recurring-lessons', {
        ...lessonBody(w, start, { room_id: w.rooms[1]!.id, class_id: w.classes[1]!.id }),
        date: undefined,
        start_date: '2027-09-06',
        repeat: 'WEEKLY',
        repeat_every: 1,
        weekdays: [1],
        end_type: 'AFTER',
        occurrences: 3,
      });
      expect(res.statusCode, show(res)).toBe(201);
    });
    expect(got).toEqual({ admin: 0, secretary: 0, teacherA: 1, teacherB: 0 });
    const [series] = (await inbox(teacherA)).data;
    expect(series).toMatchObject({ kind: 'series-created', title: 'Νέα σειρά μαθημάτων' });
    expect(series!.body).toContain('3 μαθήματα από 06/09/2027');
  });

  describe('changes to a whole series ("all" and "this and following")', () => {
    /** A block of six weeks of its own for each series, from a Monday, so series never clash. */
    let block = 0;
    const mondays = () => addDays('2028-01-03', 42 * block++);
    const weekly = async (occurrences: number, over: Row = {}) => {
      const start = mondays();
      const out = await seriesCreate(w.admin, {
        ...lessonBody(w, start, over),
        date: undefined,
        start_date: start,
        repeat: 'WEEKLY',
        repeat_every: 1,
        weekdays: [1],
        end_type: 'AFTER',
        occurrences,
      });
      return { id: out.id, start, lessons: await seriesLessons(w.admin, out.id) };
    };
    const version = async (id: number) => ok(await w.admin('GET', `/api/recurring-lessons/${id}`)).version as number;
    const patchSeries = async (call: Call, id: number, body: Row) => call('PATCH', `/api/recurring-lessons/${id}`, { ...body, version: await version(id) });
    const changed = async (call: Call, id: number, body: Row) => {
      const res = await patchSeries(call, id, body);
      expect(res.statusCode, show(res)).toBe(200);
    };
    const none = { admin: 0, secretary: 0, teacherA: 0, teacherB: 0 };
    const latest = async (call: Call) => (await inbox(call)).data[0]!;
    const english = async (token: string) =>
      json(await t.request({ url: '/api/notifications', token, tenant: w.tenant, headers: { 'accept-language': 'en' } })).data[0] as Row;

    it('moving every lesson to another day and hour tells the teacher once, with how many and from when to when', async () => {
      const series = await weekly(4);
      const got = await delta(() => changed(w.admin, series.id, { weekdays: [2], start_time: '16:00', end_time: '17:00' }));
      expect(got).toEqual({ ...none, teacherA: 1 });
      const now = await seriesLessons(w.admin, series.id);
      expect(now.map((l) => l.date)).toEqual([1, 8, 15, 22].map((d) => addDays(series.start, d)));
      const note = await latest(teacherA);
      expect(note).toMatchObject({ kind: 'series-moved', link: `/?mode=view&lesson=${now[0]!.id}`, title: 'Τα μαθήματά σας μετακινήθηκαν', read: false });
      expect(note.body).toBe(
        `${w.subjects[0]!.name}: 4 μαθήματα μετακινήθηκαν· το πρώτο από ${displayDate(series.start)}, 17:00 σε ${displayDate(now[0]!.date)}, 16:00–17:00.`,
      );
      expect(await english(w.teachers[0]!.token)).toMatchObject({ title: 'Your lessons were moved' });
      expect((await english(w.teachers[0]!.token)).body).toContain('4 lessons moved; the first from');
    });

    it('a change that moves some lessons and drops others is one notification of how many changed', async () => {
      const series = await weekly(3);
      // Tuesdays, and two of them: two lessons move a day on, the third goes.
      expect(await delta(() => changed(w.admin, series.id, { weekdays: [2], occurrences: 2 }))).toEqual({ ...none, teacherA: 1 });
      const now = await seriesLessons(w.admin, series.id);
      expect(now.map((l) => l.date)).toEqual([addDays(series.start, 1), addDays(series.start, 8)]);
      const note = await latest(teacherA);
      expect(note).toMatchObject({ kind: 'series-changed', title: 'Τα μαθήματά σας άλλαξαν', link: `/?mode=view&lesson=${now[0]!.id}` });
      expect(note.body).toContain(`3 μαθήματά σας άλλαξαν· το πρώτο στις ${displayDate(now[0]!.date)}, 17:00–18:00`);
      expect((await english(w.teachers[0]!.token)).body).toContain('3 of your lessons changed; the first on');
    });

    it('"this and following" tells of the lessons from that date only; one lesson in the singular', async () => {
      const series = await weekly(5);
      const third = series.lessons[2]!;
      const got = await delta(() => changed(w.secretary, series.id, { scope: 'following', from_date: third.date, start_time: '18:00', end_time: '19:00' }));
      expect(got).toEqual({ ...none, teacherA: 1 });
      const note = await latest(teacherA);
      expect(note).toMatchObject({ kind: 'series-moved', link: `/?mode=view&lesson=${third.id}` });
      expect(note.body).toContain(`3 μαθήματα μετακινήθηκαν· το πρώτο από ${displayDate(third.date)}, 17:00 σε ${displayDate(third.date)}, 18:00–19:00`);

      const last = series.lessons[4]!;
      expect(await delta(() => changed(w.admin, series.id, { scope: 'following', from_date: last.date, room_id: w.rooms[1]!.id }))).toEqual({
        ...none,
        teacherA: 1,
      });
      const one = await latest(teacherA);
      expect(one).toMatchObject({ kind: 'series-moved', title: 'Το μάθημά σας μετακινήθηκε', link: `/?mode=view&lesson=${last.id}` });
      expect(one.body).toContain('1 μάθημα μετακινήθηκε από');
      expect(await english(w.teachers[0]!.token)).toMatchObject({ title: 'Your lesson was moved' });
      expect((await english(w.teachers[0]!.token)).body).toContain('1 lesson moved from');
    });

    it('a change that moves nothing tells nobody', async () => {
      const series = await weekly(3);
      expect(await delta(() => changed(w.admin, series.id, { notes: 'Φέρτε το βιβλίο', tag_ids: [w.tag.id] }))).toEqual(none);
      expect(await delta(() => changed(w.admin, series.id, { start_time: '17:00', end_time: '18:00', teacher_id: w.teachers[0]!.row.id }))).toEqual(none);
      // A shorter series keeps its first dates where they are: only the lessons that went are news.
      expect(await delta(() => changed(w.admin, series.id, { occurrences: 2 }))).toEqual({ ...none, teacherA: 1 });
      const note = await latest(teacherA);
      expect(note).toMatchObject({ kind: 'series-canceled', link: '/' });
      expect(note.body).toContain(`1 μάθημα ακυρώθηκε, στις ${displayDate(series.lessons[2]!.date)}`);
    });

    it('another teacher for the whole series: the new one gets the lessons, the one before hears they are off her timetable', async () => {
      const series = await weekly(3);
      const got = await delta(() => changed(w.admin, series.id, { teacher_id: w.teachers[1]!.row.id }));
      expect(got).toEqual({ ...none, teacherA: 1, teacherB: 1 });
      const link = `/?mode=view&lesson=${series.lessons[0]!.id}`;
      expect(await latest(teacherB)).toMatchObject({ kind: 'series-added', title: 'Νέα μαθήματα', link });
      expect((await latest(teacherB)).body).toContain('3 μαθήματα για εσάς· το πρώτο στις');
      expect(await latest(teacherA)).toMatchObject({ kind: 'series-canceled', title: 'Τα μαθήματά σας ακυρώθηκαν', link });
      expect((await latest(teacherA)).body).toContain('3 μαθήματα ακυρώθηκαν');
    });

    it('cancelling, marking to be replaced and restoring many lessons: the teacher once each, and the office of the lessons waiting', async () => {
      const series = await weekly(4);
      const second = series.lessons[1]!;
      const canceled = await delta(() => changed(w.admin, series.id, { status: 'CANCELED', scope: 'following', from_date: second.date }));
      expect(canceled).toEqual({ ...none, teacherA: 1 });
      expect(await latest(teacherA)).toMatchObject({ kind: 'series-canceled', link: `/?mode=view&lesson=${second.id}` });
      expect((await latest(teacherA)).body).toContain('3 μαθήματα ακυρώθηκαν');

      // Only the first can still be marked; the cancelled ones are left as they are.
      const marked = await delta(() => changed(w.secretary, series.id, { status: 'TO_BE_REPLACED' }));
      expect(marked).toEqual({ ...none, teacherA: 1, admin: 1 });
      expect(await latest(teacherA)).toMatchObject({ kind: 'series-to-be-replaced', title: 'Το μάθημά σας θα αντικατασταθεί' });
      const waiting = await latest(w.admin);
      expect(waiting).toMatchObject({ kind: 'series-waiting', title: 'Μάθημα περιμένει αντικατάσταση', link: `/?mode=view&lesson=${series.lessons[0]!.id}` });
      expect(waiting.body).toContain(`(${w.teachers[0]!.name}): 1 μάθημα, στις ${displayDate(series.start)}`);

      const restored = await delta(() => changed(w.admin, series.id, { status: 'NORMAL' }));
      expect(restored).toEqual({ ...none, teacherA: 1 });
      expect(await latest(teacherA)).toMatchObject({ kind: 'series-added', link: `/?mode=view&lesson=${second.id}` });
      expect((await latest(teacherA)).body).toContain('3 μαθήματα για εσάς');

      const other = await weekly(3);
      expect(await delta(() => changed(w.admin, other.id, { status: 'TO_BE_REPLACED' }))).toEqual({ ...none, teacherA: 1, secretary: 1 });
      expect(await latest(w.secretary)).toMatchObject({ kind: 'series-waiting', title: 'Μαθήματα περιμένουν αντικατάσταση' });
      expect((await latest(w.secretary)).body).toContain('3 μαθήματα· το πρώτο στις');
      // Marked already: nothing moves, nobody hears.
      expect(await delta(() => changed(w.admin, other.id, { status: 'TO_BE_REPLACED' }))).toEqual(none);
      expectError(await patchSeries(w.admin, other.id, { status: 'CANCELED', notes: 'x' }), 400, 'validation', { status: 'invalid' });
      expectError(await patchSeries(w.admin, other.id, { status: 'REPLACED' }), 400, 'validation');
    });

    it('deleting "this and following" and then the rest tells the teacher once each, with the count', async () => {
      const series = await weekly(4);
      const got = await delta(async () =>
        expect((await w.admin('DELETE', `/api/recurring-lessons/${series.id}?from_date=${series.lessons[2]!.date}`)).statusCode).toBe(204),
      );
      expect(got).toEqual({ ...none, teacherA: 1 });
      expect(await latest(teacherA)).toMatchObject({ kind: 'series-canceled', link: '/' });
      expect((await latest(teacherA)).body).toContain(`2 μαθήματα ακυρώθηκαν· το πρώτο στις ${displayDate(series.lessons[2]!.date)}, 17:00–18:00`);
      expect(await delta(async () => expect((await w.admin('DELETE', `/api/recurring-lessons/${series.id}`)).statusCode).toBe(204))).toEqual({
        ...none,
        teacherA: 1,
      });
      expect((await latest(teacherA)).body).toContain(`2 μαθήματα ακυρώθηκαν· το πρώτο στις ${displayDate(series.start)}`);
    });

    it('a change refused for a clash (409) tells nobody', async () => {
      const series = await weekly(3);
      // Teacher B holds room 2 on the second Monday at 17:00.
      await makeLesson(
        w.admin,
        lessonBody(w, series.lessons[1]!.date, { teacher_id: w.teachers[1]!.row.id, room_id: w.rooms[1]!.id, class_id: w.classes[1]!.id }),
      );
      const got = await delta(async () => expectError(await patchSeries(w.admin, series.id, { room_id: w.rooms[1]!.id }), 409, 'conflict'));
      expect(got).toEqual(none);
      // Cancelled, then restored while the slot of one is taken: refused as a whole.
      await changed(w.admin, series.id, { status: 'CANCELED' });
      await makeLesson(w.admin, lessonBody(w, series.lessons[2]!.date, { teacher_id: w.teachers[1]!.row.id, class_id: w.classes[1]!.id }));
      expect(await delta(async () => expectError(await patchSeries(w.admin, series.id, { status: 'NORMAL' }), 409, 'conflict'))).toEqual(none);
      expect((await seriesLessons(w.admin, series.id)).map((l) => l.status)).toEqual(['CANCELED', 'CANCELED', 'CANCELED']);
    });
  });

  it('each user reads and marks only their own: another’s answers 404', async () => {
    const mine = (await inbox(teacherA)).data[0]!;
    expectError(await teacherB('POST', `/api/notifications/${mine.id}/read`), 404, 'not-found');
    expectError(await w.admin('POST', `/api/notifications/${mine.id}/read`), 404, 'not-found');
    expect((await inbox(teacherB)).data.map((r) => r.id)).not.toContain(mine.id);
    expectError(await teacherA('POST', '/api/notifications/99999999/read'), 404, 'not-found');
    expectError(await teacherA('POST', '/api/notifications/abc/read'), 404, 'not-found');
    expect((await inbox(teacherA)).data[0]!.read).toBe(false);
  });

  it('read, unread filter, count, paging and mark all read', async () => {
    const all = await inbox(teacherA);
    expect(all.unread).toBe(all.total);
    const page = await inbox(teacherA, '?_start=1&_end=3');
    expect(page.data.map((r) => r.id)).toEqual(all.data.slice(1, 3).map((r) => r.id));
    expect(page.total).toBe(all.total);

    const one = ok(await teacherA('POST', `/api/notifications/${all.data[0]!.id}/read`));
    expect(one).toMatchObject({ id: all.data[0]!.id, read: true });
    expect(typeof one.read_at).toBe('string');
    const unread = await inbox(teacherA, '?unread=true');
    expect(unread.total).toBe(all.total - 1);
    expect(unread.unread).toBe(all.total - 1);
    expect(unread.data.every((r) => !r.read)).toBe(true);

    expect(ok(await teacherA('POST', '/api/notifications/read-all'))).toEqual({ marked: all.total - 1 });
    expect((await inbox(teacherA)).unread).toBe(0);
    expect((await inbox(teacherA, '?unread=true')).data).toEqual([]);
    // Someone else's stay unread.
    expect((await inbox(teacherB)).unread).toBeGreaterThan(0);
    expect(ok(await teacherA('POST', '/api/notifications/read-all'))).toEqual({ marked: 0 });
  });

  it('bad list parameters answer 400, and a ROOT has none', async () => {
    expectError(await teacherA('GET', '/api/notifications?_start=0&_end=500'), 400, 'validation', { _end: 'too-large' });
    expectError(await teacherA('GET', '/api/notifications?_start=3&_end=1'), 400, 'validation', { _end: 'too-small' });
    // Without `_end`, a page of 25 from wherever it starts, however far.
    expect((await inbox(teacherA, '?_start=500')).data).toEqual([]);
    expectError(await teacherA('GET', '/api/notifications?unread=maybe'), 400, 'validation');
    expectError(await teacherA('GET', '/api/notifications?colour=red'), 400, 'validation');
    expect(await inbox(w.root)).toEqual({ data: [], total: 0, unread: 0 });
    expect((await t.request({ url: '/api/notifications', tenant: w.tenant })).statusCode).toBe(401);
  });

  it('the scheduled job: an unpaid month after the 10th (one for the centre, naming the contracts and the sum) and a lesson still waiting reach the office once, however often it runs', async () => {
    const admin = w.admin;
    const contractOf = async (first: string, last: string, body: Record<string, unknown> = {}) => {
      const student = created(await admin('POST', '/api/students', { first_name: first, last_name: last }), 'student');
      return created(
        await admin('POST', '/api/contracts', {
          student_id: student.id,
          start_date: '2027-01-01',
          end_date: '2027-06-30',
          register_cost: 0,
          month_cost: 10000,
          ...body,
        }),
        'contract',
      );
    };
    const pay = async (contractId: number, month: string, amount: number, paidOn: string) =>
      created(await admin('POST', '/api/payments', { contract_id: contractId, kind: 'MONTHLY', month, amount, method: 'CASH', paid_on: paidOn }), 'payment');
    const anna = await contractOf('Άννα', 'Νικολάου');
    // a 10% discount: 90,00 € a month
    const vasilis = await contractOf('Βασίλης', 'Ιωάννου', { discount_percent: 10 });
    // January is paid by both; February by neither (Vasilis paid 30,00 € of it); March by Anna only.
    await pay(anna.id, '2027-01', 10000, '2027-01-05');
    await pay(vasilis.id, '2027-01', 9000, '2027-01-05');
    await pay(vasilis.id, '2027-02', 3000, '2027-02-05');
    await pay(anna.id, '2027-03', 10000, '2027-03-05');
    const waiting = await makeLesson(admin, lessonBody(w, '2027-03-12', { room_id: w.rooms[1]!.id, class_id: w.classes[1]!.id }));
    expect((await patchLesson(admin, waiting.id, { status: 'TO_BE_REPLACED' })).statusCode).toBe(200);

    // One unread notification of each contract, as the job wrote them before months were grouped.
    const [centre] = await platform(t.database).select({ id: tenants.id }).from(tenants).where(eq(tenants.slug, w.tenant));
    await withTenant(t.database, centre!.id, (tx) =>
      tx.execute(sql`insert into notifications (tenant_id, user_id, kind, params, link, dedupe_key)
                     select tenant_id, id, 'month-unpaid', ${JSON.stringify({ student: 'Άννα Νικολάου', month: '02/2027' })}::jsonb,
                            ${`/contracts/?mode=status&contract=${anna.id}`}, ${`month-unpaid:${anna.id}:2027-02`}
                     from users where tenant_id = ${centre!.id} and status = 'ACTIVE' and role in ('ADMIN', 'SECRETARY')`),
    );
    const before = await inbox(w.secretary);

    const links = [
      unpaidListLink('2027-02'),
      unpaidListLink('2027-03'),
      unpaidListLink('2027-04'),
      unpaidListLink('2027-05'),
      `/?mode=view&lesson=${waiting.id}`,
    ];
    /** Who has which of the job's notifications: [kind, month or date, contracts] per user. */
    const said = async () => {
      const out: Record<string, string[]> = {};
      for (const [who, call] of Object.entries({ admin: w.admin, secretary: w.secretary, teacherA, teacherB })) {
        const rows = (await inbox(call, '?_end=200')).data.filter((r) => links.includes(r.link) && JOB_KINDS.includes(r.kind));
        out[who] = rows.map((r) => [r.kind, r.params.month ?? r.params.date, r.params.count, r.params.total].filter((x) => x !== undefined).join(' ')).sort();
      }
      return out;
    };
    const JOB_KINDS = ['months-unpaid', 'lesson-still-waiting'];
    const office = (kinds: string[]) => ({ admin: kinds, secretary: kinds, teacherA: [], teacherB: [] });

    // On 10 March February is overdue, March not yet; the lesson of 12 March is two days away.
    await runNotificationJob(t.database, { today: '2027-03-10' });
    await runNotificationJob(t.database, { today: '2027-03-10' });
    const february = 'months-unpaid 02/2027 2 160,00 €';
    expect(await said()).toEqual(office(['lesson-still-waiting 12/03/2027', february]));
    const unpaid = (await inbox(w.secretary)).data.find((r) => r.kind === 'months-unpaid')!;
    expect(unpaid.title).toBe('Απλήρωτος μήνας 02/2027');
    expect(unpaid.body).toBe('2 συμβόλαια δεν έχουν εξοφλήσει τον μήνα 02/2027, συνολικά 160,00 €.');
    expect(unpaid.link).toBe('/contracts/?filters[0][field]=unpaid_month&filters[0][operator]=eq&filters[0][value]=2027-02');
    const en = await t.request({ url: '/api/notifications', token: w.secretaryToken, tenant: w.tenant, headers: { 'accept-language': 'en' } });
    expect(json(en).data.find((r: Row) => r.kind === 'months-unpaid').body).toBe('2 contracts have not paid the month 02/2027, 160,00 € in all.');
    // The old per-contract one is folded into it: two new ones (the month, the lesson), one read.
    const after = await inbox(w.secretary);
    expect(after.unread - before.unread).toBe(1);
    expect(after.data.find((r) => r.kind === 'month-unpaid' && r.link === `/contracts/?mode=status&contract=${anna.id}`)?.read).toBe(true);

    // After the 10th March is overdue too (Vasilis alone); a run after days of downtime catches up
    // with April (both), once each however many processes run it.
    await runNotificationJob(t.database, { today: '2027-03-11' });
    await Promise.all([runNotificationJob(t.database, { today: '2027-04-20' }), runNotificationJob(t.database, { today: '2027-04-20' })]);
    await runNotificationJob(t.database, { today: '2027-04-21' });
    const months = ['months-unpaid 03/2027 1 90,00 €', 'months-unpaid 04/2027 2 190,00 €'];
    expect(await said()).toEqual(office(['lesson-still-waiting 12/03/2027', february, ...months]));
    const one = (await inbox(w.admin, '?_end=200')).data.find((r) => r.link === unpaidListLink('2027-03'))!;
    expect(one.body).toBe('1 συμβόλαιο δεν έχει εξοφλήσει τον μήνα 03/2027: 90,00 €.');

    // Both paying May ahead of time: May is never reported.
    await pay(anna.id, '2027-05', 10000, '2027-04-21');
    await pay(vasilis.id, '2027-05', 9000, '2027-04-21');
    await runNotificationJob(t.database, { today: '2027-05-20' });
    expect(await said()).toEqual(office(['lesson-still-waiting 12/03/2027', february, ...months]));
  });
});
