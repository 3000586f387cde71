/**
 * The centre's money (domain/resources/money.ts): contracts, payments against them, expense
 * categories and expenses. Keys and foreign keys include tenant_id as everywhere. A contract's
 * figures (month_count … unpaid_months) are written only by the database: a trigger on the
 * contract recomputes them from its terms and payments, and every write of a payment touches
 * its contract (custom migration money_rules), so lists filter and sort on plain columns.
 * Beside each contract the database also keeps its money month by month (contract_months), so
 * the account and analytics read a few narrow rows per contract instead of every payment.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, foreignKey, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { EXPENSE_CATEGORIES } from '../../../domain/resources/money';
import { rowMeta } from './columns';
import { declaredTable } from './declared';
import { contractCategories } from './directory';
import { guardians } from './families';
import { students } from './people';
import { tenants } from './platform';
import { id, search, tenantId } from './tenant-columns';

const day = (name: string) => date(name, { mode: 'string' });
/** Sums of cents may pass 2^31 (a long contract with many extra charges); they stay below 2^53. */
const cents = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

export const contracts = pgTable(
  'contracts',
  {
    tenantId: tenantId(),
    id: id(),
    studentId: integer('student_id').notNull(),
    categoryId: integer('category_id'),
    startDate: day('start_date').notNull(),
    endDate: day('end_date').notNull(),
    registerCost: integer('register_cost').notNull().default(0),
    monthCost: integer('month_cost').notNull(),
    withReceipt: boolean('with_receipt').notNull().default(true),
    notes: text('notes'),
    /** Who pays and is named on receipts: one of the student's guardians, or none (the student pays). */
    payerGuardianId: integer('payer_guardian_id'),
    /** 0-100, taken off each month's fee. */
    discountPercent: integer('discount_percent').notNull().default(0),
    status: text('status').notNull().default('ACTIVE'),
    withdrawnOn: day('withdrawn_on'),
    withdrawalReason: text('withdrawal_reason'),
    /** Reminders of unpaid months go to the payer unless turned off. */
    remindersEnabled: boolean('reminders_enabled').notNull().default(true),
    // Kept by the database (trigger contract_figures).
    monthCount: integer('month_count').notNull().default(0),
    registerPaid: cents('register_paid'),
    extraTotal: cents('extra_total'),
    totalCost: cents('total_cost'),
    totalPaid: cents('total_paid'),
    rest: cents('rest'),
    isRegisterPaid: boolean('is_register_paid').notNull().default(false),
    unpaidMonths: text('unpaid_months').array().notNull().default(sql`'{}'::text[]`),
    /** MONTHLY payments for months after a withdrawal: money to refund, not counted against what it owes. */
    credit: cents('credit'),
    /** Payments refunded (by a credit receipt, or without a receipt): no longer paid, shown as refunded. */
    refunded: cents('refunded'),
    search: search(),
    ...rowMeta(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('contracts_student_idx').on(t.tenantId, t.studentId, t.startDate),
    index('contracts_category_idx').on(t.tenantId, t.categoryId),
    index('contracts_start_idx').on(t.tenantId, t.startDate),
    index('contracts_end_idx').on(t.tenantId, t.endDate),
    index('contracts_rest_idx').on(t.tenantId, t.rest),
    index('contracts_unpaid_months_idx').using('gin', t.unpaidMonths),
    foreignKey({ columns: [t.tenantId, t.studentId], foreignColumns: [students.tenantId, students.id] }),
    foreignKey({ columns: [t.tenantId, t.categoryId], foreignColumns: [contractCategories.tenantId, contractCategories.id] }),
    foreignKey({ columns: [t.tenantId, t.payerGuardianId], foreignColumns: [guardians.tenantId, guardians.id] }),
    index('contracts_payer_idx').on(t.tenantId, t.payerGuardianId),
    check('contracts_discount_check', sql`${t.discountPercent} between 0 and 100`),
    check('contracts_dates_check', sql`${t.endDate} >= ${t.startDate}`),
    check('contracts_costs_check', sql`${t.registerCost} >= 0 and ${t.monthCost} >= 0`),
  ],
);

export const payments = pgTable(
  'payments',
  {
    tenantId: tenantId(),
    id: id(),
    contractId: integer('contract_id').notNull(),
    kind: text('kind').notNull(),
    month: text('month'),
    amount: integer('amount').notNull(),
    method: text('method').notNull().default('CASH'),
    billNumber: text('bill_number'),
    /** A receipt is issued for it (docs/rules.md, Receipts); null until written, then the contract's unless given. */
    withReceipt: boolean('with_receipt'),
    paidOn: day('paid_on').notNull(),
    /**
     * The day it was refunded (its receipt's credit receipt, or a refund without receipt): it
     * stays in the books of its month and is taken off in this one; it no longer pays anything.
     */
    refundedOn: day('refunded_on'),
    description: text('description'),
    search: search(),
    ...rowMeta(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('payments_contract_idx').on(t.tenantId, t.contractId, t.kind, t.month),
    index('payments_paid_on_idx').on(t.tenantId, t.paidOn),
    index('payments_month_idx').on(t.tenantId, t.month),
    // A receipt number is given once per centre; many payments carry none.
    uniqueIndex('payments_bill_number_key').on(t.tenantId, t.billNumber),
    foreignKey({ columns: [t.tenantId, t.contractId], foreignColumns: [contracts.tenantId, contracts.id] }),
    check('payments_amount_check', sql`${t.amount} > 0`),
    check('payments_month_check', sql`(${t.kind} = 'MONTHLY') = (${t.month} is not null)`),
  ],
);

/**
 * A contract's money by month, written only by the database (custom migration
 * contract_months_rules): whenever a contract is written, which every write of one of its
 * payments does, its rows are recomputed from its payments. `paid` is what came in for a month
 * the contract covers (its MONTHLY payments, and the REGISTER payments in its start month);
 * income_w / income_wo are the payments made in the month (by paid_on), with and without a
 * receipt. A month with none of these has no row.
 */
export const contractMonths = pgTable(
  'contract_months',
  {
    tenantId: tenantId(),
    contractId: integer('contract_id').notNull(),
    month: text('month').notNull(),
    paid: cents('paid'),
    incomeW: cents('income_w'),
    incomeWo: cents('income_wo'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.contractId, t.month] }),
    // Every column: the account and analytics read a range of months from the index alone.
    index('contract_months_month_idx').on(t.tenantId, t.month, t.contractId, t.paid, t.incomeW, t.incomeWo),
    foreignKey({ columns: [t.tenantId, t.contractId], foreignColumns: [contracts.tenantId, contracts.id] }).onDelete('cascade'),
  ],
);

