/**
 * GET /api/<name>: the list query of domain/fields.ts turned into SQL. Plain columns go
 * through list-query.ts; REFERENCES filters ("holds id") become EXISTS over the join table;
 * per-request names (custom fields, `deleted`) come from the spec's listExtras. Text sorts by
 * its folded key, so Greek orders as a reader expects ("άλφα" beside "Άλφα", before "Έκθεση").
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { narrowedDef, parseListQuery, readableFields, type FieldDef, type FieldType, type ListQuery } from '../../domain/index';
import { isDeepStrictEqual } from 'node:util';
import type { Database, Tx } from '../db/types';
import { databaseOfReads } from '../db/read-batch';
import { KeptStatements, queryRows } from '../db/statements';
import { byCodePoint, sortKey } from '../db/schema/columns';
import { listOrder, listWhere, type ColumnMap } from './list-query';
import { baseWhere, labelScope, loadRows } from './read';
import { shapedPage, shapedSelect, shapedStatement } from './shaped';
import type { Registry } from './registry';
import { actorKey, type Ctx, type ListExtras, type ResourceSpec } from './spec';
import type { Page, RawQuery } from './store';
import { tableColumns } from './table';

/** Columns a plain filter or sort may use, by field name. */
function filterColumns(spec: ResourceSpec): ColumnMap {
  const cols = tableColumns(spec.table);
  const map: ColumnMap = { id: cols.id, created_at: cols.createdAt, updated_at: cols.updatedAt };
  for (const field of spec.def.fields) {
    if (field.writeOnly || field.type === 'REFERENCES') continue;
    // Computed values are SQL expressions; list-query only places them inside SQL templates.
    const source = spec.computed?.[field.name] ?? spec.join?.fields[field.name] ?? cols.byName[field.name];
    if (source) map[field.name] = source as AnyPgColumn;
  }
  return map;
}

/** Field types whose values are words people read, sorted accent- and case-insensitively. */
const FOLDED: ReadonlySet<FieldType> = new Set(['TEXT', 'LONG_TEXT', 'EMAIL', 'USERNAME', 'SINGLE_CHOICE']);

/**
 * Sort expressions by field name: text through its folded key (the stored `<name>_sort`
 * column where the table keeps one, else computed), the rest as stored.
 */
function sortColumns(spec: ResourceSpec, fields: readonly FieldDef[], columns: Record<string, AnyPgColumn | SQL>): ColumnMap {
  const types = new Map(fields.map((f) => [f.name, f.type]));
  const stored = tableColumns(spec.table).byName;
  const out: Record<string, AnyPgColumn | SQL> = {};
  for (const [name, column] of Object.entries(columns)) {
    const type = types.get(name);
    const kept = stored[`${name}_sort`];
    out[name] = !type || !FOLDED.has(type) ? column : kept && column === stored[name] ? byCodePoint(kept) : sortKey(column);
  }
  // list-query only places these inside SQL templates, where a column and an expression are alike.
  return out as ColumnMap;
}

export interface ListOptions {
  /** The answer may come as JSON text the database wrote (Page.json). */
  json?: boolean;
}

/** Whether every label of the resource names its row for this caller (labelScope narrows none). */
const labelsUnscoped = (registry: Registry, ctx: Ctx, spec: ResourceSpec) =>
  spec.def.fields.every((f) => !f.reference || labelScope(registry, ctx, f.reference) === undefined);

/** The settings each centre's lists were last built from, per database, spec and centre (see listRows). */
const lastSettings = new WeakMap<Database, Map<string, unknown>>();
const LAST_SETTINGS_MAX = 5000;

/**
 * A page of the list `raw` asks for. With `json`, the database may write the whole answer as
 * JSON text (shaped.ts): the page then comes as `json`, its `data` empty.
 */
export async function listRows(tx: Tx, registry: Registry, ctx: Ctx, spec: ResourceSpec, raw: RawQuery, opts: ListOptions = {}): Promise<Page> {
  const settings = spec.listSettings;
  if (!settings) return pageOf(tx, registry, ctx, spec, raw, opts, async () => spec.listExtras?.(tx, ctx));
  const database = databaseOfReads(tx);
  if (!database) {
    const loaded = await settings.load(tx, ctx.tenantId);
    return pageOf(tx, registry, ctx, spec, raw, opts, async () => settings.extras(loaded, ctx));
  }
  // Sent together: the settings are read in the same round trip as a page built from the
  // settings last seen; if they differ (changed, maybe by another process) the page is built again.
  let seen = lastSettings.get(database);
  if (!seen) lastSettings.set(database, (seen = new Map()));
  const key = `${spec.def.name}|${ctx.tenantId}`;
  const guess = seen.get(key);
  const attempt =
    guess === undefined
      ? undefined
      : pageOf(tx, registry, ctx, spec, raw, opts, async () => settings.extras(guess, ctx), guess).then(
          (page) => ({ page }),
          (error: unknown) => ({ error }),
        );
  const [loaded, outcome] = await Promise.all([settings.load(tx, ctx.tenantId), attempt]);
  if (seen.size >= LAST_SETTINGS_MAX) seen.clear();
  // The same settings keep the object first seen: the statements kept for them stay in use.
  const same = guess !== undefined && isDeepStrictEqual(loaded, guess);
  seen.set(key, same ? guess : loaded);
  if (outcome && same) {
    if ('error' in outcome) throw outcome.error;
    return outcome.page;
  }
  return pageOf(tx, registry, ctx, spec, raw, opts, async () => settings.extras(loaded, ctx), loaded);
}

