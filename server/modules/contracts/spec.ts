/**
 * Contracts on the generic CRUD engine. The figures of docs/rules.md, Contracts (total_cost, total_paid, rest,
 * is_register_paid, unpaid_months) are columns the database keeps from the payments, so the
 * list filters and sorts on them like on any column and a page costs the same few statements
 * whatever it shows. A change of terms that would leave a month or the registration paid
 * beyond what it now owes is refused.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  CONTRACTS,
  checkContractTerms,
  DomainError,
  isMonth,
  monthRange,
  overpaidLines,
  type ContractTerms,
  type FieldDef,
  type ListQuery,
  type PaymentKind,
} from '../../../domain/index';
import { MANAGERS } from '../../../domain/access';
import type { Tx } from '../../db/types';
import { classStudents, contractUnpaidMonths, contracts, payments } from '../../db/schema/index';
import type { Ctx, ListExtras, ResourceSpec } from '../../engine/spec';
import { refuseForeignPayer } from './payer';

/** Filters beyond the declared fields: a student's classes, a day covered, a month paid or not. */
const EXTRA_FILTERS: FieldDef[] = [
  { name: 'class_id', type: 'REFERENCE', filterable: true },
  { name: 'active_on', type: 'DATE', filterable: true },
  { name: 'paid_month', type: 'TEXT', max: 7, filterable: true },
  { name: 'unpaid_month', type: 'TEXT', max: 7, filterable: true },
];

function extraWhere(ctx: Ctx, query: ListQuery): SQL[] {
  const out: SQL[] = [];
  for (const filter of query.filters) {
    if (!EXTRA_FILTERS.some((f) => f.name === filter.field)) continue;
    if (filter.op !== 'eq') throw new DomainError('validation', 'The list query is not valid.', { [`${filter.field}_${filter.op}`]: 'invalid-option' });
    if (filter.field === 'class_id') {
      out.push(
        sql`${contracts.studentId} in (select cs.student_id from ${classStudents} cs where cs.tenant_id = ${ctx.tenantId} and cs.class_id in (${sql.join(
          filter.values.map((v) => sql`${v}`),
          sql`, `,
        )}))`,
      );
      continue;
    }
    for (const value of filter.values) {
      if (filter.field === 'active_on') {
        out.push(sql`${contracts.startDate} <= ${value} and ${contracts.endDate} >= ${value}`);
        continue;
      }
      if (typeof value !== 'string' || !isMonth(value)) throw new DomainError('validation', 'The list query is not valid.', { [filter.field]: 'invalid' });
      const month = sql`array[${value}]::text[]`;
      if (filter.field === 'unpaid_month') out.push(sql`${contracts.unpaidMonths} @> ${month} and ${value} <= ${centreMonth(ctx.tenantId)}`);
      else {
        const { first, next } = monthRange(value);
        out.push(
          sql`${contracts.startDate} < ${next} and ${contracts.endDate} >= ${first} and ${first}::date <= contract_end_month(${contracts.endDate}, ${contracts.status}, ${contracts.withdrawnOn}) and not (${contracts.unpaidMonths} @> ${month})`,
        );
      }
    }
  }
  return out;
}

/**
 * The count and sums of the unpaid list of one month, from the months the database keeps per
 * contract (contract_unpaid_months) rather than by testing every contract of the centre:
 * only when that month is all the list asks (a search or another filter counts the list itself).
 */
function unpaidTally(ctx: Ctx, query: ListQuery): SQL | undefined {
  const [only, ...more] = query.filters;
  if (more.length || query.q || only?.field !== 'unpaid_month' || only.op !== 'eq' || only.values.length !== 1) return undefined;
  const month = only.values[0];
  if (typeof month !== 'string' || !isMonth(month)) return undefined;
  const u = contractUnpaidMonths;
  return sql`select count(*) as n, coalesce(sum(${u.totalCost}), 0) as total_cost, coalesce(sum(${u.totalPaid}), 0) as total_paid,
      coalesce(sum(${u.rest}), 0) as rest
    from ${u} where ${u.tenantId} = ${ctx.tenantId} and ${u.month} = ${month} and ${month} <= ${centreMonth(ctx.tenantId)}`;
}

