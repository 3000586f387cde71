// Notifications: which events reach whom (a teacher hears of her own lessons, the office of
// lessons waiting for a replacement and of unpaid months), that each user reads only their
// own, and that the scheduled job creates each time-based one once however often it runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNotificationJob } from '../../server/jobs/notifications';
import { expectError, json, show } from './api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from './harness';
import { created, dateCursor, lessonBody, makeLesson, makeWorld, ok, patchLesson, type Call, type Row, type World } from './lessons-helpers';

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

  it('deleting a replacement tells the office its original waits again', async () => {
    const original = await makeLesson(w.admin, lessonBody(w, nextDate()));
    expect((await patchLesson(w.admin, original.id, { status: 'TO_BE_REPLACED' })).statusCode).toBe(200);
    const replacement = await makeLesson(w.admin, lessonBody(w, nextDate(), { teacher_id: w.teachers[1]!.row.id, replaces_lesson_id: original.id }));
    const got = await delta(async () => expect((await w.secretary('DELETE', `/api/lessons/${replacement.id}`)).statusCode).toBe(204));
    expect(got).toEqual({ admin: 1, secretary: 0, teacherA: 0, teacherB: 0 });
    expect((await inbox(w.admin)).data[0]).toMatchObject({ kind: 'lesson-waiting', link: `/?mode=view&lesson=${original.id}` });
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

  it('the scheduled job: an unpaid month after the 10th and a lesson still waiting reach the office once, however often it runs', async () => {
    const admin = w.admin;
    const student = created(await admin('POST', '/api/students', { first_name: 'Άννα', last_name: 'Νικολάου' }), 'student');
    const contract = created(
      await admin('POST', '/api/contracts', { student_id: student.id, start_date: '2027-01-01', end_date: '2027-06-30', register_cost: 0, month_cost: 10000 }),
      'contract',
    );
    // January is paid; February and March are not.
    created(
      await admin('POST', '/api/payments', {
        contract_id: contract.id,
        kind: 'MONTHLY',
        month: '2027-01',
        amount: 10000,
        method: 'CASH',
        paid_on: '2027-01-05',
      }),
      'payment',
    );
    const waiting = await makeLesson(admin, lessonBody(w, '2027-03-12', { room_id: w.rooms[1]!.id, class_id: w.classes[1]!.id }));
    expect((await patchLesson(admin, waiting.id, { status: 'TO_BE_REPLACED' })).statusCode).toBe(200);

    const JOB_KINDS = ['month-unpaid', 'lesson-still-waiting'];
    const links = [`/contracts/?mode=status&contract=${contract.id}`, `/?mode=view&lesson=${waiting.id}`];
    /** Who has which of this contract's and this lesson's notifications: [kind, month or date] per office user. */
    const said = async () => {
      const out: Record<string, string[]> = {};
      for (const [who, call] of Object.entries({ admin: w.admin, secretary: w.secretary, teacherA, teacherB })) {
        const rows = (await inbox(call, '?_end=200')).data.filter((r) => links.includes(r.link) && JOB_KINDS.includes(r.kind));
        out[who] = rows.map((r) => `${r.kind} ${r.params.month ?? r.params.date}`).sort();
      }
      return out;
    };
    const office = (kinds: string[]) => ({ admin: kinds, secretary: kinds, teacherA: [], teacherB: [] });

    // On 10 March February is overdue, March not yet; the lesson of 12 March is two days away.
    await runNotificationJob(t.database, { today: '2027-03-10' });
    await runNotificationJob(t.database, { today: '2027-03-10' });
    expect(await said()).toEqual(office(['lesson-still-waiting 12/03/2027', 'month-unpaid 02/2027']));
    const unpaid = (await inbox(w.secretary)).data.find((r) => r.kind === 'month-unpaid' && links.includes(r.link))!;
    expect(unpaid.title).toBe('Απλήρωτος μήνας');
    expect(unpaid.body).toContain('Άννα Νικολάου');
    expect(unpaid.body).toContain('02/2027');

    // After the 10th March is overdue too; a run after days of downtime catches up with April, once each.
    await runNotificationJob(t.database, { today: '2027-03-11' });
    await Promise.all([runNotificationJob(t.database, { today: '2027-04-20' }), runNotificationJob(t.database, { today: '2027-04-20' })]);
    await runNotificationJob(t.database, { today: '2027-04-21' });
    expect(await said()).toEqual(office(['lesson-still-waiting 12/03/2027', 'month-unpaid 02/2027', 'month-unpaid 03/2027', 'month-unpaid 04/2027']));

    // Paying May ahead of time: May is never reported.
    created(
      await admin('POST', '/api/payments', {
        contract_id: contract.id,
        kind: 'MONTHLY',
        month: '2027-05',
        amount: 10000,
        method: 'CASH',
        paid_on: '2027-04-21',
      }),
      'payment',
    );
    await runNotificationJob(t.database, { today: '2027-05-20' });
    expect(await said()).toEqual(office(['lesson-still-waiting 12/03/2027', 'month-unpaid 02/2027', 'month-unpaid 03/2027', 'month-unpaid 04/2027']));
  });
});