/**
 * The months each contract still owes, one row per contract and month, with the contract's
 * figures beside them: written only by the database (custom migration contract_unpaid_rules)
 * whenever a contract's unpaid months or figures change. A month's unpaid contracts are then
 * counted and summed from one narrow range of the primary key, which also carries the figures
 * (INCLUDE, written in that migration's table; drizzle cannot declare it). The array
 * containment on contracts.unpaid_months cannot use its index under row-level security
 * (the operator is not leakproof), so it read every contract of the centre instead.
 */
export const contractUnpaidMonths = pgTable(
  'contract_unpaid_months',
  {
    tenantId: tenantId(),
    month: text('month').notNull(),
    contractId: integer('contract_id').notNull(),
    totalCost: cents('total_cost'),
    totalPaid: cents('total_paid'),
    rest: cents('rest'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.month, t.contractId] })],
);

/** A plain resource's table, derived from its declaration (declared.ts). */
export const expenseCategories = declaredTable(EXPENSE_CATEGORIES);

export const expenses = pgTable(
  'expenses',
  {
    tenantId: tenantId(),
    id: id(),
    date: day('date').notNull(),
    amount: integer('amount').notNull(),
    description: text('description'),
    categoryId: integer('category_id'),
    method: text('method').notNull().default('CASH'),
    billNumber: text('bill_number'),
    search: search(),
    ...rowMeta(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('expenses_date_idx').on(t.tenantId, t.date),
    index('expenses_category_idx').on(t.tenantId, t.categoryId),
    foreignKey({ columns: [t.tenantId, t.categoryId], foreignColumns: [expenseCategories.tenantId, expenseCategories.id] }),
    check('expenses_amount_check', sql`${t.amount} > 0`),
  ],
);

/**
 * How many times a centre's money has changed: triggers (0022_money_revisions.sql) add one on
 * every write to what the account and the analytics read (contracts and their months,
 * payments, expenses, categories, classes and their members, students). A report kept for a
 * centre is valid while its revision (and the centre's date) stays the same.
 */
export const moneyRevisions = pgTable('money_revisions', {
  tenantId: integer('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  revision: bigint('revision', { mode: 'number' }).notNull().default(0),
});
