/**
 * Contract analytics over a range of months, in one statement. Each month's dues are rule 6
 * (month_cost, plus register_cost in the start month); what was collected for them is the
 * MONTHLY payments for that month and the REGISTER payments of contracts starting in it, so
 * the collection rate compares like with like whatever day the money came in. Outstanding is
 * due minus collected, over the range, by contract category and by the student's classes (a
 * student in two classes counts in both).
 */
import { sql } from 'drizzle-orm';
import { monthRange } from '../../../domain/index';
import { queryRows, type Tx } from '../../db/client';
import { monthsSql } from '../account/figures';

export interface AnalyticsMonth {
  month: string;
  new_contracts: number;
  active_contracts: number;
  expected: number;
  collected: number;
  outstanding: number;
  /** collected / expected, 0..1 (four decimals); null when nothing was due. */
  collection_rate: number | null;
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
  months: AnalyticsMonth[];
  by_category: Outstanding[];
  by_class: Outstanding[];
}

type RawMonth = Omit<AnalyticsMonth, 'outstanding' | 'collection_rate'>;

export const rate = (collected: number, expected: number) => (expected > 0 ? Math.round((collected / expected) * 10_000) / 10_000 : null);

export async function contractAnalytics(tx: Tx, tenantId: number, from: string, to: string): Promise<ContractAnalytics> {
  const first = monthRange(from).first;
  const end = monthRange(to).next;
  const [row] = await queryRows<{ months: RawMonth[] | null; by_category: Outstanding[] | null; by_class: Outstanding[] | null }>(
    tx,
    sql`
with months as (${monthsSql(from, to)}),
dues as (
  select c.id as contract_id, c.category_id, c.student_id, m.month, (c.start_date >= m.first) as is_new,
    c.month_cost + case when c.start_date >= m.first then c.register_cost else 0 end as due
  from months m
  join contracts c on c.tenant_id = ${tenantId} and c.start_date < m.next and c.end_date >= m.first
),
paid as (
  select p.contract_id, coalesce(p.month, to_char(c.start_date, 'YYYY-MM')) as month, sum(p.amount) as amount
  from payments p
  join contracts c on c.tenant_id = p.tenant_id and c.id = p.contract_id
  where p.tenant_id = ${tenantId}
    and ((p.kind = 'MONTHLY' and p.month >= ${from} and p.month <= ${to})
      or (p.kind = 'REGISTER' and c.start_date >= ${first}::date and c.start_date < ${end}::date))
  group by 1, 2
),
lines as (
  select d.*, coalesce(p.amount, 0) as collected
  from dues d left join paid p on p.contract_id = d.contract_id and p.month = d.month
),
per_month as (
  select month, count(*) filter (where is_new) as new_contracts, count(*) as active_contracts, sum(due) as expected, sum(collected) as collected
  from lines group by month
),
per_category as (select category_id, sum(due) as expected, sum(collected) as collected from lines group by category_id),
per_class as (
  select cs.class_id, sum(l.due) as expected, sum(l.collected) as collected
  from lines l join class_students cs on cs.tenant_id = ${tenantId} and cs.student_id = l.student_id
  group by cs.class_id
)
select
  (select json_agg(json_build_object('month', m.month, 'new_contracts', coalesce(pm.new_contracts, 0), 'active_contracts', coalesce(pm.active_contracts, 0),
      'expected', coalesce(pm.expected, 0), 'collected', coalesce(pm.collected, 0)) order by m.month)
    from months m left join per_month pm on pm.month = m.month) as months,
  (select json_agg(json_build_object('id', x.category_id, 'name', cc.name, 'expected', x.expected, 'collected', x.collected, 'outstanding', x.expected - x.collected)
      order by x.expected - x.collected desc, cc.name)
    from per_category x left join contract_categories cc on cc.tenant_id = ${tenantId} and cc.id = x.category_id) as by_category,
  (select json_agg(json_build_object('id', x.class_id, 'name', k.name, 'expected', x.expected, 'collected', x.collected, 'outstanding', x.expected - x.collected)
      order by x.expected - x.collected desc, k.name)
    from per_class x join classes k on k.tenant_id = ${tenantId} and k.id = x.class_id) as by_class`,
  );
  const months = (row?.months ?? []).map((m) => ({
    ...m,
    outstanding: m.expected - m.collected,
    collection_rate: rate(m.collected, m.expected),
  }));
  return { from, to, months, by_category: row?.by_category ?? [], by_class: row?.by_class ?? [] };
}
