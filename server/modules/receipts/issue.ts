/**
 * Issuing receipts (docs/rules.md, Receipts). A payment "with receipt" takes the next number of
 * the centre's series in its own transaction: one UPDATE of receipt_series ... RETURNING, whose
 * row lock queues concurrent issues, so numbers are unique and gapless (a rolled-back payment
 * gives its number back). The issuer block is the centre's settings as they are at that moment:
 * a receipt is issued even when the legal name or ΑΦΜ are not filled in yet (the payment is not
 * refused at the desk); the settings screen and the receipt itself show what is missing.
 * A receipt is never edited or deleted: a CREDIT receipt (its own number in the same series)
 * cancels it, and the original turns CANCELLED.
 */
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { DomainError, normalizeSearch, portalReceiptsLink } from '../../../domain/index';
import { formatMoney } from '../../../domain/money-format';
import { paymentLineText } from '../../../domain/receipt-words';
import type { Actor } from '../../context';
import type { Tx } from '../../db/types';
import { queryRows } from '../../db/statements';
import { contracts, guardians, payments, receiptPayments, receiptSeries, receipts, students } from '../../db/schema/index';
import { recordHistory } from '../../engine/history';
import { guardianAccounts, notify } from '../notifications/create';
import { loadSettings } from '../settings/store';

export type ReceiptRow = typeof receipts.$inferSelect;

/** Takes the next number of a series (creating the series at 1), under the series row's lock. */
export async function nextNumber(tx: Tx, tenantId: number, series: string): Promise<number> {
  const [row] = await tx
    .insert(receiptSeries)
    .values({ tenantId, series, lastNumber: 1 })
    .onConflictDoUpdate({ target: [receiptSeries.tenantId, receiptSeries.series], set: { lastNumber: sql`${receiptSeries.lastNumber} + 1` } })
    .returning({ number: receiptSeries.lastNumber });
  return row!.number;
}

/** What beforeWrite reserved for a payment's receipt, until afterWrite knows the payment's id. */
export interface Reserved {
  series: string;
  number: number;
  /** The centre as the settings say when the number was taken. */
  issuer: Record<string, string | null>;
}

export const billNumberOf = (r: Reserved) => `${r.series}-${r.number}`;

/** Reserves the receipt number of a payment about to be written. */
export async function reserveReceipt(tx: Tx, tenantId: number): Promise<Reserved> {
  const s = await loadSettings(tx, tenantId);
  const issuer = {
    legal_name: s.legalName,
    tax_id: s.taxId,
    tax_office: s.taxOffice,
    address: s.address,
    city: s.city,
    postal_code: s.postalCode,
    phone: s.phone,
    email: s.email,
  };
  return { series: s.receiptSeries, number: await nextNumber(tx, tenantId, s.receiptSeries), issuer };
}

const joinParts = (...parts: (string | null | undefined)[]) =>
  parts
    .map((p) => p?.trim())
    .filter(Boolean)
    .join(', ') || null;

/** The payer of a contract: its payer guardian (name, address, ΑΦΜ) or else its student. */
async function payerBlock(tx: Tx, tenantId: number, contractId: number) {
  const [row] = await tx
    .select({
      studentId: students.id,
      studentName: sql<string>`trim(${students.firstName} || ' ' || ${students.lastName})`,
      guardianId: guardians.id,
      guardianName: sql<string | null>`trim(${guardians.firstName} || ' ' || ${guardians.lastName})`,
      address: guardians.address,
      city: guardians.city,
      postalCode: guardians.postalCode,
      taxId: guardians.taxId,
    })
    .from(contracts)
    .innerJoin(students, and(eq(students.tenantId, contracts.tenantId), eq(students.id, contracts.studentId)))
    .leftJoin(guardians, and(eq(guardians.tenantId, contracts.tenantId), eq(guardians.id, contracts.payerGuardianId)))
    .where(and(eq(contracts.tenantId, tenantId), eq(contracts.id, contractId)));
  if (!row) throw new Error(`contract ${contractId} vanished while issuing its receipt`);
  const payer =
    row.guardianId !== null
      ? {
          name: row.guardianName,
          address: joinParts(row.address, joinParts(row.postalCode, row.city)?.replace(', ', ' ')),
          tax_id: row.taxId,
          guardian_id: row.guardianId,
          student_id: row.studentId,
        }
      : { name: row.studentName, address: null, tax_id: null, guardian_id: null, student_id: row.studentId };
  return { payer, studentName: row.studentName };
}

