import { CONTRACT_STATUSES, PAYMENT_KINDS, PAYMENT_METHODS } from '../enums';
import { defineResource, type FieldDef } from '../fields';

// The centre's money: contracts (what a family agreed to pay), payments against them and the
// centre's expenses. Amounts are integer euro cents (MONEY); the read-only figures of a
// contract are kept by the database from its payments.
// The helpers keep each field's name and options as literals, so a row's type derives from the declaration (RowOf).
const money = <const N extends string, const E extends Partial<FieldDef> = Record<never, never>>(name: N, extra?: E) =>
  ({ name, type: 'MONEY', sortable: true, filterable: true, ...(extra as E) }) as const;
const figure = <const N extends string>(name: N) => money(name, { readOnly: true });
const method = { name: 'method', type: 'ENUM', options: PAYMENT_METHODS, default: 'CASH', sortable: true, filterable: true } as const satisfies FieldDef;
/** Receipt number; empty means without receipt. */
const billNumber = { name: 'bill_number', type: 'TEXT', max: 30, sortable: true, filterable: true, searchable: true } as const satisfies FieldDef;

export const CONTRACTS = defineResource({
  name: 'contracts',
  area: 'contracts',
  fields: [
    { name: 'student_id', type: 'REFERENCE', reference: 'students', required: true, sortable: true, filterable: true },
    { name: 'category_id', type: 'REFERENCE', reference: 'contract-categories', sortable: true, filterable: true },
    { name: 'start_date', type: 'DATE', required: true, sortable: true, filterable: true },
    { name: 'end_date', type: 'DATE', required: true, sortable: true, filterable: true },
    money('register_cost', { default: 0 }),
    money('month_cost', { required: true }),
    { name: 'with_receipt', type: 'BOOLEAN', default: true, sortable: true, filterable: true },
    { name: 'notes', type: 'LONG_TEXT', max: 5000, searchable: true, personal: true },
    { name: 'payer_guardian_id', type: 'REFERENCE', reference: 'guardians', sortable: true, filterable: true },
    { name: 'discount_percent', type: 'NUMBER', integer: true, min: 0, max: 100, default: 0, sortable: true, filterable: true },
    { name: 'status', type: 'ENUM', options: CONTRACT_STATUSES, default: 'ACTIVE', readOnly: true, sortable: true, filterable: true },
    { name: 'withdrawn_on', type: 'DATE', readOnly: true, sortable: true, filterable: true },
    { name: 'withdrawal_reason', type: 'TEXT', max: 500, readOnly: true, personal: true },
    { name: 'reminders_enabled', type: 'BOOLEAN', default: true, filterable: true },
    figure('total_cost'),
    figure('total_paid'),
    figure('rest'),
    figure('extra_total'),
    // Payments for months after a withdrawal: money to refund.
    figure('credit'),
    // Payments given back (a credit receipt, or a refund without receipt): no longer paid.
    figure('refunded'),
    { name: 'is_register_paid', type: 'BOOLEAN', readOnly: true, sortable: true, filterable: true },
  ],
  defaultSort: [
    { field: 'start_date', order: 'desc' },
    { field: 'id', order: 'desc' },
  ],
  screen: {
    order: 60,
    route: '/contracts/',
    entity: 'contract',
    // Beside the drawers: `?mode=status&contract=ID` (month by month) and `?mode=filter`, and
    // `contract_type=true|false` for contracts with or without receipt.
    modes: ['create', 'update', 'view'],
    icon: 'file-text',
    page: 'contracts',
    titleFields: ['start_date', 'end_date'],
    listFields: ['student_id', 'category_id', 'start_date', 'end_date', 'month_cost', 'total_cost', 'total_paid', 'rest', 'is_register_paid', 'status'],
  },
});

export const PAYMENTS = defineResource({
  name: 'payments',
  area: 'payments',
  fields: [
    // A payment stays with its contract; a wrong one is deleted and recorded again.
    { name: 'contract_id', type: 'REFERENCE', reference: 'contracts', required: true, createOnly: true, sortable: true, filterable: true },
    { name: 'kind', type: 'ENUM', options: PAYMENT_KINDS, required: true, sortable: true, filterable: true },
    // YYYY-MM, for MONTHLY only (checked with the kind).
    { name: 'month', type: 'TEXT', min: 7, max: 7, sortable: true, filterable: true },
    money('amount', { required: true, min: 1 }),
    method,
    // A receipt is issued in the same transaction (docs/rules.md, Receipts); absent: the contract's with_receipt.
    { name: 'with_receipt', type: 'BOOLEAN', sortable: true, filterable: true },
    // The issued receipt's "<series>-<number>", never typed.
    { ...billNumber, readOnly: true },
    { name: 'paid_on', type: 'DATE', required: true, sortable: true, filterable: true },
    // The day it was refunded (POST /api/payments/:id/refund, or its receipt's cancel): it no longer pays.
    { name: 'refunded_on', type: 'DATE', readOnly: true, sortable: true, filterable: true },
    { name: 'description', type: 'TEXT', max: 500, searchable: true },
    // The contract's student, for lists across contracts (no `reference`: it is not stored here).
    { name: 'student_id', type: 'REFERENCE', readOnly: true, sortable: true, filterable: true },
  ],
  defaultSort: [
    { field: 'paid_on', order: 'desc' },
    { field: 'id', order: 'desc' },
  ],
  // Listed inside a contract, a student and the account rather than on a page of their own.
  screen: {
    order: 70,
    route: '/contracts/payments',
    entity: 'payment',
    modes: ['create', 'update', 'view'],
    icon: 'euro',
    hidden: true,
    titleFields: ['bill_number', 'paid_on'],
  },
});

export const EXPENSE_CATEGORIES = defineResource({
  name: 'expense-categories',
  area: 'expenses',
  fields: [{ name: 'name', type: 'TEXT', required: true, max: 100, sortable: true, filterable: true, searchable: true }],
  defaultSort: [{ field: 'name', order: 'asc' }],
  screen: { order: 160, route: '/account/settings', entity: 'category', modes: ['create', 'update'], icon: 'tags', group: 'settings', opensFor: 'writers' },
});

export const EXPENSES = defineResource({
  name: 'expenses',
  area: 'expenses',
  fields: [
    { name: 'date', type: 'DATE', required: true, sortable: true, filterable: true },
    money('amount', { required: true, min: 1 }),
    { name: 'description', type: 'TEXT', max: 500, sortable: true, filterable: true, searchable: true },
    { name: 'category_id', type: 'REFERENCE', reference: 'expense-categories', sortable: true, filterable: true },
    method,
    billNumber,
  ],
  defaultSort: [
    { field: 'date', order: 'desc' },
    { field: 'id', order: 'desc' },
  ],
  // The account's screen: its Month and Year tabs around the expenses list.
  screen: {
    order: 80,
    route: '/account/',
    entity: 'expense',
    modes: ['create', 'update', 'view'],
    icon: 'account-book',
    page: 'account',
    titleFields: ['date', 'description'],
  },
});
