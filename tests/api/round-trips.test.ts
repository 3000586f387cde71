// The database work each measured request costs, as the server counts it (DB_COUNTS: the
// answer's x-db-round-trips and x-db-statements headers): a counted, filtered, sorted page of
// students with their classes, the calendar's week, and the contracts with a month unpaid.
// Each must stay within its bound, so that a change adding a query to the hot path is seen here
// rather than only in the bench.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, startApp, type TestApp } from './harness';
import { json, show } from './api-helpers';
import { contractBody, created, makeMoneyWorld, type MoneyWorld } from './money-helpers';

const STUDENTS_PAGE = '/api/students?_start=0&_end=25&_sort=last_name,first_name&_order=asc,asc&status=ACTIVE';
const WEEK = '/api/lessons/calendar?from=2027-03-01&to=2027-03-07';
const UNPAID = '/api/contracts?_start=0&_end=25&unpaid_month=2026-10';

/**
 * Bounds, the same on both engines: the session check (with the tenant settings of row-level
 * security) is one round trip, and the page with its count, its labels and the centre's
 * custom-field definitions is the second; each carries its set_config statement. The calendar's
 * revision comes with the session check, so a week already built costs that one round trip.
 * (PGlite runs in the server's process: there a round trip is a call into the database.)
 */
const BOUNDS: Record<string, { roundTrips: number; statements: number }> = {
  'students page': { roundTrips: 2, statements: 6 },
  'calendar week': { roundTrips: 1, statements: 3 },
  'unpaid contracts': { roundTrips: 2, statements: 5 },
};

describe.each(DATABASE_KINDS)('database round trips per request on %s', (kind) => {
  let t: TestApp;
  let w: MoneyWorld;

  beforeAll(async () => {
    t = await startApp(kind, { dbCounts: true });
    // More students than a page, so the total needs counting.
    w = await makeMoneyWorld(t, 30);
    for (const student of w.students.slice(0, 3)) {
      created(await t.request({ method: 'POST', url: '/api/contracts', token: w.token.ADMIN, body: contractBody(w, { student_id: student.id }) }));
    }
    const admin = (method: 'POST', url: string, body: unknown) => t.request({ method, url, body, token: w.token.ADMIN });
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
      await created(
        await admin('POST', '/api/lessons', {
          date,
          start_time: '17:00',
          end_time: '18:00',
          teacher_id: teacher.id,
          room_id: room.id,
          class_id: w.classes[i % 2]!.id,
        }),
      );
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The second of two identical requests (the first may fill caches), with its counts. */
  async function counted(url: string) {
    await t.request({ url, token: w.token.SECRETARY });
    const res = await t.request({ url, token: w.token.SECRETARY });
    expect(res.statusCode, show(res)).toBe(200);
    return { body: json(res), roundTrips: Number(res.headers['x-db-round-trips']), statements: Number(res.headers['x-db-statements']) };
  }

  it.each<[string, string]>([
    ['students page', STUDENTS_PAGE],
    ['calendar week', WEEK],
    ['unpaid contracts', UNPAID],
  ])('%s stays within its bound of round trips and statements', async (name, url) => {
    const { body, roundTrips, statements } = await counted(url);
    expect(body.total).toBeGreaterThan(0);
    expect(roundTrips, name).toBeLessThanOrEqual(BOUNDS[name]!.roundTrips);
    expect(statements, name).toBeLessThanOrEqual(BOUNDS[name]!.statements);
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
