/**
 * A plain resource needs no server code of its own: its spec is derived from its declaration
 * and its table, found in the drizzle schema by the table's SQL name (`class-categories` is
 * the table `class_categories`). Its rows are named by their `name` column, or by the first
 * required text field the declaration lists. Resources that differ (a sign-in, custom fields,
 * computed figures) keep a hand-written spec with hooks, which takes precedence.
 */
import { getTableName, type SQL } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import type { ResourceDef } from '../../domain/index';
import { declaredTable, type Keyed } from '../db/schema/declared';
import * as schema from '../db/schema/index';
import type { Registry } from './registry';
import type { ResourceSpec } from './spec';
import { tableColumns } from './table';

const TABLES = new Map<string, PgTable>(
  (Object.values(schema) as unknown[]).filter((value): value is PgTable => value instanceof PgTable).map((table) => [getTableName(table), table]),
);

/** The table a resource's rows live in, by naming convention. */
export const tableOf = (def: ResourceDef) => TABLES.get(def.name.replaceAll('-', '_'));

function labelOf(def: ResourceDef, table: PgTable): SQL {
  const columns = tableColumns(table).byName;
  const named = def.fields.find((f) => f.name === 'name') ?? def.fields.find((f) => f.type === 'TEXT' && f.required);
  const column = named && columns[named.name];
  if (!column) throw new Error(`${def.name}: a plain resource needs a 'name' or a required TEXT field to name its rows`);
  return column.getSQL();
}

/** Specs for the declared resources that have none of their own. */
export function plainSpecs(declared: readonly ResourceDef[], handWritten: ReadonlySet<string>): ResourceSpec[] {
  return declared
    .filter((def) => !handWritten.has(def.name))
    .map((def) => {
      const table = tableOf(def);
      if (!table) throw new Error(`${def.name} is declared but has no table named ${def.name.replaceAll('-', '_')}`);
      return { def, table, label: labelOf(def, table), importable: true };
    });
}

/**
 * Specs for declarations that have no table in the schema (BuildOptions.resources): their
 * table is derived from the declaration (declaredTable), a REFERENCE pointing at a resource
 * of `registry`. The table itself must exist in the database (a migration, or a test's DDL).
 */
export function declaredSpecs(declared: readonly ResourceDef[], registry: Registry): ResourceSpec[] {
  const references: Record<string, () => Keyed> = Object.fromEntries([...registry.targets].map(([name, target]) => [name, () => target]));
  return declared.map((def) => {
    const table = declaredTable(def, references);
    return { def, table, label: labelOf(def, table) };
  });
}
