// Shared setup of the portal tests: two families with siblings in one centre and a third family
// in another centre, written through the staff API (lessons with homework, attendance marks,
// contracts, payments with their receipts), and each guardian's portal sign-in made directly
// (a users row with role GUARDIAN and her e-mail address as username, hashed by the server's
// own password code, and its guardian_users link): real rows, nothing mocked.
import { sql } from 'drizzle-orm';
import { hashPassword } from '../../../server/modules/auth/passwords';
import { withTenant } from '../../../server/db/doors';
import { queryRows } from '../../../server/db/statements';
import type { TestApp } from './harness';
import { callerOf, created, fresh, lessonBody, makeLesson, makeWorld, ok, type Call, type Row, type World } from './lessons-helpers';

export const GUARDIAN_PASSWORD = 'guardian-password-1';

export interface Guardian {
  row: Row;
  email: string;
  userId: number;
  token: string;
  call: Call;
}

export interface Family {
  children: Row[];
  guardians: Guardian[];
  lessons: Row[];
  contracts: Row[];
  receiptIds: number[];
}

export interface Families {
  world: World;
  other: World;
  tenantId: number;
  otherTenantId: number;
  /** Two children, one guardian. */
  a: Family;
  /** One child (in the same class as A's first), two guardians. */
  b: Family;
  /** Another centre: one child, one guardian. */
  c: Family;
}

const tenantIdOf = async (t: TestApp, slug: string) =>
  (await queryRows<{ id: number }>(t.database.db, sql`select id from tenants where slug = ${slug}`))[0]!.id;

/** A guardian's portal sign-in, made directly; answers her user id. */
export async function addSignIn(t: TestApp, tenantId: number, guardian: Row): Promise<number> {
  const passwordHash = await hashPassword(GUARDIAN_PASSWORD);
  return withTenant(t.database, tenantId, async (tx) => {
    const [user] = await queryRows<{ id: number }>(
      tx,
      sql`insert into users (tenant_id, username, password_hash, role, first_name, last_name, email)
          values (${tenantId}, ${String(guardian.email).toLowerCase()}, ${passwordHash}, 'GUARDIAN', ${guardian.first_name}, ${guardian.last_name}, ${guardian.email})
          returning id`,
    );
    await tx.execute(sql`insert into guardian_users (tenant_id, guardian_id, user_id) values (${tenantId}, ${guardian.id}, ${user!.id})`);
    return Number(user!.id);
  });
}

async function guardianOf(t: TestApp, w: World, tenantId: number, first: string, last: string, studentIds: number[]): Promise<Guardian> {
  const email = `${fresh('parent')}@example.gr`;
  const row = created(
    await w.admin('POST', '/api/guardians', {
      first_name: first,
      last_name: last,
      relation: 'MOTHER',
      email,
      phone: '2101234567',
      notify: true,
      student_ids: studentIds,
    }),
    'guardian',
  );
  const userId = await addSignIn(t, tenantId, row);
  const token = (await t.signIn(email, GUARDIAN_PASSWORD, w.tenant)).token;
  return { row, email, userId, token, call: callerOf(t, token, w.tenant) };
}

/** A contract of the student and one paid month with its receipt; answers both. */
async function contractWithReceipt(w: World, studentId: number, payerId: number | null, month: string) {
  const contract = created(
    await w.admin('POST', '/api/contracts', {
      student_id: studentId,
      start_date: '2026-09-01',
      end_date: '2027-06-30',
      register_cost: 5000,
      month_cost: 12000,
      with_receipt: true,
      payer_guardian_id: payerId,
    }),
    'contract',
  );
  const payment = created(
    await w.admin('POST', '/api/payments', { contract_id: contract.id, kind: 'MONTHLY', month, amount: 12000, method: 'CASH', paid_on: `${month}-05` }),
    'payment',
  );
  return { contract, receiptId: Number(payment.receipt_id) };
}