/** Records a receipt row and its history; answers it. */
async function insertReceipt(
  tx: Tx,
  tenantId: number,
  actor: Actor | null,
  values: Omit<typeof receipts.$inferInsert, 'tenantId' | 'search'>,
  paymentIds: number[],
) {
  const payerName = String((values.payer as Record<string, unknown>).name ?? '');
  const [row] = await tx
    .insert(receipts)
    .values({ ...values, tenantId, search: normalizeSearch(`${values.series}-${values.number} ${values.number} ${payerName}`) })
    .returning();
  if (paymentIds.length) await tx.insert(receiptPayments).values(paymentIds.map((paymentId) => ({ tenantId, receiptId: row!.id, paymentId })));
  await recordHistory(tx, tenantId, actor, { entity: 'receipts', entityId: row!.id, action: 'create', after: receiptHistory(row!) });
  return row!;
}

const receiptHistory = (r: ReceiptRow) => ({
  series: r.series,
  number: r.number,
  kind: r.kind,
  issued_on: r.issuedOn,
  amount: r.amount,
  status: r.status,
  cancels_receipt_id: r.cancelsReceiptId,
  cancel_reason: r.cancelReason,
});

export interface PaymentForReceipt {
  id: number;
  contract_id: number;
  kind: string;
  month: string | null;
  amount: number;
  method: string;
  paid_on: string;
  description: string | null;
}

/** Issues the RECEIPT of a just-written payment with the number reserved for it. */
export async function issueReceipt(tx: Tx, tenantId: number, actor: Actor | null, reserved: Reserved, payment: PaymentForReceipt): Promise<ReceiptRow> {
  const issuer = reserved.issuer;
  const { payer, studentName } = await payerBlock(tx, tenantId, payment.contract_id);
  const line = {
    kind: payment.kind,
    month: payment.month,
    description: paymentLineText(payment.kind, payment.month, payment.description),
    student: studentName,
    amount: payment.amount,
  };
  const receipt = await insertReceipt(
    tx,
    tenantId,
    actor,
    {
      series: reserved.series,
      number: reserved.number,
      issuedOn: payment.paid_on,
      kind: 'RECEIPT',
      issuer,
      payer,
      lines: [line],
      amount: payment.amount,
      method: payment.method,
      status: 'ISSUED',
      nextAttemptAt: new Date(),
    },
    [payment.id],
  );
  // The guardian it is issued to finds it in her portal, when she has one.
  if (typeof payer.guardian_id === 'number') {
    await notify(tx, tenantId, [
      {
        kind: 'receipt-issued',
        params: { student: studentName ?? '', number: `${receipt.series}-${receipt.number}`, amount: formatMoney(receipt.amount) },
        link: portalReceiptsLink,
        recipients: guardianAccounts(tenantId, [payer.guardian_id]),
        dedupeKey: `receipt-issued:${receipt.id}`,
      },
    ]);
  }
  return receipt;
}

/** The receipt of a payment that still stands (a RECEIPT not cancelled), if any. */
export async function standingReceipt(tx: Tx, tenantId: number, paymentId: number): Promise<ReceiptRow | undefined> {
  const [row] = await tx
    .select({ r: receipts })
    .from(receiptPayments)
    .innerJoin(receipts, and(eq(receipts.tenantId, receiptPayments.tenantId), eq(receipts.id, receiptPayments.receiptId)))
    .where(
      and(eq(receiptPayments.tenantId, tenantId), eq(receiptPayments.paymentId, paymentId), eq(receipts.kind, 'RECEIPT'), ne(receipts.status, 'CANCELLED')),
    )
    .limit(1);
  return row?.r;
}

/** 409: the payment has a receipt that stands; a credit receipt must cancel it first. */
export function receiptStands(receipt: ReceiptRow, what: 'change' | 'delete'): DomainError {
  const number = `${receipt.series}-${receipt.number}`;
  return new DomainError(
    'conflict',
    what === 'delete'
      ? `This payment has receipt ${number}; cancel the receipt (a credit receipt) before deleting it.`
      : `This payment has receipt ${number}; cancel the receipt (a credit receipt) before changing its amount, contract, kind, month, method or date.`,
    undefined,
    { details: { reason: what === 'delete' ? 'receipt-issued-delete' : 'receipt-issued-change', receipt: number } },
  );
}

