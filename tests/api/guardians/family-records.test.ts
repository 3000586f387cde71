// A family's records through the API (docs/rules.md, Guardians, Contracts, Attendance, Guardian
// portal), on both engines: a contract's payer is one of its student's guardians or nobody; a
// withdrawn student leaves rosters, absence notices and the portal's timetable from the day
// after her withdrawal (her past stays); an INACTIVE student is not offered for attendance; a
// staff username that is a guardian's e-mail address is refused.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, json, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { created, fresh, lessonBody, makeLesson, ok, type Row } from '../support/lessons-helpers';
import { type Families, makeFamilies, mark } from '../support/portal-helpers';
import { withTenant } from '../../../server/db/doors';
import { queryRows } from '../../../server/db/statements';

const PAST = '2026-11-02';
const WITHDRAWN_ON = '2026-11-30';
/** The day of the withdrawal itself: still hers. */
const ON_THE_DAY = WITHDRAWN_ON;
const FUTURE = '2027-01-11';
/** The portal answers at most 62 days at once: November and December, then January. */
const RANGES = ['from=2026-11-01&to=2026-12-31', 'from=2027-01-01&to=2027-01-31'];

describe.each(DATABASE_KINDS)("a family's records on %s", (kind) => {
  let t: TestApp;
  let f: Families;
  let tenantId: number;

  beforeAll(async () => {
    t = await startApp(kind);
    f = await makeFamilies(t, PAST, FUTURE);
    tenantId = f.tenantId;
  });
  afterAll(async () => t?.close());

  const admin = () => f.world.admin;
  const getContract = async (id: number) => ok(await admin()('GET', `/api/contracts/${id}`), 'contract') as Row;
  const roster = async (lessonId: number) =>
    (ok(await admin()('GET', `/api/lessons/${lessonId}/attendance`), 'roster') as { students: { student_id: number; in_class: boolean; mark: Row | null }[] })
      .students;
  const absenceMails = (lessonId: number, studentId: number) =>
    withTenant(t.database, tenantId, (tx) =>
      queryRows<Row>(
        tx,
        sql`select id, guardian_id from outbox where tenant_id = ${tenantId} and kind = 'absence'
              and params->>'lesson_id' = ${String(lessonId)} and params->>'student_id' = ${String(studentId)} and cancelled_at is null`,
      ),
    );

  /** The dates of a child's lessons in the portal's timetable, November to January, as a guardian sees them. */
  const timetable = async (call: Families['a']['guardians'][0]['call'], childId: number) => {
    const dates: string[] = [];
    for (const range of RANGES)
      dates.push(...(ok(await call('GET', `/api/portal/children/${childId}/lessons?${range}`), 'lessons') as Row[]).map((l) => l.date));
    return dates;
  };

  describe("a contract's payer", () => {
    const body = (studentId: number, payer: number | null) => ({
      student_id: studentId,
      start_date: '2026-09-01',
      end_date: '2027-06-30',
      register_cost: 0,
      month_cost: 10000,
      payer_guardian_id: payer,
    });

    it("is refused on create when she is another family's guardian, and nothing is made", async () => {
      const before = json(await admin()('GET', '/api/contracts?page_size=1')).total as number;
      const res = await admin()('POST', '/api/contracts', body(f.a.children[0]!.id, f.b.guardians[0]!.row.id));
      const error = expectError(res, 400, 'validation', { payer_guardian_id: 'not-a-guardian' });
      expect(error.error.details).toMatchObject({ reason: 'payer-not-guardian' });
      expect(json(await admin()('GET', '/api/contracts?page_size=1')).total).toBe(before);
    });

    it('is accepted when she is a guardian of the student, or when nobody pays (an adult student)', async () => {
      const mine = created(await admin()('POST', '/api/contracts', body(f.b.children[0]!.id, f.b.guardians[1]!.row.id)), 'contract');
      expect(mine.payer_guardian_id).toBe(f.b.guardians[1]!.row.id);
      const adult = created(await admin()('POST', '/api/contracts', body(f.b.children[0]!.id, null)), 'contract');
      expect(adult.payer_guardian_id).toBeNull();
    });

    it('is refused on update, and so is moving the contract to a student she is not a guardian of; the contract stays as it was', async () => {
      const contract = f.b.contracts[0]!;
      const before = await getContract(contract.id);
      expectError(
        await admin()('PATCH', `/api/contracts/${contract.id}`, { payer_guardian_id: f.a.guardians[0]!.row.id, version: before.version }),
        400,
        'validation',
        { payer_guardian_id: 'not-a-guardian' },
      );
      // B's payer is not a guardian of A's child
      expectError(await admin()('PATCH', `/api/contracts/${contract.id}`, { student_id: f.a.children[0]!.id, version: before.version }), 400, 'validation', {
        payer_guardian_id: 'not-a-guardian',
      });
      const after = await getContract(contract.id);
      expect(after).toMatchObject({ version: before.version, student_id: before.student_id, payer_guardian_id: before.payer_guardian_id });
      // the other guardian of the same child is fine
      const changed = ok(
        await admin()('PATCH', `/api/contracts/${contract.id}`, { payer_guardian_id: f.b.guardians[1]!.row.id, version: before.version }),
      ) as Row;
      expect(changed.payer_guardian_id).toBe(f.b.guardians[1]!.row.id);
    });
  });

  describe('a withdrawn student', () => {
    let onTheDay: Row;
    let after: Row;
    let left: Row;
    let stays: Row;

    beforeAll(async () => {
      // A's first child and B's child share class 0; a lesson on the withdrawal's day and one after it.
      [left, stays] = [f.a.children[0]!, f.b.children[0]!];
      const class0 = f.world.classes[0]!.id;
      onTheDay = await makeLesson(admin(), lessonBody(f.world, ON_THE_DAY, { class_id: class0, start_time: '10:00', end_time: '11:00' }));
      after = await makeLesson(admin(), lessonBody(f.world, '2026-12-07', { class_id: class0, start_time: '10:00', end_time: '11:00' }));
      // marked PRESENT before the office recorded her withdrawal
      await mark(f.world, after.id, [{ student_id: left.id, status: 'PRESENT' }]);
      const contract = f.a.contracts[0]!;
      const res = await admin()('POST', `/api/contracts/${contract.id}/withdraw`, { on: WITHDRAWN_ON, reason: 'Μετακόμιση' });
      expect(res.statusCode, show(res)).toBe(200);
    });

    it('is on the roster up to her withdrawal day, and off it for a later lesson unless already marked', async () => {
      const ids = (rows: { student_id: number }[]) => rows.map((r) => r.student_id);
      expect(ids(await roster(onTheDay.id))).toEqual(expect.arrayContaining([left.id, stays.id]));
      const future = await roster(f.a.lessons[1]!.id);
      expect(ids(future)).toContain(stays.id);
      expect(ids(future)).not.toContain(left.id);
      // the mark she already had stays, no longer as a member of the class
      const marked = (await roster(after.id)).find((r) => r.student_id === left.id);
      expect(marked).toMatchObject({ in_class: false, mark: { status: 'PRESENT' } });
      // she cannot be marked where she is not offered
      expectError(
        await admin()('PUT' as 'PATCH', `/api/lessons/${f.a.lessons[1]!.id}/attendance`, { marks: [{ student_id: left.id, status: 'ABSENT' }] }),
        400,
        'validation',
        { 'marks.0.student_id': 'invalid' },
      );
    });

    it('sends her family no absence notice for a lesson after her withdrawal; a classmate still gets one', async () => {
      await mark(f.world, after.id, [
        { student_id: left.id, status: 'ABSENT' },
        { student_id: stays.id, status: 'ABSENT' },
      ]);
      expect(await absenceMails(after.id, left.id)).toEqual([]);
      expect((await absenceMails(after.id, stays.id)).map((r) => Number(r.guardian_id)).sort()).toEqual(f.b.guardians.map((g) => Number(g.row.id)).sort());
      // on her withdrawal day she is still a pupil: the notice goes
      await mark(f.world, onTheDay.id, [{ student_id: left.id, status: 'ABSENT' }]);
      expect((await absenceMails(onTheDay.id, left.id)).map((r) => Number(r.guardian_id))).toEqual([Number(f.a.guardians[0]!.row.id)]);
    });

    it("has no later lesson in the portal's timetable or next lessons; her past and her sibling's stay", async () => {
      const call = f.a.guardians[0]!.call;
      const dates = await timetable(call, left.id);
      expect(dates).toContain(PAST);
      expect(dates).toContain(ON_THE_DAY);
      // the lesson she was marked in stays (a mark is her past), the class's later one does not
      expect(dates).toContain('2026-12-07');
      expect(dates).not.toContain(FUTURE);
      const home = ok(await call('GET', '/api/portal/home'), 'home') as { child: Row; next_lessons: Row[] }[];
      const hers = home.find((c) => c.child.id === left.id)!;
      expect(hers.next_lessons.map((l) => l.date)).not.toContain(FUTURE);
      // B's child, in the same class, still sees the future lesson
      expect(await timetable(f.b.guardians[0]!.call, stays.id)).toContain(FUTURE);
    });

    it('is back on the roster and the timetable when the withdrawal is undone', async () => {
      const contract = await getContract(f.a.contracts[0]!.id);
      const res = await admin()('POST', `/api/contracts/${contract.id}/reinstate`, { version: contract.version });
      expect(res.statusCode, show(res)).toBe(200);
      expect((await roster(f.a.lessons[1]!.id)).map((r) => r.student_id)).toContain(left.id);
      expect(await timetable(f.a.guardians[0]!.call, left.id)).toContain(FUTURE);
    });
  });

  it('an INACTIVE student is not offered on a roster; one already marked still shows with her mark', async () => {
    const class1 = f.world.classes[1]!.id;
    const student = created(await admin()('POST', '/api/students', { first_name: 'Ελένη', last_name: 'Ανενεργή', class_ids: [class1] }), 'student');
    const marked = await makeLesson(admin(), lessonBody(f.world, '2026-12-14', { class_id: class1, start_time: '12:00', end_time: '13:00' }));
    const unmarked = await makeLesson(admin(), lessonBody(f.world, '2026-12-15', { class_id: class1, start_time: '12:00', end_time: '13:00' }));
    await mark(f.world, marked.id, [{ student_id: student.id, status: 'LATE' }]);
    ok(await admin()('PATCH', `/api/students/${student.id}`, { status: 'INACTIVE', version: student.version }), 'student');
    expect((await roster(unmarked.id)).map((r) => r.student_id)).not.toContain(student.id);
    expect((await roster(marked.id)).find((r) => r.student_id === student.id)).toMatchObject({ mark: { status: 'LATE' } });
  });

  describe("a staff username that is a guardian's e-mail address", () => {
    let email: string;

    beforeAll(async () => {
      // a guardian not (yet) invited to the portal: her address is still her future username
      email = `${fresh('mother')}@example.gr`;
      created(await admin()('POST', '/api/guardians', { first_name: 'Ρένα', last_name: 'Ρήγα', email, portal: false, student_ids: [f.b.children[0]!.id] }));
    });

    it('is refused on create (any case), naming the field, and no account is made', async () => {
      const before = json(await admin()('GET', '/api/users?page_size=1')).total as number;
      const res = await admin()('POST', '/api/users', {
        username: email.toUpperCase(),
        password: 'secretary-password-1',
        role: 'SECRETARY',
        first_name: 'Σ',
        last_name: 'Γ',
      });
      const error = expectError(res, 409, 'conflict', { username: 'guardian-email' });
      expect(error.error.details).toMatchObject({ reason: 'username-guardian-email', field: 'username' });
      expect(json(await admin()('GET', '/api/users?page_size=1')).total).toBe(before);
    });

    it('is refused on rename, for a teacher too, and the account keeps its name', async () => {
      const user = created(
        await admin()('POST', '/api/users', { username: fresh('sec'), password: 'secretary-password-1', role: 'SECRETARY', first_name: 'Σ', last_name: 'Γ' }),
      );
      expectError(await admin()('PATCH', `/api/users/${user.id}`, { username: email, version: user.version }), 409, 'conflict', { username: 'guardian-email' });
      expect((ok(await admin()('GET', `/api/users/${user.id}`)) as Row).username).toBe(user.username);
      expectError(
        await admin()('POST', '/api/teachers', {
          username: email,
          password: 'teacher-password-1',
          confirm_password: 'teacher-password-1',
          first_name: 'Τ',
          last_name: 'Κ',
        }),
        409,
        'conflict',
        { username: 'guardian-email' },
      );
    });
  });
});
