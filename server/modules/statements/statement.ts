/**
 * A family's statement (docs/rules.md, Messages to families): every child of a guardian, each
 * child's contracts with what they cost (due), what was paid and what is left, and of the left
 * what is already due by the centre's today (overdue); totals per child and for the family.
 * The figures are the contracts' own (domain/money.ts), so the statement says what a
 * contract's status says. Read in the caller's transaction: the office's, or hers in the
 * portal (row-level security keeps her to her own children).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Statement } from '../../../domain/answers/statement';
import { contractFigures, contractLines, isDue } from '../../../domain/money';
import { DomainError } from '../../../domain/index';
import { queryRows } from '../../db/statements';
import type { Tx } from '../../db/types';
import { contractPayments, termsOf } from '../contracts/spec';

type Figures = { due: number; paid: number; left: number; overdue: number };
const zero = (): Figures => ({ due: 0, paid: 0, left: 0, overdue: 0 });
const add = (to: Figures, more: Figures) => {
  to.due += more.due;
  to.paid += more.paid;
  to.left += more.left;
  to.overdue += more.overdue;
};

/**
 * `centre`: its name as families know it, and its today as SQL (the office's centre_today(); in
 * the portal, her family's, which reads no centre row).
 */
export async function familyStatement(tx: Tx, tenantId: number, guardianId: number, centre: { name: string; today: SQL }): Promise<Statement> {
  const [guardian] = await queryRows<Statement['guardian'] & { today: string }>(
    tx,
    sql`select g.id, g.first_name, g.last_name, g.relation, g.phone, g.email, to_char(${centre.today}, 'YYYY-MM-DD') as today
        from guardians g where g.tenant_id = ${tenantId} and g.id = ${guardianId}`,
  );
  if (!guardian) throw new DomainError('not-found');
  const today = guardian.today;
  const children = await queryRows<{ id: number; first_name: string; last_name: string }>(
    tx,
    sql`select s.id, s.first_name, s.last_name from students s
        join student_guardians sg on sg.tenant_id = s.tenant_id and sg.student_id = s.id
        where s.tenant_id = ${tenantId} and sg.guardian_id = ${guardianId}
        order by s.last_name, s.first_name, s.id`,
  );
  const contracts = await queryRows<Record<string, unknown>>(
    tx,
    sql`select k.id, k.student_id, cc.name as category, to_char(k.start_date, 'YYYY-MM-DD') as start_date, to_char(k.end_date, 'YYYY-MM-DD') as end_date,
          case when k.status = 'ACTIVE' and k.end_date < ${today}::date then 'COMPLETED' else k.status end as shown_status,
          k.status, k.register_cost, k.month_cost, k.discount_percent, k.with_receipt, to_char(k.withdrawn_on, 'YYYY-MM-DD') as withdrawn_on,
          k.payer_guardian_id
        from contracts k
        left join contract_categories cc on cc.tenant_id = k.tenant_id and cc.id = k.category_id
        where k.tenant_id = ${tenantId}
          and k.student_id in (select sg.student_id from student_guardians sg where sg.tenant_id = ${tenantId} and sg.guardian_id = ${guardianId})
        order by k.start_date, k.id`,
  );
  const totals = zero();
  const out: Statement['children'] = [];
  for (const child of children) {
    const mine = contracts.filter((k) => Number(k.student_id) === Number(child.id));
    const figures = zero();
    const rows: Statement['children'][number]['contracts'] = [];
    for (const k of mine) {
      const terms = termsOf(k);
      const payments = await contractPayments(tx, tenantId, Number(k.id));
      const f = contractFigures(terms, payments, today);
      const lines = contractLines(terms, payments).map((line) => ({ ...line, due_now: isDue(line.month, today) }));
      const own: Figures = {
        due: f.total_cost,
        paid: f.total_paid - f.credit,
        left: f.rest,
        overdue: lines.filter((l) => l.due_now).reduce((sum, l) => sum + l.left, 0),
      };
      add(figures, own);
      rows.push({
        id: Number(k.id),
        category: (k.category as string | null) ?? null,
        start_date: String(k.start_date),
        end_date: String(k.end_date),
        status: k.shown_status as Statement['children'][number]['contracts'][number]['status'],
        payer_guardian_id: k.payer_guardian_id === null ? null : Number(k.payer_guardian_id),
        ...own,
        lines,
      });
    }
    add(totals, figures);
    out.push({ id: Number(child.id), first_name: child.first_name, last_name: child.last_name, contracts: rows, ...figures });
  }
  return {
    guardian: {
      id: Number(guardian.id),
      first_name: guardian.first_name,
      last_name: guardian.last_name,
      relation: guardian.relation,
      phone: guardian.phone,
      email: guardian.email,
    },
    centre: centre.name,
    as_of: today,
    children: out,
    totals,
  };
}
