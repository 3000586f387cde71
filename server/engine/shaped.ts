/**
 * A list page the database writes as the answer's JSON text: the rows with their labels, the
 * count and the sums, in one statement whose answer the route sends as it comes. Node then
 * neither decodes rows nor writes them again, and the part of the statement that names what
 * a row shows is rendered to SQL text once per resource, not on every request.
 *
 * Each value is written as the row schema's serializer would write what read.ts loads:
 * instants as ISO 8601 in UTC with milliseconds, times of day as `HH:MM`, labels as
 * `{id, name}` (`{id, name: null, deleted: true}` for a deleted row, `{id, name: null}` for a
 * missing one), a REFERENCES field's ids ascending and its labels by folded name. A resource
 * whose rows need Node's hands (present(), hidden columns, a label that cannot be folded into
 * the page's statement) is not shaped here: `shapedSelect` says null and list.ts loads rows.
 */
import { Column, is, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { labelKey } from '../../domain/references';
import type { Tx } from '../db/types';
import { rowCount, writeStatement, writtenRows, type WrittenStatement } from '../db/statements';
import { qualified, selectShape } from './read';
import type { Registry } from './registry';
import type { ResourceSpec } from './spec';
import { tableColumns } from './table';

/** SQL whose text holds no parameter is written once and kept as text (see `shapedSelect`). */
function rendered(part: SQL): SQL {
  const { text, params } = writeStatement(part);
  return params.length ? part : sql.raw(text);
}

/** An instant as the answer writes it: ISO 8601 in UTC, with milliseconds. */
export const instantJson = (value: SQL | AnyPgColumn) => sql`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A selected value as the answer writes it. */
function jsonValue(value: AnyPgColumn | SQL | SQL.Aliased): SQL | AnyPgColumn | SQL.Aliased {
  if (!is(value, Column)) return value;
  const column = value as AnyPgColumn;
  if (column.columnType === 'PgTimestamp') return instantJson(qualified(column));
  if (column.getSQLType() === 'time') return sql`to_char(${qualified(column)}, 'HH24:MI')`;
  return qualified(column);
}

/** What a shaped page selects of a resource: each row's values, and the references' labels. */
export interface ShapedSelect {
  /** The inner select list: every value under its answer's name, each REFERENCES field as `{ids, labels}` under a hidden name. */
  inner: SQL;
  /** The outer select list over the inner one: every name, each REFERENCES field's ids and labels under theirs. */
  outer: SQL;
  /** The joined table, where the resource has one. */
  join: SQL;
}

const shapes = new WeakMap<ResourceSpec, ShapedSelect | null>();

/** The select of a shaped page for this resource, or null when its rows need Node (see above). */
export function shapedSelect(registry: Registry, spec: ResourceSpec): ShapedSelect | null {
  const hit = shapes.get(spec);
  if (hit !== undefined) return hit;
  const built = buildShape(registry, spec);
  shapes.set(spec, built);
  return built;
}

function buildShape(registry: Registry, spec: ResourceSpec): ShapedSelect | null {
  if (spec.present || spec.hidden) return null;
  const cols = tableColumns(spec.table);
  if (!cols.tenantId) return null;
  const shape = selectShape(spec);
  const inner: SQL[] = [];
  const outer: SQL[] = [];
  const name = (key: string) => sql`${sql.identifier(key)}`;
  for (const [key, value] of Object.entries(shape)) {
    inner.push(sql`${jsonValue(value)} as ${name(key)}`);
    outer.push(name(key));
  }
  for (const field of spec.def.fields) {
    const target = field.reference ? registry.targets.get(field.reference) : undefined;
    if (!target || (field.type !== 'REFERENCE' && field.type !== 'REFERENCES')) continue;
    // A label's SQL names its table: beside the same table, outer and inner could not be told apart.
    if (target.table === spec.table || target.table === spec.join?.table) return null;
    const key = labelKey(field);
    const deleted = target.deletedAt ? qualified(target.deletedAt) : undefined;
    const id = qualified(target.id);
    const label = deleted
      ? sql`case when ${deleted} is not null then json_build_object('id', ${id}, 'name', null, 'deleted', true) else json_build_object('id', ${id}, 'name', ${target.label}) end`
      : sql`json_build_object('id', ${id}, 'name', ${target.label})`;
    const sameTenant = sql`${qualified(target.tenantId)} = ${qualified(cols.tenantId)}`;
    if (field.type === 'REFERENCE') {
      const own = shape[field.name];
      if (!is(own, Column)) return null;
      const ref = qualified(own as AnyPgColumn);
      inner.push(sql`case when ${ref} is null then null else coalesce(
          (select ${label} from ${target.table} where ${sameTenant} and ${id} = ${ref}),
          json_build_object('id', ${ref}, 'name', null)) end as ${name(key)}`);
      outer.push(name(key));
      continue;
    }
    const link = spec.links?.[field.name];
    if (!link) return null;
    const other = qualified(link.other);
    const hidden = `__links_${field.name}`;
    inner.push(sql`(select json_build_object(
          'ids', coalesce(json_agg(${other} order by ${other}), '[]'::json),
          'labels', coalesce(json_agg(${label} order by ${target.labelSort}, ${other}), '[]'::json))
        from ${link.table} join ${target.table} on ${qualified(target.tenantId)} = ${qualified(link.tenantId)} and ${id} = ${other}
        where ${qualified(link.tenantId)} = ${qualified(cols.tenantId)} and ${qualified(link.owner)} = ${qualified(cols.id)}) as ${name(hidden)}`);
    outer.push(sql`${name(hidden)}->'ids' as ${name(field.name)}`, sql`${name(hidden)}->'labels' as ${name(key)}`);
  }
  return {
    inner: rendered(sql.join(inner, sql`, `)),
    outer: rendered(sql.join(outer, sql`, `)),
    join: spec.join ? rendered(sql` left join ${spec.join.table} on ${spec.join.on}`) : sql``,
  };
}

export interface ShapedPageOptions {
  where: SQL;
  order: SQL[];
  limit: number;
  offset: number;
  /** Sums over every matching row, answered as `totals`. */
  totals?: Record<string, SQL>;
  /** Prepared with the values written in (ResourceSpec.planPerValue). */
  planPerValue?: boolean;
  /** The count and sums from elsewhere (ListExtras.tally), in place of those over the page's rows. */
  tally?: SQL;
}

/**
 * The page's one statement: `{data, total[, totals]}` as JSON text, and the total beside it
 * for the header. Written to SQL text once: what is kept (list.ts) is the text and its
 * parameters, which the next same request sends without building anything again.
 * The page's size and offset are written into the text (`rowCount`).
 */
export function shapedStatement(spec: ResourceSpec, shaped: ShapedSelect, o: ShapedPageOptions): WrittenStatement {
  const from = sql`${spec.table}${shaped.join}`;
  const sums = Object.entries(o.totals ?? {});
  const summed = sums.map(([key, expr]) => sql`, coalesce(${expr}, 0) as ${sql.identifier(key)}`);
  const totals = sums.length
    ? sql`, 'totals', json_build_object(${sql.join(
        sums.map(([key]) => sql`${sql.raw(`'${key}'`)}, c.${sql.identifier(key)}`),
        sql`, `,
      )})`
    : sql``;
  return writeStatement(
    sql`select json_build_object(
      'data', coalesce((select json_agg(p) from (select ${shaped.outer} from (
        select ${shaped.inner} from ${from} where ${o.where} order by ${sql.join(o.order, sql`, `)} limit ${rowCount(o.limit)} offset ${rowCount(o.offset)}) p0) p), '[]'::json),
      'total', c.n${totals})::text as body, c.n::int as total
    from (${o.tally ?? sql`select count(*) as n${sql.join(summed, sql``)} from ${from} where ${o.where}`}) c`,
    { valuesInText: o.planPerValue },
  );
}

/** Runs a shaped page's statement. */
export async function shapedPage(tx: Tx, statement: WrittenStatement): Promise<{ json: string; total: number }> {
  const [row] = await writtenRows<{ body: string; total: number }>(tx, statement);
  return { json: row!.body, total: Number(row!.total) };
}
