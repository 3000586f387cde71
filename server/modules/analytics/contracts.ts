/**
 * Contract analytics over a range of months, in one statement. Each month's dues follow docs/rules.md, Account
 * (the fee, month_cost less the discount, plus register_cost in the start month; a withdrawn
 * contract up to its withdrawal month); what was collected for them is the MONTHLY payments for
 * that month and the REGISTER payments of contracts starting in it, so the collection rate
 * compares like with like whatever day the money came in (the account's income, by contrast,
 * counts payments by the day they were made). Outstanding and the rate count only months
 * already due (from their first day, in the centre's time zone): over the range, by contract
 * category and by the student's classes (a student in two classes counts in both).
 */
import { sql } from 'drizzle-orm';
import { monthRange } from '../../../domain/index';
import type { Tx } from '../../db/types';
import { queryRows } from '../../db/statements';
import { monthsSql } from '../account/figures';

export interface AnalyticsMonth {
  month: string;
  new_contracts: number;
  active_contracts: number;
  expected: number;
  collected: number;
  outstanding: number;
  /** collected / expected, 0..1 (four decimals); null when nothing was due or the month is not due yet. */
  collection_rate: number | null;
  due: boolean;
}

export interface Outstanding {
  id: number | null;
  name: string | null;
  expected: number;
  collected: number;
  outstanding: number;
}

export interface ContractAnalytics {
  from: string;
  to: string;
  due_until: string | null;
  months: AnalyticsMonth[];
  by_category: Outstanding[];
  by_class: Outstanding[];
}

type RawMonth = Omit<AnalyticsMonth, 'outstanding' | 'collection_rate' | 'due'>;

export const rate = (collected: number, expected: number) => (expected > 0 ? Math.round((collected / expected) * 10_000) / 10_000 : null);

export async function contractAnalytics(tx: Tx, tenantId: number, from: string, to: string): Promise<ContractAnalytics> {
  const first = monthRange(from).first;
  const end = monthRange(to).next;
  const [row] = await queryRows<{ current: string; months: RawMonth[] | null; by_category: Outstanding[] | null; by_class: Outstanding[] | null }>(
    tx,
    sql`
with months as (${monthsSql(from, to)}),
-- The last due month of the range (months are due from their first day).
cur as (select least(centre_month(${tenantId}), ${to}) as month, to_date(least(centre_month(${tenantId}), ${to}), 'YYYY-MM') as first),
-- The contracts touching the range, by first and last owed month, with their fee (months
-- truncated as timestamps without time zone, so no time zone is applied row by row).
c as (
  select c.id, c.category_id, c.student_id, contract_fee(c.month_cost, c.discount_percent) as month_cost, c.register_cost,
    date_trunc('month', c.start_date::timestamp)::date as sm, contract_end_month(c.end_date, c.status, c.withdrawn_on) as em
  from contracts c
  where c.tenant_id = ${tenantId} and c.start_date < ${end}::date and c.end_date >= ${first}::date
),
-- Contracts with the same first and last month owe alike month by month: a few groups meet the months.
terms as (select sm, em, count(*) as n, sum(month_cost) as month_cost, sum(register_cost) as register_cost from c group by sm, em),
dues as (
  select m.month, sum(t.n) filter (where t.sm = m.first) as new_contracts, sum(t.n) as active_contracts,
    sum(t.month_cost + case when t.sm = m.first then t.register_cost else 0 end) as expected
  from months m join terms t on t.sm <= m.first and t.em >= m.first
  group by m.month
),
-- What came in for the range, as the database keeps it by contract and month (contract_months:
-- MONTHLY payments for the month, REGISTER payments in the contract's start month, only in
-- months the contract owes, so every row belongs to a contract touching the range). Read where
-- it is used rather than kept (tens of thousands of rows, written to disk past work_mem).
paid as not materialized (
  select cm.month, cm.contract_id, cm.paid
  from contract_months cm
  where cm.tenant_id = ${tenantId} and cm.month >= ${from} and cm.month <= ${to} and cm.paid > 0
),
collected as (select month, sum(paid) as amount from paid group by month),
-- By contract, only what came in for due months: outstanding compares due with due.
paid_by_contract as (select contract_id, sum(paid) as amount from paid where month <= (select month from cur) group by contract_id),
-- Each contract over the due part of the range: its fee for each due month it owes there, plus
-- the registration when it starts there; and what came in for those.
per_contract as (
  select c.id, c.category_id, c.student_id,
    c.month_cost::bigint * greatest(0, ((date_part('year', least(c.em, cur.first)) * 12 + date_part('month', least(c.em, cur.first)))
      - (date_part('year', greatest(c.sm, ${first}::date)) * 12 + date_part('month', greatest(c.sm, ${first}::date))) + 1)::int)
      + case when c.sm >= ${first}::date and c.sm <= cur.first then c.register_cost else 0 end as expected,
    coalesce(pc.amount, 0) as collected
  from c cross join cur left join paid_by_contract pc on pc.contract_id = c.id
),
per_category as (select category_id, sum(expected) as expected, sum(collected) as collected from per_contract group by category_id),
per_class as (
  select cs.class_id, sum(x.expected) as expected, sum(x.collected) as collected
  from per_contract x join class_students cs on cs.tenant_id = ${tenantId} and cs.student_id = x.student_id
  group by cs.class_id
)
select
  (select month from cur) as current,
  (select json_agg(json_build_object('month', m.month, 'new_contracts', coalesce(d.new_contracts, 0), 'active_contracts', coalesce(d.active_contracts, 0),
      'expected', coalesce(d.expected, 0), 'collected', coalesce(k.amount, 0)) order by m.month)
    from months m left join dues d on d.month = m.month left join collected k on k.month = m.month) as months,
  (select json_agg(json_build_object('id', x.category_id, 'name', cc.name, 'expected', x.expected, 'collected', x.collected, 'outstanding', x.expected - x.collected)
      order by x.expected - x.collected desc, cc.name)
    from per_category x left join contract_categories cc on cc.tenant_id = ${tenantId} and cc.id = x.category_id) as by_category,
  (select json_agg(json_build_object('id', x.class_id, 'name', k.name, 'expected', x.expected, 'collected', x.collected, 'outstanding', x.expected - x.collected)
      order by x.expected - x.collected desc, k.name)
    from per_class x join classes k on k.tenant_id = ${tenantId} and k.id = x.class_id) as by_class`,
  );
  // The last due month of the range; months after it are not due yet.
  const current = row?.current ?? to;
  const months = (row?.months ?? []).map((m) => {
    const due = m.month <= current;
    return { ...m, outstanding: due ? m.expected - m.collected : 0, collection_rate: due ? rate(m.collected, m.expected) : null, due };
  });
  const dueUntil = current >= from ? current : null;
  return { from, to, due_until: dueUntil, months, by_category: row?.by_category ?? [], by_class: row?.by_class ?? [] };
}
