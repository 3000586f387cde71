// The centre's money rules, shared by the server (checks before a write, the contract's
// month-by-month status) and the client (forms, figures). Money is integer euro cents;
// dates are YYYY-MM-DD, months YYYY-MM. The database keeps the same figures on each contract
// row (see the contracts' trigger); these functions are the reference they are tested against.
import type { z } from 'zod';
import type { MonthFiguresSchema, ReceiptSplitSchema, StatusLineSchema } from './answers/money';
import type { FieldErrors } from './errors';
import { isRealDate } from './fields';
import type { PaymentKind } from './enums';

/** Dates a contract, payment or expense may carry: far enough either way for any centre's books. */
export const MONEY_DATE_MIN = '2000-01-01';
export const MONEY_DATE_MAX = '2099-12-31';
/** A contract covers at most five years: a longer one is a typing mistake. */
export const MAX_CONTRACT_MONTHS = 60;
/** Reports (account year, analytics) span at most three years of months. */
export const MAX_REPORT_MONTHS = 36;

const MONTH_RE = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** A real YYYY-MM within the books' range. */
export const isMonth = (s: unknown): boolean => typeof s === 'string' && MONTH_RE.test(s) && s >= MONEY_DATE_MIN.slice(0, 7) && s <= MONEY_DATE_MAX.slice(0, 7);

export const monthOf = (date: string) => date.slice(0, 7);

