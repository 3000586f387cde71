/**
 * Where a person's data is held, read from the declarations alone (FieldDef.personal): her
 * own row, and every kind of row that points at her with a REFERENCE (a resource the engine
 * serves, or rows kept beside them such as attendance marks: domain/personal.ts). Erasure
 * and her document both walk these, so a personal field declared anywhere is followed with
 * no other code.
 */
import { getTableConfig } from 'drizzle-orm/pg-core';
import { sql, type SQL } from 'drizzle-orm';
import { erasedValue, ERASED_VALUE, type FieldDef, KEPT_RECORDS, personalFields } from '../../../domain/index';
import type { Tx } from '../../db/types';
import { queryRows } from '../../db/statements';
import type { Registry } from '../../engine/registry';
import type { ResourceSpec } from '../../engine/spec';
import { searchText } from '../../engine/write';

/** Rows of one table, kept in history as `entity`, declared by `fields`. */
export interface Holder {
  entity: string;
  table: string;
  fields: readonly FieldDef[];
  /** The engine's spec, when the rows are a resource's (its search text is kept up to date). */
  spec?: ResourceSpec;
}

export const holderOf = (spec: ResourceSpec): Holder => ({ entity: spec.def.name, table: getTableConfig(spec.table).name, fields: spec.def.fields, spec });

/**
 * Every kind of row pointing at a `kind` person, with the REFERENCE field that points (a
 * stored one: a reference computed for reading points at nothing).
 */
export async function holdersOf(tx: Tx, registry: Registry, kind: string): Promise<{ holder: Holder; field: string }[]> {
  const all: Holder[] = [
    ...[...registry.specs.values()].filter((s) => s.def.name !== kind && s.def.scope !== 'platform').map(holderOf),
    ...KEPT_RECORDS.map((k) => ({ entity: k.entity, table: k.table, fields: k.fields })),
  ];
  const found: { holder: Holder; field: string }[] = [];
  for (const holder of all) {
    const pointing = holder.fields.filter((f) => f.type === 'REFERENCE' && f.reference === kind);
    if (!pointing.length) continue;
    const columns = await columnsOf(tx, holder.table);
    for (const f of pointing) if (columns.has(f.name)) found.push({ holder, field: f.name });
  }
  return found;
}

/** The columns a table has (a declared field may be a label kept only in history, or computed). */
export async function columnsOf(tx: Tx, table: string): Promise<Set<string>> {
  const rows = await queryRows<{ name: string }>(
    tx,
    sql`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${table}`,
  );
  return new Set(rows.map((r) => r.name));
}

const idList = (ids: readonly number[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

/** Whole rows of `holder` where `where` holds, as jsonb, by id. */
export async function rowsWhere(tx: Tx, tenantId: number, holder: Holder, where: SQL): Promise<Record<string, unknown>[]> {
  const found = await queryRows<{ r: Record<string, unknown> }>(
    tx,
    sql`select to_jsonb(t) as r from ${sql.identifier(holder.table)} t where t.tenant_id = ${tenantId} and ${where} order by t.id`,
  );
  return found.map((f) => f.r);
}

/** The condition "column `field` is `id`" on a holder's rows. */
export const pointsAt = (field: string, id: number) => sql`${sql.identifier(field)} = ${id}`;

/**
 * Clears the personal fields of the holder's rows where `where` holds (erasedValue), keeps
 * their search text in step, and leaves `[erased]` in place of those fields' values in the
 * rows' history. Answers the ids of the rows.
 */
export async function erasePersonal(tx: Tx, tenantId: number, holder: Holder, where: SQL, extra: SQL[] = []): Promise<number[]> {
  const personal = personalFields(holder.fields);
  const columns = await columnsOf(tx, holder.table);
  const stored = personal.filter((f) => columns.has(f.name));
  const rows = await queryRows<{ id: number }>(tx, sql`select id from ${sql.identifier(holder.table)} where tenant_id = ${tenantId} and ${where} for update`);
  const ids = rows.map((r) => Number(r.id));
  if (!ids.length || !personal.length) return ids;
  for (const id of ids) {
    const sets: SQL[] = stored.map((f) => {
      const value = erasedValue(holder.fields, f, id);
      return value !== null && typeof value === 'object'
        ? sql`${sql.identifier(f.name)} = ${JSON.stringify(value)}::jsonb`
        : sql`${sql.identifier(f.name)} = ${value}`;
    });
    sets.push(...extra);
    if (columns.has('version')) sets.push(sql`version = version + 1`);
    if (columns.has('updated_at')) sets.push(sql`updated_at = now()`);
    if (!stored.length && !extra.length) break;
    await tx.execute(sql`update ${sql.identifier(holder.table)} set ${sql.join(sets, sql`, `)} where tenant_id = ${tenantId} and id = ${id}`);
    if (holder.spec && columns.has('search')) {
      const [row] = await rowsWhere(tx, tenantId, holder, sql`t.id = ${id}`);
      await tx.execute(sql`update ${sql.identifier(holder.table)} set search = ${searchText(holder.spec, row!)} where tenant_id = ${tenantId} and id = ${id}`);
    }
  }
  await scrubHistory(
    tx,
    tenantId,
    holder.entity,
    ids,
    personal.map((f) => f.name),
  );
  return ids;
}

/** Replaces the values of `fields` in every history entry of these rows by the erased marker (a null stays null). */
export async function scrubHistory(tx: Tx, tenantId: number, entity: string, ids: readonly number[], fields: readonly string[]): Promise<void> {
  if (!ids.length || !fields.length) return;
  const keys = sql`array[${sql.join(
    fields.map((f) => sql`${f}`),
    sql`, `,
  )}]::text[]`;
  const erased = sql`to_jsonb(${ERASED_VALUE}::text)`;
  await tx.execute(sql`update history h set changes = (
      select coalesce(jsonb_object_agg(k, case when k = any(${keys}) then jsonb_build_object(
          'old', case when v->'old' is null or v->'old' = 'null'::jsonb then 'null'::jsonb else ${erased} end,
          'new', case when v->'new' is null or v->'new' = 'null'::jsonb then 'null'::jsonb else ${erased} end) else v end), '{}'::jsonb)
      from jsonb_each(h.changes) as e(k, v))
    where h.tenant_id = ${tenantId} and h.entity = ${entity} and h.entity_id in (${idList(ids)})
      and h.changes ?| ${keys}`);
}
