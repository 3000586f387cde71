// The wall between families in the database alone: the server's own narrowing bypassed, a plain
// `select *` run as the guardian's database role (frontis_guardian, with app.tenant_id and
// app.guardian_id set as withFamily() sets them) returns only her own family's rows, tables
// outside the portal are refused, and without app.guardian_id nothing is returned. Both engines.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { type Families, makeFamilies } from '../support/portal-helpers';
import type { Tx } from '../../../server/db/types';
import { withPlatform } from '../../../server/db/doors';
import { queryRows } from '../../../server/db/statements';

type Row = Record<string, unknown>;

describe.each(DATABASE_KINDS)('the families wall in the database on %s', (kind) => {
  let t: TestApp;
  let f: Families;

  beforeAll(async () => {
    t = await startApp(kind);
    f = await makeFamilies(t, '2026-11-02', '2027-01-11');
  });
  afterAll(async () => t?.close());

  /** Runs `fn` as the guardian's role with these settings, directly on the database (rolled back). */
  async function asRole<T>(settings: { tenant?: number; guardian?: number }, fn: (tx: Tx) => Promise<T>): Promise<T> {
    let out: T | undefined;
    await withPlatform(t.database, async (tx) => {
      await tx.execute(sql`select set_config('role', 'frontis_guardian', true)`);
      if (settings.tenant !== undefined) await tx.execute(sql`select set_config('app.tenant_id', ${String(settings.tenant)}, true)`);
      if (settings.guardian !== undefined) await tx.execute(sql`select set_config('app.guardian_id', ${String(settings.guardian)}, true)`);
      out = await fn(tx);
    });
    return out as T;
  }
  /** Every column she may read: all of them, but a lesson's staff notes (refused below). */
  const READABLE: Record<string, string> = {
    lessons: 'tenant_id, id, date, start_time, end_time, class_id, subject_id, teacher_id, room_id, homework, status',
  };
  const all = (tx: Tx, table: string) => queryRows<Row>(tx, sql.raw(`select ${READABLE[table] ?? '*'} from ${table}`));
  const ids = (rows: Row[], key = 'id') => rows.map((r) => Number(r[key])).sort((x, y) => x - y);
  const sorted = (list: number[]) => [...list].sort((x, y) => x - y);
  /** The database's own refusal (drizzle wraps it: the cause says why). */
  const refusal = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => undefined,
      (e: unknown) => e as Error & { cause?: Error },
    );
    return String(error?.cause?.message ?? error?.message ?? 'allowed');
  };

  it('a guardian sees only her own children and what hangs off them, whatever the query forgets', async () => {
    const gA = f.a.guardians[0]!.row.id;
    const seen = await asRole({ tenant: f.tenantId, guardian: gA }, async (tx) => ({
      students: await all(tx, 'students'),
      guardians: await all(tx, 'guardians'),
      links: await all(tx, 'student_guardians'),
      contracts: await all(tx, 'contracts'),
      payments: await all(tx, 'payments'),
      receipts: await all(tx, 'receipts'),
      attendance: await all(tx, 'attendance'),
      lessons: await all(tx, 'lessons'),
      users: await queryRows<Row>(tx, sql`select id, username, role from users`),
      subjects: await queryRows<Row>(tx, sql`select id, name from subjects`),
    }));
    expect(ids(seen.students)).toEqual(sorted(f.a.children.map((c) => c.id)));
    expect(ids(seen.guardians)).toEqual([gA]);
    expect(ids(seen.links, 'student_id')).toEqual(sorted(f.a.children.map((c) => c.id)));
    expect(ids(seen.contracts)).toEqual(sorted(f.a.contracts.map((c) => c.id)));
    expect(seen.payments.every((p) => f.a.contracts.some((c) => c.id === Number(p.contract_id)))).toBe(true);
    expect(seen.payments).toHaveLength(2);
    expect(ids(seen.receipts)).toEqual(sorted(f.a.receiptIds));
    // Her children's marks only: B's child was marked in the same lesson, and is not here.
    expect(seen.attendance.map((a) => Number(a.student_id)).sort()).toEqual(sorted(f.a.children.map((c) => c.id)));
    expect(ids(seen.lessons)).toEqual(sorted(f.a.lessons.map((l) => l.id)));
    expect(seen.users).toEqual([{ id: f.a.guardians[0]!.userId, username: f.a.guardians[0]!.email, role: 'GUARDIAN' }]);
    expect(seen.subjects).toHaveLength(1);
  });

  it('each of two guardians of one child sees the child, and only her own guardian row', async () => {
    for (const g of f.b.guardians) {
      const seen = await asRole({ tenant: f.tenantId, guardian: g.row.id }, async (tx) => ({
        students: await all(tx, 'students'),
        guardians: await all(tx, 'guardians'),
        receipts: await all(tx, 'receipts'),
        attendance: await all(tx, 'attendance'),
      }));
      expect(ids(seen.students)).toEqual([f.b.children[0]!.id]);
      expect(ids(seen.guardians)).toEqual([g.row.id]);
      expect(ids(seen.receipts)).toEqual(f.b.receiptIds);
      expect(seen.attendance.map((a) => a.status)).toEqual(['PRESENT']);
    }
  });

  it("a guardian id of another centre under this centre's id sees nothing at all", async () => {
    const seen = await asRole({ tenant: f.tenantId, guardian: f.c.guardians[0]!.row.id }, async (tx) => ({
      students: await all(tx, 'students'),
      lessons: await all(tx, 'lessons'),
      receipts: await all(tx, 'receipts'),
    }));
    expect(seen).toEqual({ students: [], lessons: [], receipts: [] });
  });

  it('without app.guardian_id nothing is returned', async () => {
    const seen = await asRole({ tenant: f.tenantId }, async (tx) => {
      const out: Record<string, number> = {};
      for (const table of ['students', 'guardians', 'contracts', 'payments', 'receipts', 'attendance', 'lessons', 'student_guardians']) {
        out[table] = (await all(tx, table)).length;
      }
      return out;
    });
    expect(
      Object.values(seen).every((n) => n === 0),
      JSON.stringify(seen),
    ).toBe(true);
  });

  it('tables outside the portal, and columns she has no need of, are refused', async () => {
    const gA = f.a.guardians[0]!.row.id;
    for (const query of [
      'select * from outbox',
      'select * from notifications',
      'select * from sessions',
      'select * from expenses',
      'select * from notes',
      'select * from history',
      'select * from portal_invitations',
      'select * from tenants',
      'select password_hash from users',
      'select email from teachers',
      'select notes from lessons',
      'select * from subjects',
    ]) {
      expect(await refusal(asRole({ tenant: f.tenantId, guardian: gA }, (tx) => queryRows<Row>(tx, sql.raw(query)))), query).toMatch(/permission denied/);
    }
  });

  it("she may change only her own row's contact details", async () => {
    const gA = f.a.guardians[0]!.row.id;
    const gB = f.b.guardians[0]!.row.id;
    const changed = await asRole({ tenant: f.tenantId, guardian: gA }, async (tx) => ({
      all: await queryRows<Row>(tx, sql`update guardians set city = 'Πάτρα' returning id`),
    }));
    expect(ids(changed.all)).toEqual([gA]);
    expect(
      await refusal(asRole({ tenant: f.tenantId, guardian: gA }, (tx) => tx.execute(sql`update guardians set first_name = 'Άλλη' where id = ${gA}`))),
    ).toMatch(/permission denied/);
    expect(await refusal(asRole({ tenant: f.tenantId, guardian: gA }, (tx) => tx.execute(sql`update students set first_name = 'Άλλη'`)))).toMatch(
      /permission denied/,
    );
    const other = await asRole({ tenant: f.tenantId, guardian: gA }, (tx) =>
      queryRows<Row>(tx, sql`update guardians set city = 'Πάτρα' where id = ${gB} returning id`),
    );
    expect(other).toEqual([]);
  });
});
