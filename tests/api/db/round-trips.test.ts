// The database work each measured request costs, as the server counts it (DB_COUNTS: the
// answer's x-db-round-trips and x-db-statements headers): a counted, filtered, sorted page of
// students with their classes, the calendar's week, the contracts with a month unpaid, a
// filtered, sorted, counted page of guardians, the receipts, the attendance marks, a page of a
// custom entity's records and a lesson's roster; the account's year and the analytics range.
// Each must stay within its bound, so that a change adding a query to the hot path is seen here
// rather than only in the bench.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { json, show } from '../support/api-helpers';
import { examEntity } from '../../../bench/exam-entity';
import { contractBody, created, makeMoneyWorld, paymentBody, type MoneyWorld } from '../support/money-helpers';

const STUDENTS_PAGE = '/api/students?_start=0&_end=25&_sort=last_name,first_name&_order=asc,asc&status=ACTIVE';
const WEEK = '/api/lessons/calendar?from=2027-03-01&to=2027-03-07';
const UNPAID = '/api/contracts?_start=0&_end=25&unpaid_month=2026-10';
const GUARDIANS = '/api/guardians?_start=0&_end=2&_sort=last_name,first_name&_order=asc,asc&q=παπα';
const RECEIPTS = '/api/receipts?_start=0&_end=25';
const ATTENDANCE = '/api/attendance?_start=0&_end=25&status=PRESENT';
const ACCOUNT_YEAR = '/api/account/year?year=2026';
const ANALYTICS = '/api/analytics/contracts?from=2026-09&to=2027-06';
const RECORDS = `/api/custom-entities/rt-exams/records?_start=0&_end=25&_sort=title&_order=asc&subject=${encodeURIComponent('Φυσική')}`;

/**
 * Bounds, the same on both engines. The lists are read in one round trip: once a session has
 * been found live, the next list request checks it in the same message as the page with its
 * count, its labels and the centre's custom-field definitions (with the tenant settings of
 * row-level security, each message's set_config statement); a custom entity's records, with the
 * entity's definition, read beside a page made from the definition last read. Elsewhere the session check is a
 * round trip of its own and the route's reads the second. The calendar's revision comes with the
 * session check, so a week already built costs that one round trip.
 * (PGlite runs in the server's process: there a round trip is a call into the database.)
 */
const BOUNDS: Record<string, { roundTrips: number; statements: number }> = {
  'students page': { roundTrips: 1, statements: 4 },
  'calendar week': { roundTrips: 1, statements: 3 },
  'unpaid contracts': { roundTrips: 1, statements: 3 },
  'guardians page': { roundTrips: 1, statements: 3 },
  receipts: { roundTrips: 1, statements: 3 },
  attendance: { roundTrips: 1, statements: 3 },
  'custom records': { roundTrips: 1, statements: 4 },
  'lesson roster': { roundTrips: 2, statements: 5 },
  'account year': { roundTrips: 2, statements: 4 },
  analytics: { roundTrips: 2, statements: 4 },
};

