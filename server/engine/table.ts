/**
 * Finds a table's columns by their SQL names, which are the API's field names (first_name),
 * so a resource needs no hand-written column map: a field with a same-named column is stored
 * there; a field without one (password, username of a teacher) is left to the hooks.
 */
import { eq, getTableColumns, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';

export interface TableColumns {
  /** SQL name -> column */
  byName: Record<string, AnyPgColumn>;
  /** SQL name -> the drizzle property used in insert/update objects */
  keyOf: Record<string, string>;
  /** Absent on platform tables (tenants), which belong to no tenant. */
  tenantId?: AnyPgColumn;
  id: AnyPgColumn;
  version: AnyPgColumn;
  createdAt: AnyPgColumn;
  updatedAt: AnyPgColumn;
  search: AnyPgColumn;
}

const cache = new WeakMap<PgTable, TableColumns>();

export function tableColumns(table: PgTable): TableColumns {
  const hit = cache.get(table);
  if (hit) return hit;
  const byName: Record<string, AnyPgColumn> = {};
  const keyOf: Record<string, string> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    byName[column.name] = column as AnyPgColumn;
    keyOf[column.name] = key;
  }
  const need = (name: string) => {
    const c = byName[name];
    if (!c) throw new Error(`table lacks column ${name}`);
    return c;
  };
  const result: TableColumns = {
    byName,
    keyOf,
    tenantId: byName.tenant_id,
    id: need('id'),
    version: need('version'),
    createdAt: need('created_at'),
    updatedAt: need('updated_at'),
    search: need('search'),
  };
  cache.set(table, result);
  return result;
}

/** The condition keeping a statement inside the caller's tenant; none on a platform table. */
export const ownRows = (cols: TableColumns, tenantId: number): SQL | undefined => (cols.tenantId ? eq(cols.tenantId, tenantId) : undefined);
