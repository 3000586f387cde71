/**
 * What a guardian reads in the portal, always inside withFamily(): the database shows her only
 * her own family (family-policies.ts), and every query here narrows to her children anyway, so
 * either wall alone keeps another family out. A child, receipt or lesson that is not hers is
 * simply not found.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  attendanceRate,
  contractFigures,
  contractLines,
  DomainError,
  type NotifyBy,
  unreachable,
  type PortalAttendanceAnswer,
  type PortalChildSchema,
  type PortalContractSchema,
  type PortalGuardianSchema,
  type PortalLessonSchema,
  type PortalMarkSchema,
  type PortalReceiptSchema,
} from '../../../domain/index';
import type { Tx } from '../../db/types';
import { queryRows } from '../../db/statements';
import { leftBy } from '../contracts/enrolment';
import { contractPayments, termsOf } from '../contracts/spec';

type Child = z.infer<typeof PortalChildSchema>;
type Lesson = z.infer<typeof PortalLessonSchema>;
type Mark = z.infer<typeof PortalMarkSchema>;
type Contract = z.infer<typeof PortalContractSchema>;
type Receipt = z.infer<typeof PortalReceiptSchema>;
type Guardian = z.infer<typeof PortalGuardianSchema>;
type Attendance = z.infer<typeof PortalAttendanceAnswer>['data'];

/** Whose request it is: her centre, her guardian id and the centre's time zone. */
export interface Family {
  tenantId: number;
  guardianId: number;
  timeZone: string;
}

/** Her children's ids, as SQL (the server's own narrowing, beside the database's). */
const childrenOf = (f: Family) => sql`(select sg.student_id from student_guardians sg where sg.tenant_id = ${f.tenantId} and sg.guardian_id = ${f.guardianId})`;

/**
 * The centre's date: its time zone's today, or the date the server pretends (frontis.today).
 * Written here rather than through centre_today(), which reads the tenants table she has no
 * grant on.
 */
export const centreToday = (f: Family) => sql`coalesce(nullif(current_setting('frontis.today', true), '')::date, (now() at time zone ${f.timeZone})::date)`;

export async function guardianOf(tx: Tx, f: Family): Promise<Guardian & { notify: boolean; notify_by: NotifyBy; unreachable: boolean }> {
  const [row] = await queryRows<Record<string, unknown>>(
    tx,
    sql`select id, version, first_name, last_name, relation, email, phone, address, city, postal_code, notify, notify_by
        from guardians where tenant_id = ${f.tenantId} and id = ${f.guardianId}`,
  );
  if (!row) throw new DomainError('not-found');
  return {
    id: Number(row.id),
    version: Number(row.version),
    first_name: String(row.first_name),
    last_name: String(row.last_name),
    relation: row.relation as Guardian['relation'],
    email: (row.email as string | null) ?? null,
    phone: (row.phone as string | null) ?? null,
    address: (row.address as string | null) ?? null,
    city: (row.city as string | null) ?? null,
    postal_code: (row.postal_code as string | null) ?? null,
    notify: row.notify === true,
    notify_by: (row.notify_by ?? 'BOTH') as NotifyBy,
    unreachable: unreachable({ notify_by: String(row.notify_by), email: row.email as string | null, phone: row.phone as string | null }),
  };
}

/** Her children, by first name, each with the names of her classes. */
export async function childrenList(tx: Tx, f: Family, only?: number): Promise<Child[]> {
  const rows = await queryRows<{ id: number; first_name: string; last_name: string; class_names: string[] | null }>(
    tx,
    sql`select s.id, s.first_name, s.last_name,
               array(select c.name from class_students cs join classes c on c.tenant_id = cs.tenant_id and c.id = cs.class_id
                     where cs.tenant_id = s.tenant_id and cs.student_id = s.id order by c.name) as class_names
        from students s
        where s.tenant_id = ${f.tenantId} and s.id in ${childrenOf(f)}${only === undefined ? sql`` : sql` and s.id = ${only}`}
        order by s.first_name, s.last_name, s.id`,
  );
  return rows.map((r) => ({ id: Number(r.id), first_name: r.first_name, last_name: r.last_name, class_names: r.class_names ?? [] }));
}

/** One of her children; any other id is not found. */
export async function childOf(tx: Tx, f: Family, id: number): Promise<Child> {
  const [child] = await childrenList(tx, f, id);
  if (!child) throw new DomainError('not-found');
  return child;
}

/**
 * A child's lessons: those of her classes (up to the day she left the centre, docs/rules.md,
 * Contracts) and any she was marked in.
 */