describe.each(DATABASE_KINDS)('database round trips per request on %s', (kind) => {
  let t: TestApp;
  let w: MoneyWorld;
  let lessonId = 0;

  beforeAll(async () => {
    t = await startApp(kind, { dbCounts: true });
    // More students than a page, so the total needs counting.
    w = await makeMoneyWorld(t, 30);
    const admin = (method: 'POST' | 'PUT', url: string, body: unknown) => t.request({ method: method as 'POST', url, body, token: w.token.ADMIN });
    for (const student of w.students.slice(0, 3)) {
      const contract = await created(await admin('POST', '/api/contracts', contractBody(w, { student_id: student.id })));
      // Each pays its first month with a receipt.
      await created(await admin('POST', '/api/payments', paymentBody(contract.id)));
    }
    for (const [i, last] of ['Παπαδοπούλου', 'Παπαγεωργίου', 'Παπάς', 'Νικολάου'].entries()) {
      await created(await admin('POST', '/api/guardians', { first_name: 'Ελένη', last_name: last, student_ids: [w.students[i]!.id] }));
    }
    const teacher = await created(
      await admin('POST', '/api/teachers', {
        username: 'rt-teacher',
        password: 'teacher-password-1',
        confirm_password: 'teacher-password-1',
        first_name: 'Μαρία',
        last_name: 'Παπαδοπούλου',
      }),
    );
    const room = await created(await admin('POST', '/api/rooms', { name: 'Αίθουσα 1', capacity: 10 }));
    for (const [i, date] of ['2027-03-01', '2027-03-02', '2027-03-03'].entries()) {
      const lesson = await created(
        await admin('POST', '/api/lessons', {
          date,
          start_time: '17:00',
          end_time: '18:00',
          teacher_id: teacher.id,
          room_id: room.id,
          class_id: w.classes[i % 2]!.id,
        }),
      );
      lessonId = lesson.id;
      const marks = w.students.filter((_, j) => j % 2 === i % 2).map((s, j) => ({ student_id: s.id, status: j % 3 ? 'PRESENT' : 'ABSENT' }));
      const res = await admin('PUT', `/api/lessons/${lesson.id}/attendance`, { marks });
      expect(res.statusCode, show(res)).toBe(200);
    }
    // A custom entity whose records point at students, a third of them in Physics.
    const root = (method: 'POST', url: string, body: unknown) => t.request({ method, url, body, token: w.token.ROOT });
    await created(await root('POST', '/api/custom-entities', examEntity('rt-exams', { subjects: ['Φυσική', 'Χημεία', 'Βιολογία'], tags: ['γραπτά'] })));
    const rows = w.students.map((s, i) => ({ title: `Διαγώνισμα ${i}`, subject: ['Φυσική', 'Χημεία', 'Βιολογία'][i % 3], student: s.id }));
    const imported = await root('POST', '/api/custom-entities/rt-exams/records/import', { rows });
    expect(json(imported), show(imported)).toMatchObject({ created: rows.length });
  });
  afterAll(async () => {
    await t?.close();
  });

  /**
   * The second of identical requests (the first may fill caches), with its counts. The centre's
   * cache lives 5 s, so under load a request can land on its refresh: the fewer of two measured
   * requests is the route's own cost.
   */
  async function counted(url: string) {
    // The account and the analytics are the administrator's; the lists, the office's.
    const token = url.startsWith('/api/account') || url.startsWith('/api/analytics') ? w.token.ADMIN : w.token.SECRETARY;
    await t.request({ url, token });
    const measured = [];
    for (let i = 0; i < 2; i++) {
      const res = await t.request({ url, token });
      expect(res.statusCode, show(res)).toBe(200);
      measured.push({ body: json(res), roundTrips: Number(res.headers['x-db-round-trips']), statements: Number(res.headers['x-db-statements']) });
    }
    return measured.reduce((a, b) => (b.roundTrips < a.roundTrips || (b.roundTrips === a.roundTrips && b.statements < a.statements) ? b : a));
  }

  it.each<[string, string]>([
    ['students page', STUDENTS_PAGE],
    ['calendar week', WEEK],
    ['unpaid contracts', UNPAID],
    ['guardians page', GUARDIANS],
    ['receipts', RECEIPTS],
    ['attendance', ATTENDANCE],
    ['custom records', RECORDS],
    ['lesson roster', ''],
    ['account year', ACCOUNT_YEAR],
    ['analytics', ANALYTICS],
  ])('%s stays within its bound of round trips and statements', async (name, path) => {
    const url = path || `/api/lessons/${lessonId}/attendance`;
    const { body, roundTrips, statements } = await counted(url);
    if (!path) expect(body.data.students.length).toBeGreaterThan(0);
    else if (body.data?.months) expect(body.data.months.length).toBeGreaterThanOrEqual(10);
    else expect(body.total).toBeGreaterThan(0);
    expect(roundTrips, name).toBeLessThanOrEqual(BOUNDS[name]!.roundTrips);
    expect(statements, name).toBeLessThanOrEqual(BOUNDS[name]!.statements);
  });

  it('the guardians page, the receipts and the attendance still carry their totals and rows', async () => {
    // Accent- and case-blind: «παπα» finds Παπάς too; sorted by surname; 3 found, 2 on the page.
    const guardians = (await counted(GUARDIANS)).body;
    expect(guardians.total).toBe(3);
    expect(guardians.data.map((g: { last_name: string }) => g.last_name)).toEqual(['Παπαγεωργίου', 'Παπαδοπούλου']);
    const receipts = (await counted(RECEIPTS)).body;
    expect(receipts.total).toBe(3);
    expect(receipts.data).toHaveLength(3);
    const attendance = (await counted(ATTENDANCE)).body;
    // 3 lessons of 15 students each, 10 of them present in each.
    expect(attendance.total).toBe(30);
    expect(attendance.data).toHaveLength(25);
    expect(attendance.data.every((a: { status: string }) => a.status === 'PRESENT')).toBe(true);
  });

  it('the custom records still carry their total, rows in order and their students named', async () => {
    const { body } = await counted(RECORDS);
    expect(body.total).toBe(10);
    expect(body.data.map((r: { title: string }) => r.title)).toEqual([0, 12, 15, 18, 21, 24, 27, 3, 6, 9].map((i) => `Διαγώνισμα ${i}`));
    expect(body.data[0].student_label).toEqual({ id: w.students[0]!.id, name: 'Μαθητής0 Δοκιμής' });
  });

  it('the account year and the analytics range still carry the contracts and payments', async () => {
    const year = (await counted(ACCOUNT_YEAR)).body.data;
    expect(year.months).toHaveLength(12);
    // Three contracts' first month paid, with receipts.
    expect(year.totals.income.with_receipt).toBeGreaterThan(0);
    const analytics = (await counted(ANALYTICS)).body.data;
    expect(analytics.months.map((m: { month: string }) => m.month)).toEqual([
      '2026-09',
      '2026-10',
      '2026-11',
      '2026-12',
      '2027-01',
      '2027-02',
      '2027-03',
      '2027-04',
      '2027-05',
      '2027-06',
    ]);
    expect(analytics.months.reduce((n: number, m: { active_contracts: number }) => Math.max(n, m.active_contracts), 0)).toBe(3);
  });

  it('the students page still carries its total and the labels of its classes', async () => {
    const { body } = await counted(STUDENTS_PAGE);
    expect(body.total).toBe(30);
    expect(body.data).toHaveLength(25);
    const first = body.data[0];
    expect(first.class_ids).toHaveLength(1);
    expect(first.classes[0].name).toMatch(/Λυκείου/);
  });
});
