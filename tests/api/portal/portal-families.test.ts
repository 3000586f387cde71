// The families' portal through the API, as each guardian of two families with siblings in one
// centre (A: two children, one guardian; B: one child, two guardians) and of a third family in
// another centre: every /api/portal endpoint answers only her own children and what hangs off
// them; another family's ids (children, receipts, their PDF) are 404; her own details are the
// only thing she writes (validated, versioned, in the history as her). Both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PortalAttendanceAnswer,
  PortalContractsAnswer,
  PortalHomeAnswer,
  PortalLessonsAnswer,
  PortalMeAnswer,
  PortalReceiptsAnswer,
} from '../../../domain/answers/portal';
import { runReminderJob } from '../../../server/jobs/reminders';
import { expectError, json, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { historyOf, ok, type Call, type Row } from '../support/lessons-helpers';
import { type Families, type Guardian, makeFamilies, mark } from '../support/portal-helpers';

const PAST = '2026-11-02';
const FUTURE = '2027-01-11';
const RANGE = 'from=2026-11-01&to=2027-01-01';

describe.each(DATABASE_KINDS)('the families portal on %s', (kind) => {
  let t: TestApp;
  let f: Families;
  let everyGuardian: { g: Guardian; family: Families['a'] }[];

  beforeAll(async () => {
    t = await startApp(kind);
    f = await makeFamilies(t, PAST, FUTURE);
    everyGuardian = [
      ...f.a.guardians.map((g) => ({ g, family: f.a })),
      ...f.b.guardians.map((g) => ({ g, family: f.b })),
      ...f.c.guardians.map((g) => ({ g, family: f.c })),
    ];
  });
  afterAll(async () => t?.close());

  const get = async (call: Call, url: string) => {
    const res = await call('GET', url);
    expect(res.statusCode, `${url}: ${show(res)}`).toBe(200);
    return json(res);
  };
  const childIds = (family: Families['a']) => family.children.map((c) => Number(c.id)).sort((x, y) => x - y);
  /** Every child of the other families, in either centre. */
  const strangers = (family: Families['a']) => [f.a, f.b, f.c].filter((x) => x !== family).flatMap((x) => x.children);
  const strangerReceipts = (family: Families['a']) => [f.a, f.b, f.c].filter((x) => x !== family).flatMap((x) => x.receiptIds);

  it('me: herself and exactly her own children, with their classes', async () => {
    for (const { g, family } of everyGuardian) {
      const me = PortalMeAnswer.parse(await get(g.call, '/api/portal/me')).data;
      expect(me.guardian).toMatchObject({ id: g.row.id, email: g.email, first_name: g.row.first_name, notify: true });
      expect(me.children.map((c) => c.id).sort((x, y) => x - y)).toEqual(childIds(family));
      for (const child of me.children) expect(child.class_names).toHaveLength(1);
    }
  });

  it("home: each child's next lessons and latest homework, nothing of another family", async () => {
    const home = PortalHomeAnswer.parse(await get(f.a.guardians[0]!.call, '/api/portal/home')).data;
    expect(home.map((h) => h.child.id).sort((x, y) => x - y)).toEqual(childIds(f.a));
    const [first, second] = f.a.children;
    const ofFirst = home.find((h) => h.child.id === first!.id)!;
    expect(ofFirst.next_lessons.map((l) => l.id)).toContain(f.a.lessons[1]!.id);
    expect(ofFirst.homework.map((l) => [l.id, l.homework])).toEqual([[f.a.lessons[0]!.id, 'Ασκήσεις 1-5 σελ. 12']]);
    expect(ofFirst.homework[0]).toMatchObject({ date: PAST, start_time: '17:00', end_time: '18:00', status: 'NORMAL' });
    expect(ofFirst.homework[0]!.teacher).toEqual(expect.any(String));
    const ofSecond = home.find((h) => h.child.id === second!.id)!;
    expect(ofSecond.homework.map((l) => l.homework)).toEqual(['Έκθεση']);
    expect(ofSecond.next_lessons).toEqual([]);
    const ofC = PortalHomeAnswer.parse(await get(f.c.guardians[0]!.call, '/api/portal/home')).data;
    expect(ofC.map((h) => h.child.id)).toEqual(childIds(f.c));
    expect(ofC[0]!.homework.map((l) => l.homework)).toEqual(['Του άλλου κέντρου']);
  });

  it("lessons: a child's timetable in a range of at most 62 days; another family's child is not found", async () => {
    const call = f.a.guardians[0]!.call;
    const [first, second] = f.a.children;
    const lessons = PortalLessonsAnswer.parse(await get(call, `/api/portal/children/${first!.id}/lessons?${RANGE}`)).data;
    expect(lessons.map((l) => l.id)).toEqual([f.a.lessons[0]!.id]);
    const later = PortalLessonsAnswer.parse(await get(call, `/api/portal/children/${first!.id}/lessons?from=2027-01-01&to=2027-01-31`)).data;
    expect(later.map((l) => l.id)).toEqual([f.a.lessons[1]!.id]);
    const ofSecond = PortalLessonsAnswer.parse(await get(call, `/api/portal/children/${second!.id}/lessons?${RANGE}`)).data;
    expect(ofSecond.map((l) => l.id)).toEqual([f.a.lessons[2]!.id]);
    // B's guardians see the class's lessons of their own child, never A's second child's.
    for (const g of f.b.guardians) {
      const ofB = PortalLessonsAnswer.parse(await get(g.call, `/api/portal/children/${f.b.children[0]!.id}/lessons?${RANGE}`)).data;
      expect(ofB.map((l) => l.id)).toEqual([f.b.lessons[0]!.id]);
    }
    expectError(await call('GET', `/api/portal/children/${first!.id}/lessons?from=2026-11-01&to=2027-01-03`), 400, 'validation', { to: 'invalid' });
    expectError(await call('GET', `/api/portal/children/${first!.id}/lessons?from=2026-11-10&to=2026-11-01`), 400, 'validation', { to: 'invalid' });
    expect((await call('GET', `/api/portal/children/${first!.id}/lessons?from=2026-13-01&to=2026-12-01`)).statusCode).toBe(400);
    expect((await call('GET', `/api/portal/children/${first!.id}/lessons`)).statusCode).toBe(400);
    for (const { g, family } of everyGuardian) {
      for (const child of strangers(family)) {
        expectError(await g.call('GET', `/api/portal/children/${child.id}/lessons?${RANGE}`), 404, 'not-found');
      }
    }
  });

  it('attendance: her child’s marks, counts and rate; filters by date; another family’s child is not found', async () => {
    const call = f.a.guardians[0]!.call;
    const [first, second] = f.a.children;
    const ofFirst = PortalAttendanceAnswer.parse(await get(call, `/api/portal/children/${first!.id}/attendance`)).data;
    expect(ofFirst).toEqual({
      marks: [{ lesson_id: f.a.lessons[0]!.id, date: PAST, start_time: '17:00', end_time: '18:00', subject: expect.any(String), status: 'ABSENT' }],
      counts: { PRESENT: 0, ABSENT: 1, LATE: 0, EXCUSED: 0 },
      rate: 0,
    });
    const ofSecond = PortalAttendanceAnswer.parse(await get(call, `/api/portal/children/${second!.id}/attendance?from=2026-11-01&to=2026-11-30`)).data;
    expect(ofSecond.counts).toEqual({ PRESENT: 0, ABSENT: 0, LATE: 1, EXCUSED: 0 });
    expect(ofSecond.rate).toBe(1);
    const none = PortalAttendanceAnswer.parse(await get(call, `/api/portal/children/${second!.id}/attendance?from=2026-12-01&to=2026-12-31`)).data;
    expect(none).toEqual({ marks: [], counts: { PRESENT: 0, ABSENT: 0, LATE: 0, EXCUSED: 0 }, rate: null });
    for (const g of f.b.guardians) {
      const ofB = PortalAttendanceAnswer.parse(await get(g.call, `/api/portal/children/${f.b.children[0]!.id}/attendance`)).data;
      expect(ofB.marks.map((m) => m.status)).toEqual(['PRESENT']);
    }
    for (const { g, family } of everyGuardian) {
      for (const child of strangers(family)) expectError(await g.call('GET', `/api/portal/children/${child.id}/attendance`), 404, 'not-found');
    }
  });

  it("contracts: her child's, month by month with what is due, paid and left", async () => {
    const call = f.a.guardians[0]!.call;
    const [first] = f.a.children;
    const contracts = PortalContractsAnswer.parse(await get(call, `/api/portal/children/${first!.id}/contracts`)).data;
    expect(contracts.map((c) => c.id)).toEqual([f.a.contracts[0]!.id]);
    const [contract] = contracts;
    expect(contract).toMatchObject({
      start_date: '2026-09-01',
      end_date: '2027-06-30',
      status: 'ACTIVE',
      register_cost: 5000,
      month_cost: 12000,
      total_paid: 12000,
    });
    expect(contract!.lines[0]).toEqual({ kind: 'REGISTER', month: '2026-09', owed: 5000, paid: 0, left: 5000 });
    expect(contract!.lines.find((l) => l.kind === 'MONTHLY' && l.month === '2026-09')).toEqual({
      kind: 'MONTHLY',
      month: '2026-09',
      owed: 12000,
      paid: 12000,
      left: 0,
    });
    expect(contract!.total_cost).toBe(5000 + 10 * 12000);
    expect(contract!.rest).toBe(contract!.total_cost - 12000);
    for (const { g, family } of everyGuardian) {
      for (const child of strangers(family)) expectError(await g.call('GET', `/api/portal/children/${child.id}/contracts`), 404, 'not-found');
    }
  });

  it("receipts: her children's (or one child's), printable; another family's receipt and its PDF are not found", async () => {
    for (const { g, family } of everyGuardian) {
      const receipts = PortalReceiptsAnswer.parse(await get(g.call, '/api/portal/receipts')).data;
      expect(receipts.map((r) => r.id).sort((x, y) => x - y)).toEqual([...family.receiptIds].sort((x, y) => x - y));
      for (const r of receipts) {
        expect(family.children.map((c) => c.id)).toContain(r.student_id);
        expect(r).toMatchObject({ kind: 'RECEIPT', amount: 12000 });
        expect(r.description).toMatch(/Δίδακτρα/);
      }
      for (const id of strangerReceipts(family)) expectError(await g.call('GET', `/api/portal/receipts/${id}/pdf`), 404, 'not-found');
      for (const child of strangers(family)) expectError(await g.call('GET', `/api/portal/receipts?student_id=${child.id}`), 404, 'not-found');
      const pdf = await g.call('GET', `/api/portal/receipts/${family.receiptIds[0]}/pdf`);
      expect(pdf.statusCode, show(pdf)).toBe(200);
      expect(pdf.headers['content-type']).toMatch(/application\/pdf/);
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    }
    const [, second] = f.a.children;
    const one = PortalReceiptsAnswer.parse(await get(f.a.guardians[0]!.call, `/api/portal/receipts?student_id=${second!.id}`)).data;
    expect(one.map((r) => r.id)).toEqual([f.a.receiptIds[1]]);
  });

  it('PATCH me: her own contact details only, validated, versioned and in the history as her', async () => {
    const [gB1, gB2] = f.b.guardians;
    const me = PortalMeAnswer.parse(await get(gB1!.call, '/api/portal/me')).data.guardian;
    const before2 = ok(await f.world.admin('GET', `/api/guardians/${gB2!.row.id}`));

    expectError(await gB1!.call('PATCH', '/api/portal/me', { version: me.version, first_name: 'Άλλο' }), 400, 'validation');
    expectError(await gB1!.call('PATCH', '/api/portal/me', { version: me.version, email: 'x@example.gr' }), 400, 'validation');
    expectError(await gB1!.call('PATCH', '/api/portal/me', { version: me.version, phone: 'όχι τηλέφωνο' }), 400, 'validation', { phone: expect.any(String) });
    expectError(await gB1!.call('PATCH', '/api/portal/me', { phone: '2100000000' }), 400, 'validation', { version: expect.any(String) });
    expectError(await gB1!.call('PATCH', '/api/portal/me', { version: me.version + 5, city: 'Λάρισα' }), 409, 'stale');

    const res = await gB1!.call('PATCH', '/api/portal/me', { version: me.version, phone: '+30 6971234567', city: 'Πάτρα', notify: false });
    const after = PortalMeAnswer.parse(json(res)).data;
    expect(res.statusCode, show(res)).toBe(200);
    expect(after.guardian).toMatchObject({ id: gB1!.row.id, phone: '+30 6971234567', city: 'Πάτρα', notify: false, version: me.version + 1 });
    expect(after.children.map((c) => c.id)).toEqual(childIds(f.b));
    // The same version again is stale now.
    expectError(await gB1!.call('PATCH', '/api/portal/me', { version: me.version, city: 'Βόλος' }), 409, 'stale');

    // The other guardian of the same child is untouched; the office sees the change, and who made it.
    expect(ok(await f.world.admin('GET', `/api/guardians/${gB2!.row.id}`))).toEqual(before2);
    const seen = ok(await f.world.admin('GET', `/api/guardians/${gB1!.row.id}`));
    expect(seen).toMatchObject({ phone: '+30 6971234567', city: 'Πάτρα', notify: false });
    const found = ok(await f.world.admin('GET', `/api/guardians?q=6971234567`));
    expect(found.map((r: Row) => r.id)).toEqual([gB1!.row.id]);
    const entries = await historyOf(f.world.admin, 'guardians', gB1!.row.id);
    const mine = entries.find((e) => e.action === 'update');
    expect(mine, JSON.stringify(entries)).toBeDefined();
    expect(mine!.user_id).toBe(gB1!.userId);
    expect(JSON.stringify(mine!.changes)).toContain('Πάτρα');
  });

  it('PATCH me writes as the office does: every searchable field stays found, and the history holds the whole change', async () => {
    const gB2 = f.b.guardians[1]!;
    const TAX_ID = '133333336';
    const set = ok(await f.world.admin('GET', `/api/guardians/${gB2.row.id}`));
    ok(await f.world.admin('PATCH', `/api/guardians/${gB2.row.id}`, { tax_id: TAX_ID, version: set.version }));
    const me = PortalMeAnswer.parse(await get(gB2.call, '/api/portal/me')).data.guardian;
    const res = await gB2.call('PATCH', '/api/portal/me', { version: me.version, phone: '+30 6970001122', city: '' });
    expect(res.statusCode, show(res)).toBe(200);
    expect(PortalMeAnswer.parse(json(res)).data.guardian).toMatchObject({ phone: '+30 6970001122', city: null, version: me.version + 1 });
    // The search text is the office's, of the whole row: her tax number, which the portal never shows her, is still found.
    const found = async (q: string) => (ok(await f.world.admin('GET', `/api/guardians?q=${encodeURIComponent(q)}`)) as Row[]).map((r) => r.id);
    expect(await found(TAX_ID)).toEqual([gB2.row.id]);
    expect(await found('6970001122')).toEqual([gB2.row.id]);
    expect(await found(gB2.row.last_name as string)).toContain(gB2.row.id);
    const entries = await historyOf(f.world.admin, 'guardians', gB2.row.id);
    const hers = entries.find((e) => e.action === 'update' && e.user_id === gB2.userId);
    expect(hers, JSON.stringify(entries)).toBeDefined();
    expect(JSON.stringify(hers!.changes)).toContain('6970001122');
  });

  it('notifications: her own only, the absence of her own child and the receipts issued to her', async () => {
    const inbox = async (g: Guardian) => (await get(g.call, '/api/notifications?_end=50')).data as Row[];
    const [a1] = f.a.children;
    const ofA = await inbox(f.a.guardians[0]!);
    expect(ofA.filter((n) => n.kind === 'child-absent')).toEqual([
      expect.objectContaining({ title: 'Απουσία', link: `/portal/attendance?child=${a1!.id}`, read: false }),
    ]);
    expect(ofA.find((n) => n.kind === 'child-absent')!.body).toContain('Άννα Αλεξίου');
    expect(ofA.filter((n) => n.kind === 'receipt-issued')).toHaveLength(2);
    expect(ofA.every((n) => ['child-absent', 'receipt-issued'].includes(n.kind))).toBe(true);
    // B's child was present; the receipt names B's first guardian as payer, so only she hears of it.
    const [gB1, gB2] = f.b.guardians;
    expect((await inbox(gB1!)).map((n) => n.kind)).toEqual(['receipt-issued']);
    expect(await inbox(gB2!)).toEqual([]);
    const ofC = await inbox(f.c.guardians[0]!);
    expect(ofC.map((n) => n.kind).sort()).toEqual(['child-absent', 'receipt-issued']);
    // Another guardian's notification cannot be marked read.
    const someoneElses = ofA[0]!;
    expect((await gB1!.call('POST', `/api/notifications/${someoneElses.id}/read`)).statusCode).toBe(404);
  });

  it('a reminder of unpaid months rings her bell too; an absence corrected leaves it', async () => {
    const inbox = async (g: Guardian) => (await get(g.call, '/api/notifications?_end=50')).data as Row[];
    await runReminderJob(t.database, { today: '2026-11-26' });
    const [a1, a2] = f.a.children;
    const gA = f.a.guardians[0]!;
    const dues = (await inbox(gA)).filter((n) => n.kind === 'fees-due');
    // one reminder for the family, as her e-mail: both children, the months due, the family's total
    expect(dues).toHaveLength(1);
    expect([`/portal/contracts?child=${a1!.id}`, `/portal/contracts?child=${a2!.id}`]).toContain(dues[0]!.link);
    expect(dues[0]!.body).toContain(`${a1!.first_name} ${a1!.last_name}`);
    expect(dues[0]!.body).toContain(`${a2!.first_name} ${a2!.last_name}`);
    expect(dues[0]!.body).toMatch(/10\/2026.*11\/2026/);
    const [gB1, gB2] = f.b.guardians;
    // B's payer turned her notices off above: neither the e-mail nor the bell.
    expect((await inbox(gB1!)).filter((n) => n.kind === 'fees-due')).toEqual([]);
    expect(await inbox(gB2!)).toEqual([]);

    await mark(f.world, f.a.lessons[0]!.id, [{ student_id: a1!.id, status: 'PRESENT' }]);
    expect((await inbox(gA)).filter((n) => n.kind === 'child-absent')).toEqual([]);
  });

  it('staff endpoints answer a guardian 403', async () => {
    const call = f.a.guardians[0]!.call;
    for (const url of ['/api/students', '/api/guardians', `/api/receipts/${f.a.receiptIds[0]}/pdf`, '/api/attendance']) {
      expectError(await call('GET', url), 403, 'forbidden');
    }
  });
});
