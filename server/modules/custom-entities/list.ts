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
 */
import { type Column, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { type CustomEntity, type FilterValue, type ListQuery, normalizeSearch, parseListQuery, type REFERENCE_TARGETS, sortKey } from '../../../domain/index';
import { queryRows, type Tx } from '../../db/client';
import { byCodePoint, sortKey as foldedKey } from '../../db/schema/columns';
import { classCategories, classes, lessonTags, lessonTypes, rooms, students, subjects, teachers } from '../../db/schema/index';
import { likePattern } from '../list-query';
import type { RecordRow } from './store';
import { asEntity, entityBySlug, resourceOf, titleKey } from './store';

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

function fieldCondition(tenantId: number, entity: CustomEntity, key: string, type: string, op: string, values: FilterValue[]): SQL {
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
  const inner = sql`select v.record_id from custom_values v where v.tenant_id = ${tenantId} and v.entity_id = ${entity.id} and v.key = ${key} and ${match}`;
  return op === 'ne' ? sql`r.id not in (${inner})` : sql`r.id in (${inner})`;
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

export function recordWhere(tenantId: number, entity: CustomEntity, query: ListQuery): SQL[] {
  const types = new Map(entity.fields.map((f) => [f.key, f.type]));
  const where: SQL[] = [sql`r.tenant_id = ${tenantId}`, sql`r.entity_id = ${entity.id}`];
  for (const filter of query.filters) {
    if (SYSTEM_COLUMNS[filter.field]) where.push(systemCondition(filter.field, filter.op, filter.values));
    else if (types.has(filter.field)) where.push(fieldCondition(tenantId, entity, filter.field, types.get(filter.field)!, filter.op, filter.values));
  }
  if (query.q) {
    for (const word of normalizeSearch(query.q).split(' ').filter(Boolean).slice(0, 8)) where.push(sql`r.search like ${likePattern(word)}`);
  }
  return where;
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

export async function listRecords(tx: Tx, tenantId: number, entity: CustomEntity, query: ListQuery): Promise<{ rows: RecordRow[]; total: number }> {
  const fields = new Map(entity.fields.map((f) => [f.key, f]));
  const where = sql.join(recordWhere(tenantId, entity, query), sql` and `);
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
    const alias = sql.raw(`s${i}`);
    // Every record has one index row per sortable field, so an inner join keeps them all.
    joins.push(
      sql`join custom_values ${alias} on ${alias}.tenant_id = r.tenant_id and ${alias}.record_id = r.id and ${alias}.entity_id = ${entity.id} and ${alias}.key = ${s.field}`,
    );
    const referenced = field.type === 'REFERENCE' && field.target ? await referenceSort(tx, tenantId, field.target, `s${i}`, `s${i}t`) : null;
    if (referenced) {
      joins.push(referenced.join);
      for (const key of referenced.keys) order.push(sql`${key} ${dir}`);
    } else order.push(columnOf(field.type) === 'num' ? sql`${alias}.num ${dir}` : sql`(${alias}.txt collate "C") ${dir}`);
  }
  // A unique tie-breaker, in the first sort's direction so one index walk serves both.
  const last = query.sort[0]?.order === 'desc' ? sql`desc` : sql`asc`;
  if (!query.sort.some((s) => s.field === 'id')) order.push(sql`r.id ${last}`);
  const limit = query.end - query.start;
  const rows = await queryRows<RecordRow>(
    tx,
    sql`select r.id, r.version, r.created_at, r.updated_at, r.data from custom_records r ${sql.join(joins, sql` `)} where ${where} order by ${sql.join(order, sql`, `)} limit ${limit} offset ${query.start}`,
  );
  let total = query.start + rows.length;
  if (!(rows.length < limit && (rows.length > 0 || query.start === 0))) {
    const [row] = await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from custom_records r where ${where}`);
    total = Number(row?.n ?? 0);
  }
  return { rows: rows.map((r) => ({ ...r, data: typeof r.data === 'string' ? JSON.parse(r.data) : r.data })), total };
}
