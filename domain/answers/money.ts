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
  outstanding: int,
  /** collected / expected; null when nothing was expected. */
  collection_rate: z.number().nullable(),
});

/** GET /api/analytics/contracts?from=YYYY-MM&to=YYYY-MM */
export const ContractAnalyticsAnswer = dataOf(
  z.object({
    from: month,
    to: month,
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
  }),
);
