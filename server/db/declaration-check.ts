/**
 * Does a table agree with its resource's declaration? Each declared field needs a column of
 * the SQL type its field type is stored as (schema/declared.ts, STORED_AS), NOT NULL exactly
 * when the field is required or has a default, and behind a REFERENCE a foreign key that
 * includes tenant_id; a REFERENCES field needs its join table, a PASSWORD its secret column.
 * Fields a spec fills from elsewhere (computed, joined, shown) are named as such and only
 * need to exist there. tests/unit/declaration-tables.test.ts runs this over every declaration.
 */
import { getTableConfig, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { FieldDef, ResourceDef } from '../../domain/index';
import { isNullable, storedAs } from './schema/declared';

/** What a resource's server spec adds beside its table (a subset of ResourceSpec). */
export interface TableSide {
  table: PgTable;
  /** Join tables behind REFERENCES fields. */
  links?: Record<string, unknown>;
  /** Write-only fields kept transformed in a column of another name. */
  secrets?: Record<string, { column: string }>;
  /** Read-only values the spec computes or joins instead of a column of the table. */
  computed?: Record<string, unknown>;
  join?: { fields: Record<string, unknown> };
  shown?: Record<string, unknown>;
}

/** SQL types a stored-as kind accepts (`varchar(20)` is text; money may be bigint). */
const ACCEPTS: Record<string, (sqlType: string) => boolean> = {
  text: (t) => t === 'text' || t.startsWith('varchar'),
  integer: (t) => t === 'integer' || t === 'bigint' || t === 'smallint',
  numeric: (t) => t.startsWith('numeric') || t === 'double precision' || t === 'real',
  date: (t) => t === 'date',
  time: (t) => t.startsWith('time') && !t.startsWith('timestamp'),
  timestamp: (t) => t.startsWith('timestamp'),
  boolean: (t) => t === 'boolean',
  jsonb: (t) => t === 'jsonb' || t === 'json',
};

function checkColumn(def: ResourceDef, field: FieldDef, column: PgColumn, foreignKeys: readonly (readonly string[])[]): string[] {
  const problems: string[] = [];
  const where = `${def.name}.${field.name}`;
  const kind = storedAs(field);
  const sqlType = column.getSQLType();
  if (!ACCEPTS[kind]?.(sqlType)) problems.push(`${where}: a ${field.type}${field.integer ? ' (integer)' : ''} field on a ${sqlType} column (wants ${kind})`);
  // A read-only field is set by the server, which may keep it NOT NULL without the client sending it.
  if (!field.readOnly && column.notNull === isNullable(field)) {
    problems.push(`${where}: the field is ${isNullable(field) ? 'optional' : 'required or defaulted'}, the column ${column.notNull ? 'NOT NULL' : 'nullable'}`);
  }
  if (field.type === 'REFERENCE' && field.name !== 'id') {
    const tenantScoped = def.scope !== 'platform';
    const found = foreignKeys.some((columns) => columns.includes(column.name) && (!tenantScoped || columns.includes('tenant_id')));
    if (!found) problems.push(`${where}: a REFERENCE without a foreign key${tenantScoped ? ' including tenant_id' : ''}`);
  }
  return problems;
}

/** Every disagreement between a declaration and its table, said in words; none when they agree. */
export function declarationProblems(def: ResourceDef, side: TableSide): string[] {
  const config = getTableConfig(side.table);
  const columns = new Map(config.columns.map((c) => [c.name, c]));
  const foreignKeys = config.foreignKeys.map((fk) => fk.reference().columns.map((c) => c.name));
  const problems: string[] = [];
  for (const key of ['id', 'version', 'created_at', 'updated_at', 'search', ...(def.scope === 'platform' ? [] : ['tenant_id'])]) {
    if (!columns.has(key)) problems.push(`${def.name}: the table ${config.name} lacks ${key}`);
  }
  for (const field of def.fields) {
    const where = `${def.name}.${field.name}`;
    if (field.type === 'REFERENCES') {
      if (!side.links?.[field.name]) problems.push(`${where}: a REFERENCES field without its join table`);
      continue;
    }
    const secret = side.secrets?.[field.name];
    if (secret) {
      if (!columns.has(secret.column)) problems.push(`${where}: its secret column ${secret.column} is not in ${config.name}`);
      continue;
    }
    const column = columns.get(field.name);
    if (column) {
      problems.push(...checkColumn(def, field, column, foreignKeys));
      continue;
    }
    const elsewhere = [side.computed, side.join?.fields, side.shown].some((values) => values && field.name in values);
    // A write-only field without a column is kept by the spec's hooks (a teacher's password in her user row).
    if (!elsewhere && !field.writeOnly) problems.push(`${where}: no column in ${config.name}`);
  }
  return problems;
}
