/**
 * A page of an entity's records under the usual list conventions. Every filter on a field is
 * a semi-join on the value index (custom_values, keyed tenant, entity, key, value), and a sort
 * on a field joins that field's index rows, which every record has (null when empty): so the
 * database walks the index in the asked order and stops at the page's end. A sort on a
 * REFERENCE joins, beyond, the referenced row's sort key by its id (a student's folded last
 * and first name, a class's folded name, another entity's title in its own value index); that
 * order is not the index's, so the matching records are sorted before the page is taken.
 * Field keys reach SQL only as bound parameters, after parseListQuery checked them against
 * the definition.
 *
 * The page and its count range over `r`, the entity's records, or (see recordSource) the index
 * rows of a filter; either way the page's ids are chosen on the index alone and only the
 * page's own records are read.
 */
import { type Column, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import {
  type CustomEntity,
  type FilterValue,
  labelKey,
  type ListFilter,
  type ListQuery,
  normalizeSearch,
  parseListQuery,
  type REFERENCE_TARGETS,
  sortKey,
} from '../../../domain/index';
import type { Tx } from '../../db/types';
import { rowCount, writeStatement, type WrittenStatement } from '../../db/statements';
import { byCodePoint, sortKey as foldedKey } from '../../db/schema/columns';
import { classCategories, classes, lessonTags, lessonTypes, rooms, students, subjects, teachers } from '../../db/schema/index';
import { likePattern } from '../list-query';
import type { Registry } from '../registry';
import { instantJson } from '../shaped';
import type { Ctx } from '../spec';
import { asEntity, entityBySlug, labelSql, referenceId, resourceOf, titleKey } from './store';

type Raw = Record<string, string | string[] | undefined>;

const SYSTEM_COLUMNS: Record<string, SQL> = {
  id: sql`r.id`,
  created_at: sql`r.created_at`,
  updated_at: sql`r.updated_at`,
};

/** Which index column holds a field's values: numbers and reference ids in num, the rest in txt. */
const columnOf = (type: string) => (type === 'NUMBER' || type === 'REFERENCE' ? 'num' : 'txt');

function indexValue(type: string, v: FilterValue): unknown {
  if (type === 'TEXT') return sortKey(String(v));
  if (type === 'BOOLEAN') return String(v);
  return v;
}

/** The index rows of one field (as `v`) that a filter keeps, with the columns asked for. */
function matchingValues(tenantId: number, entity: CustomEntity, filter: ListFilter, type: string, columns: SQL): SQL {
  return sql`select ${columns} from custom_values v where v.tenant_id = ${tenantId} and v.entity_id = ${entity.id} and v.key = ${filter.field} and ${valueMatch(type, filter.op, filter.values)}`;
}

function valueMatch(type: string, op: string, values: FilterValue[]): SQL {
  const column = columnOf(type);
  const col = column === 'num' ? sql`v.num` : sql`(v.txt collate "C")`;
  const vals = values.map((v) => indexValue(type, v));
  const bound = (x: unknown) => (column === 'num' ? sql`${x}::float8` : sql`${x}::text`);
  let match: SQL;
  switch (op) {
    case 'gte':
      match = sql.join(
        vals.map((x) => sql`${col} >= ${bound(x)}`),
        sql` and `,
      );
      break;
    case 'lte':
      match = sql.join(
        vals.map((x) => sql`${col} <= ${bound(x)}`),
        sql` and `,
      );
      break;
    case 'like':
      match = sql`(${sql.join(
        vals.map((x) => sql`v.txt like ${likePattern(String(x))}`),
        sql` or `,
      )})`;
      break;
    default:
      match = sql`${col} in (${sql.join(
        vals.map((x) => bound(x)),
        sql`, `,
      )})`;
  }
  return match;
}

function fieldCondition(tenantId: number, entity: CustomEntity, filter: ListFilter, type: string): SQL {
  const inner = matchingValues(tenantId, entity, filter, type, sql`v.record_id`);
  return filter.op === 'ne' ? sql`r.id not in (${inner})` : sql`r.id in (${inner})`;
}

function systemCondition(field: string, op: string, values: FilterValue[]): SQL {
  const col = SYSTEM_COLUMNS[field]!;
  const cast = (v: FilterValue) => (field === 'id' ? sql`${v}::int` : sql`${String(v)}::timestamptz`);
  switch (op) {
    case 'gte':
      return sql.join(
        values.map((v) => sql`${col} >= ${cast(v)}`),
        sql` and `,
      );
    case 'lte':
      return sql.join(
        values.map((v) => sql`${col} <= ${cast(v)}`),
        sql` and `,
      );
    case 'ne':
      return sql`${col} not in (${sql.join(values.map(cast), sql`, `)})`;
    default:
      return sql`${col} in (${sql.join(values.map(cast), sql`, `)})`;
  }
}

/**
 * What a page or its count ranges over (`from`, as `r` with tenant_id, entity_id and id) and
 * the conditions on it. Unless something needs the record row itself (the search text, the
 * instants), that is index rows, one per record: for a page sorted by a field, that field's
 * rows (`sortedBy`: r.num and r.txt are its sort values), walked in order with the filters
 * semi-joined; otherwise the rows the first filter on a single-valued field keeps, read by
 * one index range, the other filters semi-joined to them. So counting reads no record at
 * all, and a page reads only its own.
 */
export function recordSource(
  tenantId: number,
  entity: CustomEntity,
  query: ListQuery,
  purpose: 'page' | 'count',
): { from: SQL; where: SQL[]; sortedBy?: string } {
  const types = new Map(entity.fields.map((f) => [f.key, f.type]));
  const readsRecord = !!query.q || [...query.filters, ...query.sort].some((x) => x.field === 'created_at' || x.field === 'updated_at');
  // A REFERENCE orders by what it points at, not by its own index row.
  const first = query.sort[0]?.field;
  const sortedBy = purpose === 'page' && !readsRecord && first && types.has(first) && types.get(first) !== 'REFERENCE' ? first : undefined;
  const driver =
    readsRecord || sortedBy ? undefined : query.filters.find((f) => f.op !== 'ne' && types.has(f.field) && types.get(f.field) !== 'MULTIPLE_CHOICE');
  const where: SQL[] = [sql`r.tenant_id = ${tenantId}`, sql`r.entity_id = ${entity.id}`];
  for (const filter of query.filters) {
    if (filter === driver) continue;
    if (SYSTEM_COLUMNS[filter.field]) where.push(systemCondition(filter.field, filter.op, filter.values));
    else if (types.has(filter.field)) where.push(fieldCondition(tenantId, entity, filter, types.get(filter.field)!));
  }
  if (query.q) {
    for (const word of normalizeSearch(query.q).split(' ').filter(Boolean).slice(0, 8)) where.push(sql`r.search like ${likePattern(word)}`);
  }
  const columns = sql`v.tenant_id, v.entity_id, v.record_id as id`;
  if (sortedBy) {
    const rows = sql`select ${columns}, v.num, v.txt from custom_values v where v.tenant_id = ${tenantId} and v.entity_id = ${entity.id} and v.key = ${sortedBy}`;
    return { from: sql`(${rows}) r`, where, sortedBy };
  }
  if (driver) return { from: sql`(${matchingValues(tenantId, entity, driver, types.get(driver.field)!, columns)}) r`, where };
  return { from: sql`custom_records r`, where };
}

/** Parses the query string against the entity's fields (400 with field codes otherwise). */
export const parseRecordQuery = (entity: CustomEntity, raw: Raw): ListQuery => parseListQuery(resourceOf(entity), raw);

/** A column of a joined table under its alias in the query. */
const aliased = (alias: string, column: Column) => sql`${sql.raw(alias)}.${sql.identifier(column.name)}`;
const byName = (table: PgTable & { name: Column }) => ({ table, keys: (a: string) => [foldedKey(aliased(a, table.name))] });
const byPerson = (table: typeof students | typeof teachers) => ({
  table,
  // The lists' own order of people, on the keys the database keeps folded and indexed.
  keys: (a: string) => [byCodePoint(aliased(a, table.lastNameSort)), byCodePoint(aliased(a, table.firstNameSort))],
});

/** How a built-in target's rows sort by name: the table and its folded sort keys. */
const TARGET_SORTS: Record<(typeof REFERENCE_TARGETS)[number], { table: PgTable; keys: (alias: string) => SQL[] }> = {
  students: byPerson(students),
  teachers: byPerson(teachers),
  classes: byName(classes),
  subjects: byName(subjects),
  rooms: byName(rooms),
  'lesson-types': byName(lessonTypes),
  'lesson-tags': byName(lessonTags),
  'class-categories': byName(classCategories),
};

/**
 * A REFERENCE's sort: the referenced row joined by its id (the index row's `num`), ordered by
 * the keys its name sorts by. Empty references and vanished rows have null keys.
 */
async function referenceSort(tx: Tx, tenantId: number, target: string, ref: string, alias: string): Promise<{ join: SQL; keys: SQL[] } | null> {
  const a = sql.raw(alias);
  const id = sql`${sql.raw(ref)}.num::int`;
  if (!target.startsWith('custom:')) {
    const sort = TARGET_SORTS[target as keyof typeof TARGET_SORTS];
    if (!sort) return null;
    return { join: sql`left join ${sort.table} ${a} on ${a}.tenant_id = r.tenant_id and ${a}.id = ${id}`, keys: sort.keys(alias) };
  }
  const row = await entityBySlug(tx, tenantId, target.slice(7));
  if (!row) return null;
  const other = asEntity(row);
  const key = titleKey(other);
  const type = other.fields.find((f) => f.key === key)!.type;
  if (type === 'MULTIPLE_CHOICE') {
    // Several index rows per record: the title's text as the label shows it.
    return {
      join: sql`left join custom_records ${a} on ${a}.tenant_id = r.tenant_id and ${a}.entity_id = ${other.id} and ${a}.id = ${id}`,
      keys: [foldedKey(sql`(${a}.data ->> ${key}::text)`)],
    };
  }
  // The title's own index row: text there is already folded.
  return {
    join: sql`left join custom_values ${a} on ${a}.tenant_id = r.tenant_id and ${a}.entity_id = ${other.id} and ${a}.key = ${key} and ${a}.record_id = ${id}`,
    keys: [columnOf(type) === 'num' ? sql`${a}.num` : sql`(${a}.txt collate "C")`],
  };
}

/**
 * The page's one statement, written once: `{data, total}` as the answer's JSON text (each
 * record's system fields, its values under their keys, each REFERENCE's label after its
 * value), and the total beside it for the header. The page's ids are chosen on the index, then
 * only those records are read; the count ranges over the index rows alone. `keep`: whether
 * the statement may be sent again as it is while this definition stays the same.
 */
export async function recordsPageStatement(
  tx: Tx,
  registry: Registry,
  ctx: Ctx,
  entity: CustomEntity,
  query: ListQuery,
): Promise<{ statement: WrittenStatement; keep: boolean }> {
  const { tenantId } = ctx;
  // A sort by another entity's records is written from that entity's definition, which may change apart.
  let keep = true;
  const fields = new Map(entity.fields.map((f) => [f.key, f]));
  const source = recordSource(tenantId, entity, query, 'page');
  const joins: SQL[] = [];
  const order: SQL[] = [];
  for (const [i, s] of query.sort.entries()) {
    const dir = s.order === 'desc' ? sql`desc` : sql`asc`;
    if (SYSTEM_COLUMNS[s.field]) {
      order.push(sql`${SYSTEM_COLUMNS[s.field]} ${dir}`);
      continue;
    }
    const field = fields.get(s.field);
    if (!field) continue;
    // The first sort's values are the source's own when it ranges over that field's rows.
    const own = i === 0 && source.sortedBy === s.field;
    const alias = sql.raw(own ? 'r' : `s${i}`);
    // Every record has one index row per sortable field, so an inner join keeps them all.
    if (!own)
      joins.push(
        sql`join custom_values ${alias} on ${alias}.tenant_id = r.tenant_id and ${alias}.record_id = r.id and ${alias}.entity_id = ${entity.id} and ${alias}.key = ${s.field}`,
      );
    const referenced = field.type === 'REFERENCE' && field.target ? await referenceSort(tx, tenantId, field.target, `s${i}`, `s${i}t`) : null;
    if (field.type === 'REFERENCE' && field.target?.startsWith('custom:')) keep = false;
    if (referenced) {
      joins.push(referenced.join);
      for (const key of referenced.keys) order.push(sql`${key} ${dir}`);
    } else order.push(columnOf(field.type) === 'num' ? sql`${alias}.num ${dir}` : sql`(${alias}.txt collate "C") ${dir}`);
  }
  // A unique tie-breaker, in the first sort's direction so one index walk serves both.
  const last = query.sort[0]?.order === 'desc' ? sql`desc` : sql`asc`;
  if (!query.sort.some((s) => s.field === 'id')) order.push(sql`r.id ${last}`);
  const limit = query.end - query.start;
  // The page's ids in order, chosen on the index, then those records only (by primary key).
  const ids = sql`select r.id from ${source.from} ${sql.join(joins, sql` `)} where ${sql.join(source.where, sql` and `)} order by ${sql.join(order, sql`, `)} limit ${rowCount(limit)} offset ${rowCount(query.start)}`;
  // The page's records with their values (and each reference's id, for its label one level up).
  const inner: SQL[] = [];
  const outer: SQL[] = [];
  for (const [i, f] of entity.fields.entries()) {
    const name = sql.identifier(f.key);
    inner.push(sql`rec.data -> ${f.key}::text as ${name}`);
    outer.push(sql`q.${name}`);
    if (f.type !== 'REFERENCE' || !f.target) continue;
    // Keys never start with "_": these names are the statement's own.
    const ref = sql.identifier(`_ref_${i}`);
    inner.push(sql`${referenceId(sql`rec.data -> ${f.key}::text`)} as ${ref}`);
    const label = labelSql(registry, ctx, f.target, sql`q.${name}`, sql`q.${ref}`, sql`${tenantId}::int`);
    outer.push(sql`${label} as ${sql.identifier(labelKey({ name: f.key, type: 'REFERENCE' }))}`);
  }
  const counted = recordSource(tenantId, entity, query, 'count');
  const statement = writeStatement(
    sql`select json_build_object(
      'data', coalesce((select json_agg(p) from (
        select q.id, q.version, q.created_at, q.updated_at, ${sql.join(outer, sql`, `)} from (
          select rec.id, rec.version, ${instantJson(sql`rec.created_at`)} as created_at, ${instantJson(sql`rec.updated_at`)} as updated_at,
            ${sql.join(inner, sql`, `)}, k.n as _n
          from unnest(array(${ids})) with ordinality k(id, n)
          join custom_records rec on rec.tenant_id = ${tenantId} and rec.entity_id = ${entity.id} and rec.id = k.id
          offset 0) q
        order by q._n) p), '[]'::json),
      'total', c.n)::text as body, c.n::int as total
    from (select count(*) as n from ${counted.from} where ${sql.join(counted.where, sql` and `)}) c`,
    // Which index rows a key and a filter value select decides the plan.
    { valuesInText: true },
  );
  return { statement, keep };
}
