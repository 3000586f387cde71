/**
 * What the accountant's spreadsheets hold: one sheet per kind (receipts, payments, expenses,
 * contracts) over a period, its columns (header key, type) and the rows of the period. Amounts
 * are numbers of euro (cents / 100) shown with the euro format, dates are dates; headers and
 * enum values come from the locale files in the reader's language (Greek by default).
 */
import { sql } from 'drizzle-orm';
import type { Language } from '../../../domain/index';
import elExports from '../../../src/locales/el/exports.json' with { type: 'json' };
import enExports from '../../../src/locales/en/exports.json' with { type: 'json' };
import elMoney from '../../../src/locales/el/money.json' with { type: 'json' };
import enMoney from '../../../src/locales/en/money.json' with { type: 'json' };
import type { Tx } from '../../db/types';
import { queryRows } from '../../db/statements';

export const EXPORT_KINDS = ['receipts', 'payments', 'expenses', 'contracts'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

export type ColumnType = 'text' | 'integer' | 'money' | 'date';

export interface Column {
  /** exports.columns.<key> */
  key: string;
  type: ColumnType;
  width: number;
  /** Enum values translated through exports.values / money enums. */
  enumValues?: boolean;
}

type Texts = { exports: { sheets: Record<string, string>; columns: Record<string, string>; values: Record<string, string> } };
const TEXTS: Record<Language, Texts> = { el: elExports, en: enExports };
const ENUMS: Record<Language, Record<string, string>> = { el: elMoney.enums, en: enMoney.enums };

export const sheetName = (kind: ExportKind, language: Language) => TEXTS[language].exports.sheets[kind]!;
export const headerOf = (key: string, language: Language) => TEXTS[language].exports.columns[key] ?? key;
export const valueOf = (value: string, language: Language) => TEXTS[language].exports.values[value] ?? ENUMS[language][value] ?? value;

const col = (key: string, type: ColumnType, width = 16, enumValues = false): Column => ({ key, type, width, enumValues });

export const COLUMNS: Record<ExportKind, Column[]> = {
  receipts: [
    col('issuedOn', 'date', 14),
    col('series', 'text', 8),
    col('number', 'integer', 10),
    col('receiptKind', 'text', 22, true),
    col('payer', 'text', 28),
    col('payerTaxId', 'text', 14),
    col('amount', 'money', 14),
    col('status', 'text', 26, true),
    col('mark', 'text', 18),
    col('error', 'text', 40),
  ],
  payments: [
    col('paidOn', 'date', 14),
    col('student', 'text', 28),
    col('contract', 'integer', 10),
    col('paymentKind', 'text', 14, true),
    col('month', 'text', 10),
    col('amount', 'money', 14),
    col('method', 'text', 22, true),
    col('billNumber', 'text', 16),
    col('description', 'text', 30),
  ],
  expenses: [
    col('date', 'date', 14),
    col('category', 'text', 22),
    col('description', 'text', 34),
    col('amount', 'money', 14),
    col('method', 'text', 22, true),
    col('billNumber', 'text', 16),
  ],
  contracts: [
    col('student', 'text', 28),
    col('category', 'text', 20),
    col('startDate', 'date', 14),
    col('endDate', 'date', 14),
    col('registerCost', 'money', 14),
    col('monthCost', 'money', 14),
    col('totalCost', 'money', 14),
    col('totalPaid', 'money', 14),
    col('rest', 'money', 14),
    col('withReceipt', 'text', 12, true),
  ],
};

export type Cell = string | number | null;

const student = sql`coalesce(nullif(trim(coalesce(s.first_name, '') || ' ' || coalesce(s.last_name, '')), ''), '—')`;

/** The rows of one sheet for from..to (YYYY-MM-DD, inclusive), in column order; money in cents, dates as YYYY-MM-DD. */
export async function rowsOf(tx: Tx, tenantId: number, kind: ExportKind, from: string, to: string): Promise<Cell[][]> {
  switch (kind) {
    case 'receipts': {
      const rows = await queryRows<Record<string, Cell>>(
        tx,
        sql`select to_char(r.issued_on, 'YYYY-MM-DD') as d, r.series, r.number::bigint as n, r.kind, r.payer->>'name' as payer,
                   r.payer->>'tax_id' as payer_tax_id,
                   -- A credit receipt takes its amount off: the sheet's sum is what the receipts net.
                   (case when r.kind = 'CREDIT' then -r.amount else r.amount end)::bigint as amount, r.status, r.mark::text as mark, r.error
            from receipts r
            where r.tenant_id = ${tenantId} and r.issued_on >= ${from}::date and r.issued_on <= ${to}::date
            order by r.issued_on, r.series, r.number`,
      );
      return rows.map((r) => [r.d, r.series, r.n, r.kind, r.payer, r.payer_tax_id, r.amount, r.status, r.mark, r.error]);
    }
    case 'payments': {
      const rows = await queryRows<Record<string, Cell>>(
        tx,
        sql`select to_char(p.paid_on, 'YYYY-MM-DD') as d, ${student} as student, p.contract_id, p.kind, p.month, p.amount, p.method, p.bill_number, p.description
            from payments p
            join contracts c on c.tenant_id = p.tenant_id and c.id = p.contract_id
            join students s on s.tenant_id = c.tenant_id and s.id = c.student_id
            where p.tenant_id = ${tenantId} and p.paid_on >= ${from}::date and p.paid_on <= ${to}::date
            order by p.paid_on, p.id`,
      );
      return rows.map((r) => [r.d, r.student, r.contract_id, r.kind, r.month, r.amount, r.method, r.bill_number, r.description]);
    }
    case 'expenses': {
      const rows = await queryRows<Record<string, Cell>>(
        tx,
        sql`select to_char(e.date, 'YYYY-MM-DD') as d, ec.name as category, e.description, e.amount, e.method, e.bill_number
            from expenses e
            left join expense_categories ec on ec.tenant_id = e.tenant_id and ec.id = e.category_id
            where e.tenant_id = ${tenantId} and e.date >= ${from}::date and e.date <= ${to}::date
            order by e.date, e.id`,
      );
      return rows.map((r) => [r.d, r.category, r.description, r.amount, r.method, r.bill_number]);
    }
    case 'contracts': {
      const rows = await queryRows<Record<string, Cell | boolean>>(
        tx,
        sql`select ${student} as student, cc.name as category, to_char(c.start_date, 'YYYY-MM-DD') as sd, to_char(c.end_date, 'YYYY-MM-DD') as ed,
                   c.register_cost, c.month_cost, c.total_cost, c.total_paid, c.rest, c.with_receipt
            from contracts c
            join students s on s.tenant_id = c.tenant_id and s.id = c.student_id
            left join contract_categories cc on cc.tenant_id = c.tenant_id and cc.id = c.category_id
            where c.tenant_id = ${tenantId} and c.start_date <= ${to}::date and c.end_date >= ${from}::date
            order by c.start_date, c.id`,
      );
      return rows.map((r) => [
        r.student as Cell,
        r.category as Cell,
        r.sd as Cell,
        r.ed as Cell,
        r.register_cost as Cell,
        r.month_cost as Cell,
        r.total_cost as Cell,
        r.total_paid as Cell,
        r.rest as Cell,
        r.with_receipt ? 'yes' : 'no',
      ]);
    }
  }
}