/**
 * Cancels a RECEIPT with a CREDIT receipt (11.4): the next number of the receipt's series, the
 * same issuer, payer, lines and amount (amounts stay positive: the document type says it
 * credits), cancels_receipt_id and the reason. The original turns CANCELLED; its payments are
 * refunded on the credit's day (they keep their bill number: their income stays, with receipt,
 * in the month they were paid and is taken off in this one). A payment recorded wrongly is
 * then recorded again as it should have been.
 */
export async function cancelReceipt(tx: Tx, tenantId: number, actor: Actor | null, id: number, reason: string, today: string): Promise<ReceiptRow> {
  const [original] = await tx
    .select()
    .from(receipts)
    .where(and(eq(receipts.tenantId, tenantId), eq(receipts.id, id)))
    .for('update');
  if (!original) throw new DomainError('not-found');
  if (original.kind !== 'RECEIPT') {
    throw new DomainError('conflict', 'A credit receipt cannot be cancelled.', undefined, { details: { reason: 'receipt-is-credit' } });
  }
  if (original.status === 'CANCELLED') {
    throw new DomainError('conflict', 'This receipt is already cancelled.', undefined, { details: { reason: 'receipt-cancelled' } });
  }
  const links = await tx
    .select({ paymentId: receiptPayments.paymentId })
    .from(receiptPayments)
    .where(and(eq(receiptPayments.tenantId, tenantId), eq(receiptPayments.receiptId, id)));
  const paymentIds = links.map((l) => l.paymentId);
  const number = await nextNumber(tx, tenantId, original.series);
  const credit = await insertReceipt(
    tx,
    tenantId,
    actor,
    {
      series: original.series,
      number,
      issuedOn: today,
      kind: 'CREDIT',
      issuer: original.issuer,
      payer: original.payer,
      lines: original.lines,
      amount: original.amount,
      method: original.method,
      status: 'ISSUED',
      nextAttemptAt: new Date(),
      cancelsReceiptId: original.id,
      cancelReason: reason,
    },
    paymentIds,
  );
  const [cancelled] = await tx
    .update(receipts)
    .set({ status: 'CANCELLED', version: sql`${receipts.version} + 1`, updatedAt: new Date() })
    .where(and(eq(receipts.tenantId, tenantId), eq(receipts.id, id)))
    .returning();
  await recordHistory(tx, tenantId, actor, {
    entity: 'receipts',
    entityId: id,
    action: 'update',
    before: receiptHistory(original),
    after: receiptHistory(cancelled!),
  });
  if (paymentIds.length) await refundPayments(tx, tenantId, actor, paymentIds, today);
  return credit;
}

/**
 * Marks payments refunded on `day` (docs/rules.md, Receipts): they stop paying their contract
 * (its figures follow, by the database's trigger) and stay in the books of their month, taken
 * off in the month of the refund.
 */
export async function refundPayments(tx: Tx, tenantId: number, actor: Actor | null, paymentIds: number[], day: string, reason?: string) {
  const rows = await tx
    .update(payments)
    .set({ refundedOn: day, version: sql`${payments.version} + 1`, updatedAt: new Date() })
    .where(and(eq(payments.tenantId, tenantId), inArray(payments.id, paymentIds), isNull(payments.refundedOn)))
    .returning({ id: payments.id });
  for (const p of rows) {
    await recordHistory(tx, tenantId, actor, {
      entity: 'payments',
      entityId: p.id,
      action: 'update',
      before: { refunded_on: null },
      after: { refunded_on: day, ...(reason ? { refund_reason: reason } : {}) },
    });
  }
}

/** The centre's date (YYYY-MM-DD) as its reports reckon it (FRONTIS_TODAY included): the day of a refund. */
export async function centreDay(tx: Tx, tenantId: number): Promise<string> {
  const [row] = await queryRows<{ today: string }>(tx, sql`select to_char(centre_today(${tenantId}), 'YYYY-MM-DD') as today`);
  return row!.today;
}