/** The contract's terms under a row lock: payments and changes of terms queue here, one at a time. */
export async function lockContract(tx: Tx, tenantId: number, id: number): Promise<(ContractTerms & { id: number }) | undefined> {
  const [row] = await tx
    .select({
      id: contracts.id,
      start_date: contracts.startDate,
      end_date: contracts.endDate,
      register_cost: contracts.registerCost,
      month_cost: contracts.monthCost,
      with_receipt: contracts.withReceipt,
      discount_percent: contracts.discountPercent,
      status: contracts.status,
      withdrawn_on: contracts.withdrawnOn,
    })
    .from(contracts)
    .where(and(eq(contracts.tenantId, tenantId), eq(contracts.id, id)))
    .for('update');
  return row;
}

/** The payments of one contract, as the money rules read them. */
export async function contractPayments(tx: Tx, tenantId: number, contractId: number) {
  const rows = await tx
    .select({
      id: payments.id,
      kind: payments.kind,
      month: payments.month,
      amount: payments.amount,
      bill_number: payments.billNumber,
      paid_on: payments.paidOn,
      refunded_on: payments.refundedOn,
    })
    .from(payments)
    .where(and(eq(payments.tenantId, tenantId), eq(payments.contractId, contractId)))
    .orderBy(payments.paidOn, payments.id);
  return rows.map((r) => ({ ...r, kind: r.kind as PaymentKind }));
}

/** A contract row's terms, as the money rules of domain/money.ts read them. */
export const termsOf = (row: Record<string, unknown>): ContractTerms => ({
  start_date: String(row.start_date),
  end_date: String(row.end_date),
  register_cost: Number(row.register_cost),
  month_cost: Number(row.month_cost),
  with_receipt: row.with_receipt !== false,
  discount_percent: Number(row.discount_percent ?? 0),
  // COMPLETED is ACTIVE past its end: it owes the same.
  status: row.status === 'WITHDRAWN' ? 'WITHDRAWN' : 'ACTIVE',
  withdrawn_on: typeof row.withdrawn_on === 'string' ? row.withdrawn_on : null,
});

/** The centre's current month (YYYY-MM) as SQL: months up to it are due. */
export const centreMonth = (tenantId: SQL | number) => sql`centre_month(${tenantId})`;

/**
 * The centre's date and month for a row's figures, worked out once per statement: the
 * transaction's centre (the one row-level security keeps to) as an InitPlan. Called per row,
 * centre_month(contracts.tenant_id) looked the centre's time zone up for every row and month
 * shown, half the cost of a page of unpaid contracts.
 */
const TRANSACTION_CENTRE = sql.raw(`nullif(current_setting('app.tenant_id', true), '')::int`);
const CENTRE_TODAY = sql`(select centre_today(${TRANSACTION_CENTRE}))`;
const CENTRE_MONTH = sql`(select centre_month(${TRANSACTION_CENTRE}))`;

/** ACTIVE past its end date reads COMPLETED (computed, so it moves with the calendar). */
export const contractStatusSql = sql`(case when ${contracts.status} = 'ACTIVE' and ${contracts.endDate} < ${CENTRE_TODAY} then 'COMPLETED' else ${contracts.status} end)`;

/**
 * What the contract `k` (a table name or alias in the statement) still owes for its months
 * already due: their fees less what was paid towards each. Columns are named in full: inside
 * the subquery a bare column would be the payment's own.
 */
function owedNow(k: string): SQL {
  const c = sql.raw(k);
  return sql`(select coalesce(sum(contract_fee(${c}.month_cost, ${c}.discount_percent)
        - coalesce((select sum(p.amount) from payments p
                    where p.tenant_id = ${c}.tenant_id and p.contract_id = ${c}.id and p.kind = 'MONTHLY' and p.month = m and p.refunded_on is null), 0)), 0)::int
      from unnest(${c}.unpaid_months) m where m <= ${CENTRE_MONTH})`;
}

