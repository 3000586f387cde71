/**
 * Payments against a contract. Before a payment is written its contract is locked (FOR
 * UPDATE), then what is still owed for its kind and month is read: payments sent at the same
 * moment queue on that lock and each sees the ones before it, so exactly those that fit
 * succeed. The contract's figures follow in the same statement (a database trigger).
 */
import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import { checkPaymentShape, contractMonths, DomainError, PAYMENTS, stillOwed, type FieldDef, type ListQuery, type PaymentKind } from '../../../domain/index';
import type { Tx } from '../../db/client';
import { payments } from '../../db/schema/index';
import { lockContract } from '../contracts/spec';
import type { ListExtras, ResourceSpec } from '../../engine/spec';

const WITH_RECEIPT: FieldDef = { name: 'with_receipt', type: 'BOOLEAN', filterable: true };

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
        month === null ? undefined : eq(payments.month, month),
        leaveOut === undefined ? undefined : ne(payments.id, leaveOut),
      ),
    );
  return row?.paid ?? 0;
}

export const paymentsSpec: ResourceSpec = {
  def: PAYMENTS,
  table: payments,
  label: sql`coalesce(payments.bill_number, '#' || payments.id::text)`,
  computed: { student_id: sql<number>`(select c.student_id from contracts c where c.tenant_id = payments.tenant_id and c.id = payments.contract_id)` },
  shown: {
    student: sql`(select json_build_object('id', s.id, 'name', trim(s.first_name || ' ' || s.last_name)) from contracts c join students s on s.tenant_id = c.tenant_id and s.id = c.student_id where c.tenant_id = payments.tenant_id and c.id = payments.contract_id)`,
    with_receipt: sql<boolean>`(payments.bill_number is not null)`,
  },
  unique: { payments_bill_number_key: 'bill_number' },
  totals: {
    amount: sql`sum(${payments.amount})`,
    with_receipt: sql`sum(${payments.amount}) filter (where ${payments.billNumber} is not null)`,
    without_receipt: sql`sum(${payments.amount}) filter (where ${payments.billNumber} is null)`,
  },
  async listExtras(): Promise<ListExtras> {
    return { fields: [WITH_RECEIPT], where: (query) => receiptWhere(sql`${payments.billNumber}`, query) };
  },
  async beforeWrite({ tx, ctx, input, before }) {
    const extra: Record<string, unknown> = {};
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
    return extra;
  },
};
