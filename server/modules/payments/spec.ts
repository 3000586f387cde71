/**
 * Payments against a contract. Before a payment is written its contract is locked (FOR
 * UPDATE), then what is still owed for its kind and month is read: payments sent at the same
 * moment queue on that lock and each sees the ones before it, so exactly those that fit
 * succeed. The contract's figures follow in the same statement (a database trigger).
 */
import { and, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { checkPaymentShape, contractMonths, DomainError, PAYMENTS, stillOwed, type ListQuery, type PaymentKind } from '../../../domain/index';
import type { Tx } from '../../db/types';
import { payments, receiptPayments } from '../../db/schema/index';
import { recordHistory } from '../../engine/history';
import { historyView } from '../../engine/write';
import { lockContract } from '../contracts/spec';
import { billNumberOf, issueReceipt, receiptStands, reserveReceipt, standingReceipt, type PaymentForReceipt, type Reserved } from '../receipts/issue';
import type { ResourceSpec } from '../../engine/spec';

/** Fields an issued receipt states: a payment whose receipt stands keeps them. */
const FISCAL_FIELDS = ['contract_id', 'kind', 'month', 'amount', 'method', 'paid_on', 'with_receipt'] as const;

/** The number beforeWrite took for a payment's receipt, until afterWrite knows the payment's id. */
const reservedFor = new WeakMap<Record<string, unknown>, Reserved>();

/** `with_receipt=true|false`: a receipt number was given or not. */
export function receiptWhere(billNumber: SQL, query: ListQuery): SQL[] {
  const filter = query.filters.find((f) => f.field === 'with_receipt');
  if (!filter) return [];
  const wanted = filter.op === 'ne' ? filter.values.map((v) => !v) : filter.values;
  if (wanted.includes(true) && wanted.includes(false)) return [];
  return [wanted[0] ? sql`${billNumber} is not null` : sql`${billNumber} is null`];
}

async function paidSoFar(tx: Tx, tenantId: number, contractId: number, kind: PaymentKind, month: string | null, leaveOut: number | undefined) {
  const [row] = await tx
    .select({ paid: sql<number>`coalesce(sum(${payments.amount}), 0)`.mapWith(Number) })
    .from(payments)
    .where(
      and(
        eq(payments.tenantId, tenantId),
        eq(payments.contractId, contractId),
        eq(payments.kind, kind),
        // A refunded payment pays nothing: its month or registration is owed again.
        isNull(payments.refundedOn),
        month === null ? undefined : eq(payments.month, month),
        leaveOut === undefined ? undefined : ne(payments.id, leaveOut),
      ),
    );
  return row?.paid ?? 0;
}

/** 409: a refunded payment stays in the books as it was (its month's income and its refund). */
export const paymentRefunded = (what: 'change' | 'delete' | 'refund') =>
  new DomainError(
    'conflict',
    what === 'refund'
      ? 'This payment is already refunded.'
      : `This payment is refunded; it stays in the books as it was and cannot be ${what === 'delete' ? 'deleted' : 'changed'}.`,
    undefined,
    { details: { reason: what === 'refund' ? 'payment-refunded' : `payment-refunded-${what}` } },
  );

export const paymentsSpec: ResourceSpec = {
  def: PAYMENTS,
  table: payments,
  label: sql`coalesce(payments.bill_number, '#' || payments.id::text)`,
  computed: { student_id: sql<number>`(select c.student_id from contracts c where c.tenant_id = payments.tenant_id and c.id = payments.contract_id)` },
  shown: {
    student: sql`(select json_build_object('id', s.id, 'name', trim(s.first_name || ' ' || s.last_name)) from contracts c join students s on s.tenant_id = c.tenant_id and s.id = c.student_id where c.tenant_id = payments.tenant_id and c.id = payments.contract_id)`,
    // The receipt that stands for it (not cancelled), or null.
    receipt_id: sql<
      number | null
    >`(select r.id from receipt_payments rp join receipts r on r.tenant_id = rp.tenant_id and r.id = rp.receipt_id where rp.tenant_id = payments.tenant_id and rp.payment_id = payments.id and r.kind = 'RECEIPT' and r.status <> 'CANCELLED' order by r.id desc limit 1)`,
  },
  unique: { payments_bill_number_key: 'bill_number' },
  totals: {
    amount: sql`sum(${payments.amount})`,
    with_receipt: sql`sum(${payments.amount}) filter (where ${payments.billNumber} is not null)`,
    without_receipt: sql`sum(${payments.amount}) filter (where ${payments.billNumber} is null)`,
  },
  async beforeWrite({ tx, ctx, input, before }) {
    const extra: Record<string, unknown> = {};
    if (before) {
      const receipt = await standingReceipt(tx, ctx.tenantId, before.id);
      const changes = FISCAL_FIELDS.filter((f) => f in input && input[f] !== before[f]);
      if (receipt && changes.length) throw receiptStands(receipt, 'change');
      if (before.refunded_on && changes.length) throw paymentRefunded('change');
    }
    // A payment that stops being MONTHLY drops its month.
    if (before && 'kind' in input && input.kind !== 'MONTHLY' && !('month' in input)) extra.month = null;
    const next = { ...(before ?? {}), ...input, ...extra } as Record<string, unknown>;
    const shape = checkPaymentShape(next);
    if (Object.keys(shape).length) throw new DomainError('validation', 'The payment is not valid.', shape);

    const contractId = next.contract_id as number;
    const terms = await lockContract(tx, ctx.tenantId, contractId);
    if (!terms) throw new DomainError('validation', 'A referenced record does not exist.', { contract_id: 'invalid' });
    const kind = next.kind as PaymentKind;
    const month = (next.month as string | null | undefined) ?? null;
    if (kind === 'MONTHLY' && !contractMonths(terms).includes(month!)) {
      throw new DomainError('validation', `The contract does not cover ${month}.`, { month: 'invalid-option' });
    }
    const paid = await paidSoFar(tx, ctx.tenantId, contractId, kind, month, before?.id);
    const owed = stillOwed(terms, [{ kind, month, amount: paid }], kind, month);
    const amount = next.amount as number;
    if (amount > owed) {
      throw new DomainError('conflict', `This payment exceeds what is still owed (${owed} cents).`, { amount: 'too-large' }, { details: { owed } });
    }
    // "With receipt" unless said otherwise: as its contract.
    if (next.with_receipt === undefined || next.with_receipt === null) extra.with_receipt = terms.with_receipt;
    const withReceipt = (next.with_receipt ?? terms.with_receipt) as boolean;
    // A receipt is issued on a create with receipt, or when an update turns it on.
    if (withReceipt && before?.with_receipt !== true) {
      const reserved = await reserveReceipt(tx, ctx.tenantId);
      reservedFor.set(input, reserved);
      extra.bill_number = billNumberOf(reserved);
    }
    return extra;
  },
  async afterWrite({ tx, ctx, input, after }) {
    const reserved = reservedFor.get(input);
    if (!reserved) return;
    reservedFor.delete(input);
    const receipt = await issueReceipt(tx, ctx.tenantId, ctx.actor, reserved, after as unknown as PaymentForReceipt);
    after.receipt_id = receipt.id;
  },
  async remove(tx, ctx, before) {
    const receipt = await standingReceipt(tx, ctx.tenantId, before.id);
    if (receipt) throw receiptStands(receipt, 'delete');
    if (before.refunded_on) throw paymentRefunded('delete');
    // A cancelled receipt keeps its payer, lines and amount; only its link to the payment goes.
    await tx.delete(receiptPayments).where(and(eq(receiptPayments.tenantId, ctx.tenantId), eq(receiptPayments.paymentId, before.id)));
    await tx.delete(payments).where(and(eq(payments.tenantId, ctx.tenantId), eq(payments.id, before.id)));
    await recordHistory(tx, ctx.tenantId, ctx.actor, {
      entity: PAYMENTS.name,
      entityId: before.id,
      action: 'delete',
      before: historyView(paymentsSpec, before),
    });
  },
};