export const contractsSpec: ResourceSpec = {
  def: CONTRACTS,
  table: contracts,
  label: sql`((select trim(s.first_name || ' ' || s.last_name) from students s where s.tenant_id = contracts.tenant_id and s.id = contracts.student_id) || ' · ' || to_char(contracts.start_date, 'YYYY-MM-DD'))`,
  // The database keeps every owed unpaid month; only those already due are unpaid.
  shown: {
    unpaid_months: sql`array(select m from unnest(${contracts.unpaidMonths}) m where m <= ${CENTRE_MONTH} order by m)`,
    // what those months still owe: the unpaid list's "how much"
    unpaid_amount: owedNow('contracts'),
    // the unpaid list's caller: the payer, her phone, and what her family owes now over all her contracts
    payer_name: sql`(select trim(g.first_name || ' ' || g.last_name) from guardians g where g.tenant_id = contracts.tenant_id and g.id = contracts.payer_guardian_id)`,
    payer_phone: sql`(select g.phone from guardians g where g.tenant_id = contracts.tenant_id and g.id = contracts.payer_guardian_id)`,
    family_unpaid: sql`(case when contracts.payer_guardian_id is null then null else (select coalesce(sum(${owedNow('k')}), 0)::int from contracts k
      where k.tenant_id = contracts.tenant_id and k.payer_guardian_id = contracts.payer_guardian_id) end)`,
    due_months: sql`(select count(*)::int from generate_series(date_trunc('month', ${contracts.startDate}::timestamp), ${contracts.endDate}::timestamp, interval '1 month') g
      where to_char(g, 'YYYY-MM') <= least(contract_last_month(${contracts.endDate}, ${contracts.status}, ${contracts.withdrawnOn}), ${CENTRE_MONTH}))`,
  },
  computed: { status: contractStatusSql },
  // A month unpaid by a third of the contracts or by a handful: planned for the month asked.
  planPerValue: true,
  totals: {
    total_cost: sql`sum(${contracts.totalCost})`,
    total_paid: sql`sum(${contracts.totalPaid})`,
    rest: sql`sum(${contracts.rest})`,
  },
  async listExtras(_tx, ctx): Promise<ListExtras> {
    return { fields: EXTRA_FILTERS, where: (query) => extraWhere(ctx, query), tally: (query) => unpaidTally(ctx, query) };
  },
  // docs/rules.md, Reminders: turning a contract's reminders off (or on again) is ADMIN's.
  canWrite(ctx, before, input) {
    if (!input || !('reminders_enabled' in input) || (ctx.actor !== null && MANAGERS.includes(ctx.actor.role))) return;
    if (input.reminders_enabled === before.reminders_enabled) return;
    throw new DomainError('forbidden', "Only an administrator turns a contract's reminders on or off.", undefined, {
      details: { reason: 'reminders-admin-only' },
    });
  },
  async beforeWrite({ tx, ctx, input, before }) {
    if (!before && input.reminders_enabled === false && !(ctx.actor !== null && MANAGERS.includes(ctx.actor.role))) {
      throw new DomainError('forbidden', "Only an administrator turns a contract's reminders on or off.", undefined, {
        details: { reason: 'reminders-admin-only' },
      });
    }
    const fields = checkContractTerms({ ...(before ?? {}), ...input } as Partial<ContractTerms>);
    if (Object.keys(fields).length) throw new DomainError('validation', 'The contract dates are not valid.', fields);
    await refuseForeignPayer(tx, ctx.tenantId, input, before);
    return undefined;
  },
  async afterWrite({ tx, ctx, before, after }) {
    if (!before) return;
    const over = overpaidLines(termsOf(after), await contractPayments(tx, ctx.tenantId, after.id));
    if (over.length) {
      throw new DomainError('conflict', `Payments already made exceed these terms for: ${over.join(', ')}.`, undefined, { details: { lines: over } });
    }
  },
};
