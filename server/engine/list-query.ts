/**
 * The conventions of a list read. Turns a validated ListQuery (domain/fields.ts
 * parseListQuery, which already refused every unknown sort or filter name) into SQL. Column names come only from the module's own map,
 * values only as bound parameters, so nothing from the query string is interpolated.
 */
import { and, asc, desc, gte, ilike, inArray, isNull, lte, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import {
  DEFAULT_PAGE_ROWS,
  MAX_PAGE_ROWS,
  normalizeSearch,
  SYSTEM_FIELDS,
  type FieldDef,
  type FilterValue,
  type ListQuery,
  type ResourceDef,
} from '../../domain/index';
import type { Queryable } from '../db/types';

export type ColumnMap = Record<string, AnyPgColumn>;

const pageBound = z
  .string()
  .regex(/^\d{1,9}$/)
  .transform(Number)
  .optional();

interface PageBounds {
  _start?: number;
  _end?: number;
}

/** The rows a page asks for: from `_start` (0) to `_end` (`defaultRows` further on). */
export function pageOf(query: PageBounds, defaultRows = DEFAULT_PAGE_ROWS): { start: number; end: number } {
  const start = query._start ?? 0;
  return { start, end: query._end ?? start + defaultRows };
}

/**
 * The query string of a list outside the resource lists (which parseListQuery reads alike):
 * the route's own parameters plus `_start` and `_end`, digits only; a page that ends before it
 * starts is 400 `_end` too-small, one of more than MAX_PAGE_ROWS rows 400 `_end` too-large.
 */
export function pagedQuery<T extends z.ZodRawShape>(shape: T, defaultRows = DEFAULT_PAGE_ROWS) {
  const bounds = (q: unknown) => pageOf(q as PageBounds, defaultRows);
  return z
    .strictObject({ ...shape, _start: pageBound, _end: pageBound })
    .refine((q) => bounds(q).end - bounds(q).start <= MAX_PAGE_ROWS, { params: { code: 'too-large' }, path: ['_end'] })
    .refine((q) => bounds(q).end >= bounds(q).start, { params: { code: 'too-small' }, path: ['_end'] });
}

/** Escapes LIKE wildcards so user text matches literally. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function toColumnValue(def: FieldDef | undefined, value: FilterValue): unknown {
  // Instant columns are read as Dates; the driver mapping expects a Date on the way in too.
  if (def?.type === 'INSTANT' && typeof value === 'string') return new Date(value);
  return value;
}

export function listWhere(res: ResourceDef, query: ListQuery, columns: ColumnMap, searchColumn?: AnyPgColumn | SQL): SQL[] {
  const defs = new Map([...SYSTEM_FIELDS, ...res.fields].map((f) => [f.name, f]));
  const conditions: SQL[] = [];
  for (const filter of query.filters) {
    const column = columns[filter.field];
    if (!column) continue; // parseListQuery only lets declared fields through; a field without a column has no filter
    const def = defs.get(filter.field);
    const values = filter.values.map((v) => toColumnValue(def, v));
    switch (filter.op) {
      case 'eq':
        conditions.push(values.length === 1 ? sql`${column} = ${values[0]}` : inArray(column, values));
        break;
      case 'ne':
        conditions.push(or(isNull(column), notInArray(column, values))!);
        break;
      case 'gte':
        for (const v of values) conditions.push(gte(column, v));
        break;
      case 'lte':
        for (const v of values) conditions.push(lte(column, v));
        break;
      case 'like':
        conditions.push(or(...values.map((v) => ilike(column, likePattern(String(v)))))!);
        break;
    }
  }
  if (query.q && searchColumn) {
    const words = normalizeSearch(query.q).split(' ').filter(Boolean).slice(0, 8);
    for (const word of words) conditions.push(sql`${searchColumn} like ${likePattern(word)}`);
  }
  return conditions;
}

export function listOrder(query: ListQuery, columns: ColumnMap, idColumn: AnyPgColumn): SQL[] {
  const order: SQL[] = [];
  for (const s of query.sort) {
    const column = columns[s.field];
    if (column) order.push(s.order === 'desc' ? desc(column) : asc(column));
  }
  // A unique tie-breaker keeps pages stable.
  if (!query.sort.some((s) => s.field === 'id')) order.push(asc(idColumn));
  return order;
}

/**
 * One page plus the total: the page walks an index; the total is a separate count(*) only
 * when the page does not tell it (see read.ts for why not count(*) over()).
 */
export async function listPage<T extends Record<string, unknown>>(
  q: Queryable,
  opts: {
    table: PgTable;
    select: Record<string, AnyPgColumn | SQL.Aliased | SQL>;
    where: (SQL | undefined)[];
    order: SQL[];
    query: ListQuery;
  },
): Promise<{ rows: T[]; total: number }> {
  const where = and(...opts.where.filter((c): c is SQL => c !== undefined));
  const limit = opts.query.end - opts.query.start;
  const rows = (await q
    .select(opts.select)
    .from(opts.table)
    .where(where)
    .orderBy(...opts.order)
    .limit(limit)
    .offset(opts.query.start)) as T[];
  let total = opts.query.start + rows.length;
  if (!(rows.length < limit && (rows.length > 0 || opts.query.start === 0))) {
    const [row] = await q
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(opts.table)
      .where(where);
    total = row?.n ?? 0;
  }
  return { rows, total };
}