const lessonsOfChild = (f: Family, childId: number) =>
  sql`l.tenant_id = ${f.tenantId} and (
        (l.class_id in (select cs.class_id from class_students cs where cs.tenant_id = ${f.tenantId} and cs.student_id = ${childId})
          and not ${leftBy(f.tenantId, childId, sql`l.date`)})
        or l.id in (select a.lesson_id from attendance a where a.tenant_id = ${f.tenantId} and a.student_id = ${childId}))
      and ${childId} in ${childrenOf(f)}`;

const LESSON_COLUMNS = sql`l.id, to_char(l.date, 'YYYY-MM-DD') as date, to_char(l.start_time, 'HH24:MI') as start_time, to_char(l.end_time, 'HH24:MI') as end_time,
  l.status, sb.name as subject, c.name as class_name, nullif(trim(t.first_name || ' ' || t.last_name), '') as teacher, r.name as room, l.homework`;
const LESSON_JOINS = sql`from lessons l
  left join subjects sb on sb.tenant_id = l.tenant_id and sb.id = l.subject_id
  left join classes c on c.tenant_id = l.tenant_id and c.id = l.class_id
  left join teachers t on t.tenant_id = l.tenant_id and t.id = l.teacher_id
  left join rooms r on r.tenant_id = l.tenant_id and r.id = l.room_id`;

const lessonOf = (r: Record<string, unknown>): Lesson => ({
  id: Number(r.id),
  date: String(r.date),
  start_time: String(r.start_time),
  end_time: String(r.end_time),
  status: r.status as Lesson['status'],
  subject: (r.subject as string | null) ?? null,
  class_name: (r.class_name as string | null) ?? null,
  teacher: (r.teacher as string | null) ?? null,
  room: (r.room as string | null) ?? null,
  homework: (r.homework as string | null) ?? null,
});

async function lessonRows(tx: Tx, f: Family, childId: number, where: SQL, order: SQL, limit?: number): Promise<Lesson[]> {
  const rows = await queryRows<Record<string, unknown>>(
    tx,
    sql`select ${LESSON_COLUMNS} ${LESSON_JOINS} where ${lessonsOfChild(f, childId)} and ${where} order by ${order}${limit === undefined ? sql`` : sql` limit ${limit}`}`,
  );
  return rows.map(lessonOf);
}

/** A child's lessons from `from` to `to` (dates), by date and time. */
export const childLessons = (tx: Tx, f: Family, childId: number, from: string, to: string) =>
  lessonRows(tx, f, childId, sql`l.date between ${from}::date and ${to}::date`, sql`l.date, l.start_time, l.id`);

/** A child's next lessons (up to 5, from now) and latest homework (up to 5, newest first). */
export async function childHome(tx: Tx, f: Family, child: Child) {
  const today = centreToday(f);
  const now = sql`(now() at time zone ${f.timeZone})::time`;
  const [next_lessons, homework] = await Promise.all([
    lessonRows(
      tx,
      f,
      child.id,
      sql`(l.date > ${today} or (l.date = ${today} and l.end_time > ${now})) and l.status <> 'CANCELED'`,
      sql`l.date, l.start_time, l.id`,
      5,
    ),
    lessonRows(tx, f, child.id, sql`coalesce(trim(l.homework), '') <> '' and l.date <= ${today}`, sql`l.date desc, l.start_time desc, l.id desc`, 5),
  ]);
  return { child, next_lessons, homework };
}

/** A child's marks (newest first), the count of each status and the rate (present or late over all). */
export async function childAttendance(tx: Tx, f: Family, childId: number, from?: string, to?: string): Promise<Attendance> {
  const rows = await queryRows<Record<string, unknown>>(
    tx,
    sql`select a.lesson_id, to_char(l.date, 'YYYY-MM-DD') as date, to_char(l.start_time, 'HH24:MI') as start_time, to_char(l.end_time, 'HH24:MI') as end_time,
               sb.name as subject, a.status
        from attendance a
        join lessons l on l.tenant_id = a.tenant_id and l.id = a.lesson_id
        left join subjects sb on sb.tenant_id = l.tenant_id and sb.id = l.subject_id
        where a.tenant_id = ${f.tenantId} and a.student_id = ${childId} and a.student_id in ${childrenOf(f)}
          ${from ? sql`and l.date >= ${from}::date` : sql``} ${to ? sql`and l.date <= ${to}::date` : sql``}
        order by l.date desc, l.start_time desc, a.lesson_id desc`,
  );
  const marks: Mark[] = rows.map((r) => ({
    lesson_id: Number(r.lesson_id),
    date: String(r.date),
    start_time: String(r.start_time),
    end_time: String(r.end_time),
    subject: (r.subject as string | null) ?? null,
    status: r.status as Mark['status'],
  }));
  const counts = { PRESENT: 0, ABSENT: 0, LATE: 0, EXCUSED: 0 };
  for (const m of marks) counts[m.status]++;
  return { marks, counts, rate: attendanceRate(counts) };
}

