/**
 * A page of an entity's records under the usual list conventions. Every filter on a field is
 * a semi-join on the value index (custom_values, keyed tenant, entity, key, value), and a sort
 * on a field joins that field's index rows, which every record has (null when empty): so the
 * database walks the index in the asked order and stops at the page's end. Field keys reach
 * SQL only as bound parameters, after parseListQuery checked them against the definition.
 */
import { sql, type SQL } from 'drizzle-orm';
import { type CustomEntity, type FilterValue, type ListQuery, normalizeSearch, parseListQuery, sortKey } from '../../../domain/index';
import { queryRows, type Tx } from '../../db/client';
import { likePattern } from '../list-query';
import type { RecordRow } from './store';
import { resourceOf } from './store';

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

export async function listRecords(tx: Tx, tenantId: number, entity: CustomEntity, query: ListQuery): Promise<{ rows: RecordRow[]; total: number }> {
  const types = new Map(entity.fields.map((f) => [f.key, f.type]));
  const where = sql.join(recordWhere(tenantId, entity, query), sql` and `);
  const joins: SQL[] = [];
  const order: SQL[] = [];
  query.sort.forEach((s, i) => {
    const dir = s.order === 'desc' ? sql`desc` : sql`asc`;
    if (SYSTEM_COLUMNS[s.field]) {
      order.push(sql`${SYSTEM_COLUMNS[s.field]} ${dir}`);
      return;
    }
    const type = types.get(s.field);
    if (!type) return;
    const alias = sql.raw(`s${i}`);
    // Every record has one index row per sortable field, so an inner join keeps them all.
    joins.push(
      sql`join custom_values ${alias} on ${alias}.tenant_id = r.tenant_id and ${alias}.record_id = r.id and ${alias}.entity_id = ${entity.id} and ${alias}.key = ${s.field}`,
    );
    order.push(columnOf(type) === 'num' ? sql`${alias}.num ${dir}` : sql`(${alias}.txt collate "C") ${dir}`);
  });
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