/**
 * The statements of shaped pages already written, by what decides their text: the resource
 * (as declared now), the centre, the caller (role and scope), the settings the list was built
 * from and the query string. The same page asked again is sent as written, without parsing or
 * building anything. At most 1,000 in the process (each a few KB of SQL).
 */
const keptStatements = new KeptStatements(1000);
const keyIds = new WeakMap<object, number>();
let nextKeyId = 1;
const idOf = (thing: object) => {
  const id = keyIds.get(thing) ?? nextKeyId++;
  keyIds.set(thing, id);
  return id;
};

function keptKey(spec: ResourceSpec, ctx: Ctx, raw: RawQuery, settings: unknown): string | undefined {
  if (settings !== undefined && (typeof settings !== 'object' || settings === null)) return undefined;
  return `${idOf(spec)}|${ctx.tenantId}|${actorKey(ctx)}|${settings === undefined ? 0 : idOf(settings)}|${JSON.stringify(raw)}`;
}

async function pageOf(
  tx: Tx,
  registry: Registry,
  ctx: Ctx,
  spec: ResourceSpec,
  raw: RawQuery,
  opts: ListOptions,
  extrasOf: () => Promise<ListExtras | undefined>,
  settings?: unknown,
): Promise<Page> {
  const role = ctx.actor?.role;
  const readable = readableFields(spec.def, role);
  // A caller who reads every field and every label's name gets the page as the database writes it.
  const shaped = opts.json && !readable && labelsUnscoped(registry, ctx, spec) ? shapedSelect(registry, spec) : null;
  const key = shaped ? keptKey(spec, ctx, raw, settings) : undefined;
  const written = key === undefined ? undefined : keptStatements.get(key);
  if (written) return { data: [], ...(await shapedPage(tx, written)) };
  const extras = await extrasOf();
  const cols = tableColumns(spec.table);
  // A role that reads only some fields filters and sorts only on those (others are unknown names).
  const extraFields = (extras?.fields ?? []).filter((f) => !readable || readable.has(f.name));
  const query = parseListQuery(narrowedDef(spec.def, role), raw, extraFields);
  const extraNames = new Set((extras?.fields ?? []).map((f) => f.name));
  const linkNames = new Set(Object.keys(spec.links ?? {}));
  const plain: ListQuery = { ...query, filters: query.filters.filter((f) => !extraNames.has(f.field) && !linkNames.has(f.field)) };

  const where: SQL[] = [...baseWhere(spec, ctx), ...listWhere(spec.def, plain, filterColumns(spec), readable ? narrowSearch(spec, readable) : cols.search)];
  for (const filter of query.filters) {
    const link = spec.links?.[filter.field];
    if (!link) continue;
    // class_ids=3&class_ids=4: the row holds 3 or 4.
    where.push(
      sql`exists (select 1 from ${link.table} where ${and(
        eq(link.tenantId, cols.tenantId),
        eq(link.owner, cols.id),
        inArray(link.other, filter.values as number[]),
      )})`,
    );
  }
  if (extras) where.push(...extras.where(query));

  const sorts = sortColumns(spec, [...spec.def.fields, ...(extras?.fields ?? [])], { ...filterColumns(spec), ...(extras?.sorts ?? {}) });
  const order = listOrder(query, sorts, cols.id);
  const tally = extras?.tally?.(query);
  if (shaped) {
    const statement = shapedStatement(spec, shaped, {
      where: and(...where)!,
      order,
      limit: query.end - query.start,
      offset: query.start,
      totals: spec.totals,
      planPerValue: spec.planPerValue,
      tally,
    });
    if (key !== undefined) keptStatements.keep(key, statement);
    return { data: [], ...(await shapedPage(tx, statement)) };
  }
  // Lists with totals count in the same statement that sums.
  // Both start at once: where queries sent together share a round trip, they go as one message.
  const [summed, { rows, total }] = await Promise.all([
    spec.totals ? sumRows(tx, spec, where, spec.totals, tally) : undefined,
    loadRows(tx, registry, ctx, spec, {
      where,
      order,
      limit: query.end - query.start,
      offset: query.start,
      counted: !spec.totals,
    }),
  ]);
  return summed ? { data: rows, total: summed.count, totals: summed.totals } : { data: rows, total };
}

/**
 * What `q` looks in for a role that reads only some fields: those of its searchable fields,
 * folded as the stored search text is, so a hidden value (a phone number) never matches.
 */
function narrowSearch(spec: ResourceSpec, readable: ReadonlySet<string>): SQL {
  const columns = filterColumns(spec);
  const parts = spec.def.fields
    .filter((f) => f.searchable && f.type !== 'REFERENCES' && readable.has(f.name) && columns[f.name])
    .map((f) => sql`coalesce(${columns[f.name]}::text, '')`);
  const text = parts.length ? sql`lower(concat_ws(' ', ${sql.join(parts, sql`, `)}))` : sql`''`;
  return sortKey(text);
}

async function sumRows(tx: Tx, spec: ResourceSpec, where: SQL[], totals: Record<string, SQL>, tally?: SQL) {
  let row: Record<string, unknown> | undefined;
  if (tally) [row] = await queryRows<Record<string, unknown>>(tx, tally);
  else {
    const select: Record<string, SQL> = { n: sql`count(*)` };
    for (const [name, expr] of Object.entries(totals)) select[name] = sql`coalesce(${expr}, 0)`;
    const q = tx.select(select).from(spec.table);
    [row] = (await (spec.join ? q.leftJoin(spec.join.table, spec.join.on) : q).where(and(...where))) as Record<string, unknown>[];
  }
  const out: Record<string, number> = {};
  for (const name of Object.keys(totals)) out[name] = Number(row?.[name] ?? 0);
  return { count: Number(row?.n ?? 0), totals: out };
}