/** The month after `month` (YYYY-MM). */
export function nextMonth(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/** First day of a month and first day of the next: the half-open range of its dates. */
export const monthRange = (month: string) => ({ first: `${month}-01`, next: `${nextMonth(month)}-01` });

/** Every month from `from` to `to`, both included (YYYY-MM); empty when `to` is before `from`. */
export function monthsFromTo(from: string, to: string): string[] {
  const out: string[] = [];
  for (let m = from; m <= to; m = nextMonth(m)) out.push(m);
  return out;
}

/** The months a contract covers: from its start date's month to its end date's month. */
export const contractMonths = (terms: Pick<ContractTerms, 'start_date' | 'end_date'>) => monthsFromTo(monthOf(terms.start_date), monthOf(terms.end_date));

export interface ContractTerms {
  start_date: string;
  end_date: string;
  register_cost: number;
  month_cost: number;
  with_receipt?: boolean;
  /** 0-100, taken off each month's fee (0 when absent). */
  discount_percent?: number;
  /** ACTIVE (the default), WITHDRAWN or COMPLETED. */
  status?: string;
  /** The withdrawal's date: its month is the last one a WITHDRAWN contract owes. */
  withdrawn_on?: string | null;
}

/** docs/rules.md, Contracts: a month's fee is month_cost less discount_percent, rounded to the cent. */
export const monthFee = (terms: Pick<ContractTerms, 'month_cost' | 'discount_percent'>) =>
  Math.round((terms.month_cost * (100 - (terms.discount_percent ?? 0))) / 100);

/** The last month a contract owes: its end month, or the month of its withdrawal. */
export function lastOwedMonth(terms: Pick<ContractTerms, 'end_date' | 'status' | 'withdrawn_on'>): string {
  const end = monthOf(terms.end_date);
  if (terms.status !== 'WITHDRAWN' || !terms.withdrawn_on) return end;
  const withdrawn = monthOf(terms.withdrawn_on);
  return withdrawn < end ? withdrawn : end;
}

/** The months a contract owes: its months up to the last owed one (a withdrawal's month included). */
export const owedMonths = (terms: Pick<ContractTerms, 'start_date' | 'end_date' | 'status' | 'withdrawn_on'>) =>
  monthsFromTo(monthOf(terms.start_date), lastOwedMonth(terms));

/** A month is due from its first day: the months up to `today`'s (YYYY-MM-DD). */
export const isDue = (month: string, today: string) => month <= monthOf(today);

export interface PaymentLine {
  kind: PaymentKind;
  /** YYYY-MM for MONTHLY, null otherwise. */
  month?: string | null;
  amount: number;
  /** Receipt number; empty means the payment was taken without a receipt. */
  bill_number?: string | null;
  /** The day it was refunded (a credit receipt or a refund without receipt): it no longer pays anything. */
  refunded_on?: string | null;
}

/** The payments that still pay: a refunded one is given back (docs/rules.md, Receipts). */
export const standing = <P extends PaymentLine>(payments: readonly P[]): P[] => payments.filter((p) => !p.refunded_on);

export interface ContractFigures {
  month_count: number;
  register_paid: number;
  extra_total: number;
  total_cost: number;
  total_paid: number;
  rest: number;
  is_register_paid: boolean;
  /** Months owed and not paid: only the due ones when the figures are taken on a day. */
  unpaid_months: string[];
  /** MONTHLY payments for months after a withdrawal: money to refund, not counted against what it owes. */
  credit: number;
  /** Payments given back: no longer paid, nor credit to refund. */
  refunded: number;
}

const sum = (payments: readonly PaymentLine[], keep: (p: PaymentLine) => boolean) => payments.reduce((n, p) => (keep(p) ? n + p.amount : n), 0);

/** What MONTHLY payments have reached for `month`. */
export const paidForMonth = (payments: readonly PaymentLine[], month: string) => sum(payments, (p) => p.kind === 'MONTHLY' && p.month === month);

/**
 * docs/rules.md, Contracts: total_cost = register_cost + month_cost x months + extra charges; total_paid = every
 * payment; rest = the difference. A month is paid once its MONTHLY payments reach month_cost,
 * the registration once REGISTER payments reach register_cost.
 */
export function contractFigures(terms: ContractTerms, all: readonly PaymentLine[], today?: string): ContractFigures {
  const payments = standing(all);
  const refunded = sum(all, (p) => !!p.refunded_on);
  const months = owedMonths(terms);
  const fee = monthFee(terms);
  const last = lastOwedMonth(terms);
  const register_paid = sum(payments, (p) => p.kind === 'REGISTER');
  const extra_total = sum(payments, (p) => p.kind === 'EXTRA');
  const total_cost = terms.register_cost + fee * months.length + extra_total;
  const total_paid = sum(payments, () => true);
  const credit = sum(payments, (p) => p.kind === 'MONTHLY' && typeof p.month === 'string' && p.month > last);
  return {
    month_count: months.length,
    register_paid,
    extra_total,
    total_cost,
    total_paid,
    rest: total_cost - (total_paid - credit),
    is_register_paid: register_paid >= terms.register_cost,
    unpaid_months: months.filter((m) => paidForMonth(payments, m) < fee && (today === undefined || isDue(m, today))),
    credit,
    refunded,
  };
}

/**
 * What a new payment of `kind` (and `month`) may still be at most, given the payments already
 * made (leave out the one being corrected). An EXTRA payment is a charge paid as it is made,
 * so nothing bounds it but the money type; a month outside the contract owes nothing.
 */
export function stillOwed(terms: ContractTerms, all: readonly PaymentLine[], kind: PaymentKind, month?: string | null): number {
  const payments = standing(all);
  if (kind === 'EXTRA') return Number.POSITIVE_INFINITY;
  if (kind === 'REGISTER') return Math.max(0, terms.register_cost - sum(payments, (p) => p.kind === 'REGISTER'));
  if (!month || !owedMonths(terms).includes(month)) return 0;
  return Math.max(0, monthFee(terms) - paidForMonth(payments, month));
}

/** A line of a contract's status (answers/money.ts). */
export type StatusLine = z.infer<typeof StatusLineSchema>;

/** The contract month by month: the registration (in the start month), then each month. */
export function contractLines(terms: ContractTerms, all: readonly PaymentLine[]): StatusLine[] {
  const payments = standing(all);
  const registerPaid = sum(payments, (p) => p.kind === 'REGISTER');
  const lines: StatusLine[] = [
    {
      kind: 'REGISTER',
      month: monthOf(terms.start_date),
      owed: terms.register_cost,
      paid: registerPaid,
      left: Math.max(0, terms.register_cost - registerPaid),
    },
  ];
  const fee = monthFee(terms);
  for (const month of owedMonths(terms)) {
    const paid = paidForMonth(payments, month);
    lines.push({ kind: 'MONTHLY', month, owed: fee, paid, left: Math.max(0, fee - paid) });
  }
  return lines;
}

/**
 * Lines whose payments exceed what the terms owe (after a change of costs or dates): the
 * change is refused rather than leaving a month paid twice over.
 */
export function overpaidLines(terms: ContractTerms, all: readonly PaymentLine[]): string[] {
  const payments = standing(all);
  const months = new Set(contractMonths(terms));
  const out: string[] = [];
  if (sum(payments, (p) => p.kind === 'REGISTER') > terms.register_cost) out.push('REGISTER');
  const paidMonths = new Set(payments.filter((p) => p.kind === 'MONTHLY' && p.month).map((p) => p.month as string));
  // After a withdrawal, payments for the later months are credit to refund, not an excess.
  const owed = new Set(owedMonths(terms));
  const fee = monthFee(terms);
  for (const m of [...paidMonths].sort()) {
    if (!months.has(m) || (owed.has(m) && paidForMonth(payments, m) > fee)) out.push(m);
  }
  return out;
}

/** An amount split by receipt: given (bill_number / with_receipt) or not (answers/money.ts). */
export type ReceiptSplit = z.infer<typeof ReceiptSplitSchema>;

/** The account's figures of one month (YYYY-MM): income, expenses, what contracts owe, and income less expenses. */
export type MonthFigures = z.infer<typeof MonthFiguresSchema>;

export const split = (withReceipt: number, withoutReceipt: number): ReceiptSplit => ({
  with_receipt: withReceipt,
  without_receipt: withoutReceipt,
  total: withReceipt + withoutReceipt,
});

export const hasReceipt = (billNumber: string | null | undefined) => typeof billNumber === 'string' && billNumber.trim() !== '';

/** Income or expenses split by whether each carried a receipt number. */
export function splitByReceipt(items: ReadonlyArray<{ amount: number; bill_number?: string | null }>): ReceiptSplit {
  let w = 0;
  let wo = 0;
  for (const i of items) {
    if (hasReceipt(i.bill_number)) w += i.amount;
    else wo += i.amount;
  }
  return split(w, wo);
}

/** docs/rules.md, Account, for one contract: its fee in each month it owes, plus register_cost in its start month. */
export function dueInMonth(terms: ContractTerms, month: string): number {
  if (month < monthOf(terms.start_date) || month > lastOwedMonth(terms)) return 0;
  return monthFee(terms) + (month === monthOf(terms.start_date) ? terms.register_cost : 0);
}

/** docs/rules.md, Account: what the contracts owe for `month`, split by the contracts' with_receipt. */
export function expectedForMonth(contracts: readonly ContractTerms[], month: string): ReceiptSplit {
  let w = 0;
  let wo = 0;
  for (const c of contracts) {
    const due = dueInMonth(c, month);
    if (c.with_receipt === false) wo += due;
    else w += due;
  }
  return split(w, wo);
}

const inBooks = (date: string) => date >= MONEY_DATE_MIN && date <= MONEY_DATE_MAX;

/** A date field of a money record: a real date within the books' range. */
export function checkMoneyDate(fields: FieldErrors, name: string, value: unknown) {
  if (value === undefined || value === null) return;
  if (typeof value !== 'string' || !isRealDate(value)) fields[name] = 'invalid-format';
  else if (value < MONEY_DATE_MIN) fields[name] = 'too-small';
  else if (value > MONEY_DATE_MAX) fields[name] = 'too-large';
}

/** A contract's dates as they will be stored: in range, ending on or after the start, at most MAX_CONTRACT_MONTHS. */
export function checkContractTerms(terms: Partial<ContractTerms>): FieldErrors {
  const fields: FieldErrors = {};
  checkMoneyDate(fields, 'start_date', terms.start_date);
  checkMoneyDate(fields, 'end_date', terms.end_date);
  if (!fields.start_date && !fields.end_date && terms.start_date && terms.end_date) {
    if (terms.end_date < terms.start_date) fields.end_date = 'too-small';
    else if (!inBooks(terms.end_date) || contractMonths(terms as ContractTerms).length > MAX_CONTRACT_MONTHS) fields.end_date = 'too-large';
  }
  return fields;
}

/** A payment's kind and month agree: MONTHLY names its month, the others none. */
export function checkPaymentShape(payment: { kind?: unknown; month?: unknown; paid_on?: unknown }): FieldErrors {
  const fields: FieldErrors = {};
  if (payment.kind === 'MONTHLY') {
    if (payment.month === undefined || payment.month === null) fields.month = 'required';
    else if (!isMonth(payment.month)) fields.month = 'invalid-format';
  } else if (payment.month !== undefined && payment.month !== null) {
    fields.month = 'invalid';
  }
  checkMoneyDate(fields, 'paid_on', payment.paid_on);
  return fields;
}
