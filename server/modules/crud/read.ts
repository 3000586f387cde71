/**
 * Reading rows of a resource: one statement for a page, one for its total when the page does
 * not already tell it, then one statement per reference field for the labels of the whole
 * page (never one per row). The total is a separate count(*) rather than count(*) over():
 * the window makes the database compute and sort every matching row before the limit
 * (measured 47 ms against 2.5 + 18 ms for 10,000 students on PGlite), while the page alone
 * walks an index.
 */
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { labelKey, type ReferenceLabel } from '../../../domain/references';
import type { Tx } from '../../db/client';
import { sortKey } from '../../db/schema/columns';
import { iso } from '../params';
import type { Registry } from './registry';
import type { Ctx, Data, ResourceSpec } from './spec';
import { ownRows, tableColumns } from './table';

type Selectable = AnyPgColumn | SQL | SQL.Aliased;

const shapes = new WeakMap<ResourceSpec, Record<string, Selectable>>();

/** The selected values of a row, named as the API names them. */
export function selectShape(spec: ResourceSpec): Record<string, Selectable> {
  const hit = shapes.get(spec);
  if (hit) return hit;
  const cols = tableColumns(spec.table);
  const shape: Record<string, Selectable> = { id: cols.id, version: cols.version, created_at: cols.createdAt, updated_at: cols.updatedAt };
  for (const field of spec.def.fields) {
    if (field.writeOnly || field.type === 'REFERENCES') continue;
    const source = spec.computed?.[field.name] ?? spec.join?.fields[field.name] ?? cols.byName[field.name];
    if (source) shape[field.name] = source;
  }
  for (const [name, column] of Object.entries(spec.shown ?? {})) shape[name] = column;
  if (spec.deletedAt) shape.deleted = sql<boolean>`(${spec.deletedAt} is not null)`;
  for (const [name, column] of Object.entries(spec.hidden ?? {})) shape[`__${name}`] = column;
  shapes.set(spec, shape);
  return shape;
}

/** The conditions every read of this resource carries: the tenant, and the caller's scope. */
export function baseWhere(spec: ResourceSpec, ctx: Ctx): SQL[] {
  const cols = tableColumns(spec.table);
  const scope = spec.scope?.(ctx);
  const own = ownRows(cols, ctx.tenantId);
  return [...(own ? [own] : []), ...(scope ? [scope] : [])];
}

export interface PageOptions {
  where: SQL[];
  order?: SQL[];
  limit: number;
  offset?: number;
  /** Count every matching row (lists); single-row reads skip it. */
  counted?: boolean;
}

export async function loadRows(tx: Tx, registry: Registry, ctx: Ctx, spec: ResourceSpec, opts: PageOptions): Promise<{ rows: Data[]; total: number }> {
  const cols = tableColumns(spec.table);
  const select: Record<string, Selectable> = { ...selectShape(spec) };
  const base = tx.select(select as never).from(spec.table as never);
  const joined = spec.join ? base.leftJoin(spec.join.table as never, spec.join.on) : base;
  const raw = (await joined
    .where(and(...opts.where))
    .orderBy(...(opts.order ?? [asc(cols.id)]))
    .limit(opts.limit)
    .offset(opts.offset ?? 0)) as Record<string, unknown>[];
  const offset = opts.offset ?? 0;
  let total = offset + raw.length;
  // A short page that is not past the end already tells the total.
  const pageTellsTotal = raw.length < opts.limit && (raw.length > 0 || offset === 0);
  if (opts.counted && !pageTellsTotal) {
    const q = tx.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(spec.table as never);
    const [row] = (await (spec.join ? q.leftJoin(spec.join.table as never, spec.join.on) : q).where(and(...opts.where))) as { n: number }[];
    total = row?.n ?? 0;
  }
  const rows = raw.map((rest) => {
    rest.created_at = iso(rest.created_at as Date);
    rest.updated_at = iso(rest.updated_at as Date);
    return rest as Data;
  });
  await attachLabels(tx, registry, ctx, spec, rows);
  for (const row of rows) {
    spec.present?.(row);
    for (const key of Object.keys(row)) if (key.startsWith('__')) delete row[key];
  }
  return { rows, total };
}

