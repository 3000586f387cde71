/**
 * The account's figures per month (docs/rules.md, Account), in one statement for any range of months: income
 * is payments by paid_on (as the database sums them by contract and month), expenses by date,
 * expected is what the contracts owe for the month (its fee, month_cost less the discount, plus
 * register_cost in the start month; a withdrawn contract only up to its withdrawal month); each split by receipt (a payment's or expense's bill_number, a
 * contract's with_receipt).
 */
import { sql } from 'drizzle-orm';
import { monthRange, split, type MonthFigures, type ReceiptSplit } from '../../../domain/index';
import type { Tx } from '../../db/types';
import { queryRows } from '../../db/statements';

interface Row {
  month: string;
  income_w: unknown;
  income_wo: unknown;
  spent_w: unknown;
  spent_wo: unknown;
  due_w: unknown;
  due_wo: unknown;
}

/** A months series from `from` to `to` (YYYY-MM, checked by the caller), as SQL. */
export const monthsSql = (from: string, to: string) => sql`
  select to_char(g, 'YYYY-MM') as month, g::date as first, (g + interval '1 month')::date as next
  from generate_series(${`${from}-01`}::timestamp, ${`${to}-01`}::timestamp, interval '1 month') g`;

export async function monthFigures(tx: Tx, tenantId: number, from: string, to: string): Promise<MonthFigures[]> {
  const first = monthRange(from).first;
  const end = monthRange(to).next;
  const rows = await queryRows<Row>(
    tx,
    sql`
with months as (${monthsSql(from, to)}),
-- Income is kept by contract and month (contract_months): a few narrow rows per contract, read
-- from their index, instead of every payment.
income as (
  select cm.month, sum(cm.income_w) as w, sum(cm.income_wo) as wo
  from contract_months cm
  where cm.tenant_id = ${tenantId} and cm.month >= ${from} and cm.month <= ${to}
  group by 1
),
spent as (
  select to_char(e.date, 'YYYY-MM') as month,
    sum(e.amount) filter (where e.bill_number is not null) as w,
    sum(e.amount) filter (where e.bill_number is null) as wo
  from expenses e
  where e.tenant_id = ${tenantId} and e.date >= ${first}::date and e.date < ${end}::date
  group by 1
),
-- Contracts with the same first and last month owe alike: summed first, a centre's thousands of
-- contracts become a few groups before they meet the months.
-- A month's fee is month_cost less the discount; a withdrawn contract owes up to its withdrawal month.
terms as (
  select date_trunc('month', c.start_date::timestamp)::date as sm, contract_end_month(c.end_date, c.status, c.withdrawn_on) as em, c.with_receipt,
    sum(contract_fee(c.month_cost, c.discount_percent)) as month_cost, sum(c.register_cost) as register_cost
  from contracts c
  where c.tenant_id = ${tenantId} and c.start_date < ${end}::date and c.end_date >= ${first}::date
  group by 1, 2, 3
),
due as (
  select m.month,
    sum(g.month_cost + case when g.sm = m.first then g.register_cost else 0 end) filter (where g.with_receipt) as w,
    sum(g.month_cost + case when g.sm = m.first then g.register_cost else 0 end) filter (where not g.with_receipt) as wo
  from months m
  join terms g on g.sm <= m.first and g.em >= m.first
  group by m.month
)
select m.month,
  coalesce(i.w, 0) as income_w, coalesce(i.wo, 0) as income_wo,
  coalesce(s.w, 0) as spent_w, coalesce(s.wo, 0) as spent_wo,
  coalesce(d.w, 0) as due_w, coalesce(d.wo, 0) as due_wo
from months m
left join income i on i.month = m.month
left join spent s on s.month = m.month
left join due d on d.month = m.month
order by m.month`,
  );
  return rows.map((r) => {
    const income = split(Number(r.income_w), Number(r.income_wo));
    const expenses = split(Number(r.spent_w), Number(r.spent_wo));
    return {
      month: r.month,
      income,
      expenses,
      expected: split(Number(r.due_w), Number(r.due_wo)),
      net: split(income.with_receipt - expenses.with_receipt, income.without_receipt - expenses.without_receipt),
    };
  });
}

const add = (a: ReceiptSplit, b: ReceiptSplit) => split(a.with_receipt + b.with_receipt, a.without_receipt + b.without_receipt);

/** The sum of several months' figures. */
export function totalOf(months: readonly MonthFigures[]): Omit<MonthFigures, 'month'> {
  const zero = split(0, 0);
  return months.reduce(
    (t, m) => ({ income: add(t.income, m.income), expenses: add(t.expenses, m.expenses), expected: add(t.expected, m.expected), net: add(t.net, m.net) }),
    { income: zero, expenses: zero, expected: zero, net: zero },
  );
}