/** A child's contracts (newest first), month by month: what is due, paid and left. */
export async function childContracts(tx: Tx, f: Family, childId: number): Promise<Contract[]> {
  const rows = await queryRows<Record<string, unknown>>(
    tx,
    sql`select k.id, cc.name as category, to_char(k.start_date, 'YYYY-MM-DD') as start_date, to_char(k.end_date, 'YYYY-MM-DD') as end_date,
               case when k.status = 'ACTIVE' and k.end_date < ${centreToday(f)} then 'COMPLETED' else k.status end as status,
               k.register_cost, k.month_cost, k.discount_percent, k.with_receipt, to_char(k.withdrawn_on, 'YYYY-MM-DD') as withdrawn_on,
               k.status as stored_status
        from contracts k
        left join contract_categories cc on cc.tenant_id = k.tenant_id and cc.id = k.category_id
        where k.tenant_id = ${f.tenantId} and k.student_id = ${childId} and k.student_id in ${childrenOf(f)}
        order by k.start_date desc, k.id desc`,
  );
  const payments = await Promise.all(rows.map((r) => contractPayments(tx, f.tenantId, Number(r.id))));
  return rows.map((r, i) => {
    const terms = termsOf({ ...r, status: r.stored_status });
    const paid = payments[i]!;
    const figures = contractFigures(terms, paid);
    return {
      id: Number(r.id),
      category: (r.category as string | null) ?? null,
      start_date: String(r.start_date),
      end_date: String(r.end_date),
      status: r.status as Contract['status'],
      register_cost: Number(r.register_cost),
      month_cost: Number(r.month_cost),
      discount_percent: Number(r.discount_percent),
      lines: contractLines(terms, paid),
      total_cost: figures.total_cost,
      total_paid: figures.total_paid,
      rest: figures.rest,
      credit: figures.credit,
      refunded: figures.refunded,
    };
  });
}

/** The child a receipt is for (through the payments it acknowledges), as SQL over receipts `r`. */
const receiptChild = sql`(select k.student_id from receipt_payments rp
  join payments p on p.tenant_id = rp.tenant_id and p.id = rp.payment_id
  join contracts k on k.tenant_id = p.tenant_id and k.id = p.contract_id
  where rp.tenant_id = r.tenant_id and rp.receipt_id = r.id order by rp.payment_id limit 1)`;

/** Her children's receipts (or one child's, or one receipt), newest first. */
export async function familyReceipts(tx: Tx, f: Family, filter: { childId?: number; id?: number } = {}): Promise<Receipt[]> {
  const rows = await queryRows<Record<string, unknown>>(
    tx,
    sql`select * from (
          select r.id, ${receiptChild} as student_id, r.series, r.number, to_char(r.issued_on, 'YYYY-MM-DD') as issued_on, r.kind, r.status, r.amount, r.lines, r.mark,
            (select o.series || '-' || o.number from receipts o where o.tenant_id = r.tenant_id and o.id = r.cancels_receipt_id) as cancels_bill_number
          from receipts r where r.tenant_id = ${f.tenantId}${filter.id === undefined ? sql`` : sql` and r.id = ${filter.id}`}
        ) x
        where x.student_id in ${childrenOf(f)}${filter.childId === undefined ? sql`` : sql` and x.student_id = ${filter.childId}`}
        order by x.issued_on desc, x.id desc`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    student_id: Number(r.student_id),
    series: String(r.series),
    number: Number(r.number),
    issued_on: String(r.issued_on),
    kind: r.kind as Receipt['kind'],
    status: String(r.status),
    amount: Number(r.amount),
    cancels_bill_number: (r.cancels_bill_number as string | null) ?? null,
    description: linesText(r.lines),
    mark: (r.mark as string | null) ?? null,
  }));
}

/** What a receipt pays for, as its lines print it ("Δίδακτρα Οκτωβρίου 2026, Εγγραφή"). */
function linesText(lines: unknown): string {
  const list = (typeof lines === 'string' ? (JSON.parse(lines) as unknown) : lines) as Record<string, unknown>[] | null;
  return (Array.isArray(list) ? list : [])
    .map((l) => String(l.description ?? '').trim())
    .filter(Boolean)
    .join(', ');
}