const toLabel = (id: number, found: { name: string | null; deleted: boolean } | undefined): ReferenceLabel =>
  found?.deleted ? { id, name: null, deleted: true } : { id, name: found?.name ?? null };

/** Fills `x: {id, name}` beside each `x_id`, and `x_ids` + `xs: [...]` from the join tables. */
async function attachLabels(tx: Tx, registry: Registry, ctx: Ctx, spec: ResourceSpec, rows: Data[]) {
  if (!rows.length) return;
  for (const field of spec.def.fields) {
    const target = field.reference ? registry.targets.get(field.reference) : undefined;
    if (!target) continue;
    const key = labelKey(field);
    if (field.type === 'REFERENCE') {
      const ids = [...new Set(rows.map((r) => r[field.name]).filter((v): v is number => typeof v === 'number'))];
      const found = new Map<number, { name: string | null; deleted: boolean }>();
      if (ids.length) {
        const labels = await tx
          .select({ id: target.id, name: target.label, deleted: target.deletedAt ? sql<boolean>`(${target.deletedAt} is not null)` : sql<boolean>`false` })
          .from(target.table as never)
          .where(and(eq(target.tenantId, ctx.tenantId), inArray(target.id, ids)));
        for (const l of labels as { id: number; name: string | null; deleted: boolean }[]) found.set(l.id, l);
      }
      for (const row of rows) {
        const id = row[field.name];
        row[key] = typeof id === 'number' ? toLabel(id, found.get(id)) : null;
      }
    } else if (field.type === 'REFERENCES') {
      const link = spec.links?.[field.name];
      if (!link) continue;
      const pairs = (await tx
        .select({
          owner: link.owner,
          id: link.other,
          name: target.label,
          deleted: target.deletedAt ? sql<boolean>`(${target.deletedAt} is not null)` : sql<boolean>`false`,
        })
        .from(link.table as never)
        .innerJoin(target.table as never, and(eq(target.tenantId, link.tenantId), eq(target.id, link.other)))
        .where(
          and(
            eq(link.tenantId, ctx.tenantId),
            inArray(
              link.owner,
              rows.map((r) => r.id),
            ),
          ),
        )
        .orderBy(asc(sortKey(target.label)), asc(link.other))) as { owner: number; id: number; name: string | null; deleted: boolean }[];
      const byOwner = new Map<number, ReferenceLabel[]>();
      for (const p of pairs) {
        const list = byOwner.get(p.owner) ?? [];
        list.push(toLabel(p.id, p));
        byOwner.set(p.owner, list);
      }
      for (const row of rows) {
        const labels = byOwner.get(row.id) ?? [];
        // Ids ascending (as the history records them); labels alphabetical (folded, as lists sort), for display.
        row[field.name] = labels.map((l) => l.id as number).sort((a, b) => a - b);
        row[key] = labels;
      }
    }
  }
}

/** One visible row, or null. `lock` takes a row lock first (writes read-modify-write under it). */
export async function findRow(tx: Tx, registry: Registry, ctx: Ctx, spec: ResourceSpec, id: number, lock = false): Promise<Data | null> {
  const cols = tableColumns(spec.table);
  const where = [...baseWhere(spec, ctx), eq(cols.id, id)];
  if (lock) {
    const locked = await tx
      .select({ id: cols.id })
      .from(spec.table as never)
      .where(and(ownRows(cols, ctx.tenantId), eq(cols.id, id)))
      .for('update');
    if (!locked.length) return null;
  }
  const { rows } = await loadRows(tx, registry, ctx, spec, { where, limit: 1 });
  return rows[0] ?? null;
}
