/**
 * Bulk creates for imports (a spec's `imports.bulk`): rows already checked (body, references,
 * the spec's import check) go in batches of 500, each batch one insert of the rows, one per
 * join table and one of the history, so 5,000 students take a few dozen statements rather
 * than several per row. No hook runs per row: the import's check stands in for beforeWrite.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../db/types';
import { history } from '../db/schema/index';
import { recordHistoryMany } from './history';
import type { Ctx, ResourceSpec } from './spec';
import { tableColumns } from './table';
import { columnValues, historyView, linkRow, searchText, uniqueTaken } from './write';

const BATCH = 500;

/** As reads show a REFERENCES list (server/engine/read.ts), so later history entries compare alike. */
const sortedIds = (v: unknown) => [...((v as number[] | null | undefined) ?? [])].sort((a, b) => a - b);

export async function createMany(tx: Tx, ctx: Ctx, spec: ResourceSpec, inputs: readonly Record<string, unknown>[]): Promise<number[]> {
  const created: number[] = [];
  if (spec.afterWrite || spec.secrets || spec.def.scope === 'platform') throw new Error(`${spec.def.name} has write hooks a bulk import would skip`);
  const cols = tableColumns(spec.table);
  const links = Object.entries(spec.links ?? {});
  await spec.lockWrites?.(tx, ctx);
  for (let at = 0; at < inputs.length; at += BATCH) {
    const batch = inputs.slice(at, at + BATCH);
    const rows = batch.map((input) => {
      const values = columnValues(spec, input);
      if (cols.tenantId) values[cols.keyOf.tenant_id!] = ctx.tenantId;
      values[cols.keyOf.search!] = searchText(spec, input);
      return values;
    });
    const ids = (await tx
      .insert(spec.table)
      .values(rows)
      .returning({ id: cols.id })
      .catch((error: unknown) => {
        throw uniqueTaken(spec, error);
      })) as { id: number }[];
    created.push(...ids.map((r) => r.id));
    for (const [name, link] of links) {
      const pairs = batch.flatMap((input, i) => ((input[name] as number[] | null) ?? []).map((other) => linkRow(link, ctx.tenantId, ids[i]!.id, other)));
      if (pairs.length) await tx.insert(link.table).values(pairs);
    }
    await recordHistoryMany(
      tx,
      ctx.tenantId,
      ctx.actor,
      batch.map((input, i) => {
        const lists = Object.fromEntries(links.map(([name]) => [name, sortedIds(input[name])]));
        return { entity: spec.def.name, entityId: ids[i]!.id, action: 'create' as const, after: historyView(spec, { ...input, ...lists }) };
      }),
    );
  }
  return created;
}

/**
 * Takes back what createMany made when a later part of the same import fails (an import worked
 * in several transactions, server/engine/import-jobs.ts): the rows, their links and their
 * history entries, so the import leaves nothing behind, as one transaction would.
 */
export async function removeCreated(tx: Tx, ctx: Ctx, spec: ResourceSpec, ids: readonly number[]): Promise<void> {
  const cols = tableColumns(spec.table);
  for (let at = 0; at < ids.length; at += BATCH) {
    const batch = ids.slice(at, at + BATCH);
    for (const link of Object.values(spec.links ?? {})) await tx.delete(link.table).where(inArray(link.owner, batch));
    await tx.delete(spec.table).where(inArray(cols.id, batch));
    await tx.delete(history).where(and(eq(history.tenantId, ctx.tenantId), eq(history.entity, spec.def.name), inArray(history.entityId, batch)));
  }
}
