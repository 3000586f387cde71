/** The answers of the account, the analytics and a contract's status (integer cents, months YYYY-MM). */
import { z } from 'zod';
import { PAYMENT_KINDS } from '../enums';
import { dataOf, date, int, month, RecordRow } from './shape';

/** An amount split by receipt: given (bill_number / with_receipt) or not. */
export const ReceiptSplitSchema = z.object({ with_receipt: int, without_receipt: int, total: int });

const figures = { income: ReceiptSplitSchema, expenses: ReceiptSplitSchema, expected: ReceiptSplitSchema, net: ReceiptSplitSchema };

/** The account's figures of one month: income, expenses, what contracts owe, and income less expenses. */
export const MonthFiguresSchema = z.object({ month, ...figures });

/** GET /api/account/month?month=YYYY-MM */
export const AccountMonthAnswer = dataOf(MonthFiguresSchema);

/** GET /api/account/year?year=YYYY: twelve months side by side and their totals. */
export const AccountYearAnswer = dataOf(z.object({ year: int, months: z.array(MonthFiguresSchema), totals: z.object(figures) }));

/** What contracts of one category or class expected, collected and still owe. */
export const OutstandingSchema = z.object({ id: int.nullable(), name: z.string().nullable(), expected: int, collected: int, outstanding: int });

export const AnalyticsMonthSchema = z.object({
  month,
  new_contracts: int,
  active_contracts: int,
  expected: int,
  collected: int,
  /** expected - collected for a due month; 0 for a month not yet due. */
  outstanding: int,
  /** collected / expected; null when nothing was expected or the month is not yet due. */
  collection_rate: z.number().nullable(),
  /** Whether the month is due (from its first day, in the centre's time zone). */
  due: z.boolean(),
});

/** GET /api/analytics/contracts?from=YYYY-MM&to=YYYY-MM */
export const ContractAnalyticsAnswer = dataOf(
  z.object({
    from: month,
    to: month,
    /** The last due month of the range (outstanding and rates count up to it); null when none is due yet. */
    due_until: month.nullable(),
    months: z.array(AnalyticsMonthSchema),
    by_category: z.array(OutstandingSchema),
    by_class: z.array(OutstandingSchema),
  }),
);

/** A line of a contract's status: the registration (in its start month) or one month. */
export const StatusLineSchema = z.object({ kind: z.enum(['REGISTER', 'MONTHLY']), month, owed: int, paid: int, left: int });

/** A payment as a contract's status lists it. */
export const StatusPaymentSchema = z.object({
  id: int,
  kind: z.enum(PAYMENT_KINDS),
  month: month.nullable(),
  amount: int,
  bill_number: z.string().nullable(),
  paid_on: date,
  /** The day it was refunded; null while it pays. */
  refunded_on: date.nullable(),
});

/** GET /api/contracts/:id/status: the contract (its CRUD row) month by month, its extra charges and payments. */
export const ContractStatusAnswer = dataOf(
  z.object({
    contract: RecordRow,
    lines: z.array(StatusLineSchema),
    extras: z.array(StatusPaymentSchema),
    payments: z.array(StatusPaymentSchema),
    total_cost: int,
    total_paid: int,
    rest: int,
    /** Payments for months after a withdrawal: money to refund. */
    credit: int,
    /** Payments given back (a credit receipt, or a refund without receipt): no longer paid. */
    refunded: int,
  }),
);

/** A reminder of unpaid months written for a contract's payer (its e-mail in the outbox). */
export const ContractReminderSchema = z.object({
  id: int,
  recipient: z.string(),
  guardian_id: int.nullable(),
  guardian_name: z.string().nullable(),
  subject: z.string(),
  body: z.string(),
  /** The due unpaid months it named, and what they still owed (cents). */
  months: z.array(month),
  amount: int,
  /** ISO instants: when it was written, sent (null until then), or cancelled. */
  created_at: z.string(),
  sent_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  attempts: int,
  last_error: z.string().nullable(),
});

/** GET /api/contracts/:id/reminders (ADMIN): the reminders written for the contract, newest first. */
export const ContractRemindersAnswer = dataOf(z.array(ContractReminderSchema));
