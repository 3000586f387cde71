/**
 * What a centre files: its settings (the issuer block of every receipt, the myDATA switch and
 * credentials, the reminders' schedule), its receipts and their numbering. A receipt is never
 * edited or deleted once issued: only its myDATA state (status, mark, uid, qr_url, error,
 * attempts) moves; a CREDIT receipt cancels a RECEIPT. Numbers are gapless per series: the
 * next one is taken from receipt_series inside the issuing transaction (its row lock orders
 * concurrent issues), so a rolled-back payment gives its number back.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, date, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, rowMeta } from './columns';
import { payments } from './money';
import { tenants } from './platform';
import { id, search, tenantId } from './tenant-columns';

/** One row per centre, created on first read. */
export const centreSettings = pgTable('centre_settings', {
  tenantId: integer('tenant_id')
    .primaryKey()
    .references(() => tenants.id),
  legalName: text('legal_name'),
  taxId: text('tax_id'),
  taxOffice: text('tax_office'),
  address: text('address'),
  city: text('city'),
  postalCode: text('postal_code'),
  phone: text('phone'),
  email: text('email'),
  receiptSeries: text('receipt_series').notNull().default('Α'),
  mydataEnabled: boolean('mydata_enabled').notNull().default(false),
  mydataUserId: text('mydata_user_id'),
  /** Encrypted at rest (never answered): the AADE subscription key. */
  mydataSubscriptionKey: text('mydata_subscription_key'),
  /**
   * Receipts issued before this moment are not sent to myDATA: set when ADMIN turns myDATA on
   * and chooses to send only the receipts issued from then on (the earlier ones were filed
   * some other way). Null: every receipt is sent.
   */
  mydataSince: instant('mydata_since'),
  reminderDay: integer('reminder_day').notNull().default(10),
  reminderRepeatDays: integer('reminder_repeat_days').notNull().default(7),
  /** The sender name its SMS carry (From: at most 11 letters, digits, spaces); null: the centre's name cut to fit. */
  smsSender: text('sms_sender'),
  ...rowMeta(),
});

/** The last number given in each series of a centre. */
export const receiptSeries = pgTable(
  'receipt_series',
  {
    tenantId: tenantId(),
    series: text('series').notNull(),
    lastNumber: integer('last_number').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.series] })],
);

const day = (name: string) => date(name, { mode: 'string' });

export const receipts = pgTable(
  'receipts',
  {
    tenantId: tenantId(),
    id: id(),
    series: text('series').notNull(),
    number: integer('number').notNull(),
    issuedOn: day('issued_on').notNull(),
    kind: text('kind').notNull().default('RECEIPT'),
    /** The centre as issued: legal_name, tax_id, tax_office, address, city, postal_code, phone, email. */
    issuer: jsonb('issuer').$type<Record<string, string | null>>().notNull(),
    /** The payer as issued: name, address, tax_id (and guardian_id or student_id). */
    payer: jsonb('payer').$type<Record<string, string | number | null>>().notNull(),
    /** What it pays for, line by line: {kind, month?, description, amount}. */
    lines: jsonb('lines').$type<Record<string, unknown>[]>().notNull().default([]),
    amount: integer('amount').notNull(),
    /** CASH, CREDIT_CARD or BANK_ACCOUNT, as the payment. */
    method: text('method').notNull().default('CASH'),
    status: text('status').notNull().default('ISSUED'),
    mark: text('mark'),
    uid: text('uid'),
    qrUrl: text('qr_url'),
    error: text('error'),
    cancelsReceiptId: integer('cancels_receipt_id'),
    cancelReason: text('cancel_reason'),
    /** myDATA delivery: tries so far and when the next may run. */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at'),
    sentAt: instant('sent_at'),
    search: search(),
    ...rowMeta(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('receipts_number_key').on(t.tenantId, t.series, t.number),
    index('receipts_issued_idx').on(t.tenantId, t.issuedOn, t.id),
    index('receipts_unsent_idx').on(t.tenantId, t.nextAttemptAt).where(sql`${t.status} = 'ISSUED'`),
    // One credit receipt per cancelled receipt.
    uniqueIndex('receipts_cancels_key').on(t.tenantId, t.cancelsReceiptId),
    foreignKey({ columns: [t.tenantId, t.cancelsReceiptId], foreignColumns: [t.tenantId, t.id] }),
    check('receipts_number_check', sql`${t.number} > 0`),
  ],
);

/** The payments a receipt acknowledges (one today; the link allows several). */
export const receiptPayments = pgTable(
  'receipt_payments',
  {
    tenantId: integer('tenant_id').notNull(),
    receiptId: integer('receipt_id').notNull(),
    paymentId: integer('payment_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.receiptId, t.paymentId] }),
    index('receipt_payments_payment_idx').on(t.tenantId, t.paymentId),
    foreignKey({ columns: [t.tenantId, t.receiptId], foreignColumns: [receipts.tenantId, receipts.id] }),
    // A payment with a receipt is not deleted (a credit receipt answers it instead).
    foreignKey({ columns: [t.tenantId, t.paymentId], foreignColumns: [payments.tenantId, payments.id] }),
  ],
);
