/**
 * A contract's lifecycle (docs/rules.md, Contracts): withdrawing it on a date (the student leaves:
 * the month of the date stays due, later months stop being owed) and undoing that (ADMIN only).
 * The figures follow in the database (trigger contract_figures); each change is in the history.
 */
import { and, eq, gte, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import { MANAGERS } from '../../../domain/access';
import { checkMoneyDate, DomainError, isRealDate, type FieldErrors } from '../../../domain/index';
import type { Tx } from '../../db/types';
import { contracts } from '../../db/schema/index';
import { recordHistory } from '../../engine/history';
import { findRow } from '../../engine/read';
import type { Registry } from '../../engine/registry';
import type { Ctx } from '../../engine/spec';
import { assertVersion } from '../../engine/store';
import { contractStatusSql, contractsSpec } from './spec';

const day = z.string().refine(isRealDate, { params: { code: 'invalid-format' } });
const reason = z.string().trim().min(1).max(500);

export const WithdrawBody = z.strictObject({ on: day, reason, version: z.number().int().optional() });
export const WithdrawManyBody = z.strictObject({ student_id: z.number().int().positive(), on: day, reason });
export const ReinstateBody = z.strictObject({ version: z.number().int().optional() });

/** What the history shows of a withdrawal or its undoing. */
const lifecycleView = (row: Record<string, unknown>) => ({
  status: row.status,
  withdrawn_on: row.withdrawn_on ?? null,
  withdrawal_reason: row.withdrawal_reason ?? null,
});

async function lockContractRow(tx: Tx, registry: Registry, ctx: Ctx, id: number) {
  const before = await findRow(tx, registry, ctx, contractsSpec, id, true);
  if (!before) throw new DomainError('not-found');
  return before;
}

async function setLifecycle(
  tx: Tx,
  registry: Registry,
  ctx: Ctx,
  before: Record<string, unknown>,
  values: { status: string; withdrawnOn: string | null; withdrawalReason: string | null },
) {
  const id = before.id as number;
  await tx
    .update(contracts)
    .set({ ...values, version: sql`${contracts.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(contracts.tenantId, ctx.tenantId), eq(contracts.id, id)));
  const after = await findRow(tx, registry, ctx, contractsSpec, id);
  if (!after) throw new DomainError('not-found');
  await recordHistory(tx, ctx.tenantId, ctx.actor, {
    entity: 'contracts',
    entityId: id,
    action: 'update',
    before: lifecycleView(before),
    after: lifecycleView(after),
  });
  return after;
}

/** The withdrawal date must fall within the contract. */
function checkOn(before: Record<string, unknown>, on: string) {
  const fields: FieldErrors = {};
  checkMoneyDate(fields, 'on', on);
  if (!fields.on && on < String(before.start_date)) fields.on = 'too-small';
  if (!fields.on && on > String(before.end_date)) fields.on = 'too-large';
  if (Object.keys(fields).length) throw new DomainError('validation', 'The withdrawal date must fall within the contract.', fields);
}

export async function withdrawContract(tx: Tx, registry: Registry, ctx: Ctx, id: number, body: z.infer<typeof WithdrawBody>) {
  const before = await lockContractRow(tx, registry, ctx, id);
  assertVersion(before as { version: number }, body.version);
  if (before.status !== 'ACTIVE') {
    throw new DomainError('conflict', `Only an active contract can be withdrawn; this one is ${String(before.status)}.`, undefined, {
      details: { reason: 'contract-not-active' },
    });
  }
  checkOn(before, body.on);
  return setLifecycle(tx, registry, ctx, before, { status: 'WITHDRAWN', withdrawnOn: body.on, withdrawalReason: body.reason });
}

/** Every active contract of a student running on `on` is withdrawn on it (she left); answers them. */
export async function withdrawStudent(tx: Tx, registry: Registry, ctx: Ctx, body: z.infer<typeof WithdrawManyBody>) {
  checkOn({ start_date: '0000-01-01', end_date: '9999-12-31' }, body.on);
  const rows = await tx
    .select({ id: contracts.id })
    .from(contracts)
    .where(
      and(
        eq(contracts.tenantId, ctx.tenantId),
        eq(contracts.studentId, body.student_id),
        sql`${contractStatusSql} = 'ACTIVE'`,
        lte(contracts.startDate, body.on),
        gte(contracts.endDate, body.on),
      ),
    )
    .orderBy(contracts.id);
  const out: Record<string, unknown>[] = [];
  for (const { id } of rows) out.push(await withdrawContract(tx, registry, ctx, id, { on: body.on, reason: body.reason }));
  return out;
}

export async function reinstateContract(tx: Tx, registry: Registry, ctx: Ctx, id: number, body: z.infer<typeof ReinstateBody>) {
  if (!ctx.actor || !MANAGERS.includes(ctx.actor.role)) throw new DomainError('forbidden', 'Only an administrator can undo a withdrawal.');
  const before = await lockContractRow(tx, registry, ctx, id);
  assertVersion(before as { version: number }, body.version);
  if (before.status !== 'WITHDRAWN') {
    throw new DomainError('conflict', 'Only a withdrawn contract can be reinstated.', undefined, { details: { reason: 'contract-not-withdrawn' } });
  }
  return setLifecycle(tx, registry, ctx, before, { status: 'ACTIVE', withdrawnOn: null, withdrawalReason: null });
}