/** Marks on a lesson, as its centre's ADMIN. */
export const mark = async (w: World, lessonId: number, marks: { student_id: number; status: string }[]) =>
  ok(await w.admin('PUT' as 'PATCH', `/api/lessons/${lessonId}/attendance`, { marks }), 'marks');

export async function makeFamilies(t: TestApp, past: string, future: string): Promise<Families> {
  const world = await makeWorld(t, { teachers: 1, classes: 2, subjects: 1, rooms: 1 });
  const otherSlug = fresh('portalc');
  const other = await makeWorld(t, { tenant: otherSlug, teachers: 1, classes: 1, subjects: 1, rooms: 1 });
  const tenantId = await tenantIdOf(t, 'demo');
  const otherTenantId = await tenantIdOf(t, otherSlug);
  const student = async (w: World, first: string, last: string, classId: number) =>
    created(await w.admin('POST', '/api/students', { first_name: first, last_name: last, class_ids: [classId] }), 'student');

  const [class0, class1] = [world.classes[0]!.id, world.classes[1]!.id];
  const a1 = await student(world, 'Άννα', 'Αλεξίου', class0);
  const a2 = await student(world, 'Άρης', 'Αλεξίου', class1);
  const b1 = await student(world, 'Βασίλης', 'Βλάχος', class0);
  const c1 = await student(other, 'Γιώργος', 'Γεωργίου', other.classes[0]!.id);

  const gA = await guardianOf(t, world, tenantId, 'Αθηνά', 'Αλεξίου', [a1.id, a2.id]);
  const gB1 = await guardianOf(t, world, tenantId, 'Βάσω', 'Βλάχου', [b1.id]);
  const gB2 = await guardianOf(t, world, tenantId, 'Βύρων', 'Βλάχος', [b1.id]);
  const gC = await guardianOf(t, other, otherTenantId, 'Γεωργία', 'Γεωργίου', [c1.id]);

  // Class 0 (A's first child and B's child): a past lesson with homework and a future one;
  // class 1 (A's second child): a past lesson; the other centre: one of each.
  const l0 = await makeLesson(world.admin, lessonBody(world, past, { class_id: class0, homework: 'Ασκήσεις 1-5 σελ. 12' }));
  const l0next = await makeLesson(world.admin, lessonBody(world, future, { class_id: class0, start_time: '16:00', end_time: '17:00' }));
  const l1 = await makeLesson(world.admin, lessonBody(world, past, { class_id: class1, start_time: '18:00', end_time: '19:00', homework: 'Έκθεση' }));
  const lc = await makeLesson(other.admin, lessonBody(other, past, { homework: 'Του άλλου κέντρου' }));
  const lcNext = await makeLesson(other.admin, lessonBody(other, future));

  await mark(world, l0.id, [
    { student_id: a1.id, status: 'ABSENT' },
    { student_id: b1.id, status: 'PRESENT' },
  ]);
  await mark(world, l1.id, [{ student_id: a2.id, status: 'LATE' }]);
  await mark(other, lc.id, [{ student_id: c1.id, status: 'ABSENT' }]);

  const ka1 = await contractWithReceipt(world, a1.id, gA.row.id, '2026-09');
  const ka2 = await contractWithReceipt(world, a2.id, gA.row.id, '2026-10');
  const kb1 = await contractWithReceipt(world, b1.id, gB1.row.id, '2026-09');
  const kc1 = await contractWithReceipt(other, c1.id, gC.row.id, '2026-09');

  return {
    world,
    other,
    tenantId,
    otherTenantId,
    a: { children: [a1, a2], guardians: [gA], lessons: [l0, l0next, l1], contracts: [ka1.contract, ka2.contract], receiptIds: [ka1.receiptId, ka2.receiptId] },
    b: { children: [b1], guardians: [gB1, gB2], lessons: [l0, l0next], contracts: [kb1.contract], receiptIds: [kb1.receiptId] },
    c: { children: [c1], guardians: [gC], lessons: [lc, lcNext], contracts: [kc1.contract], receiptIds: [kc1.receiptId] },
  };
}
