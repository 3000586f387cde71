/**
 * The centre's tables as they are stored, for the whole-centre archive (archive.ts): every
 * table holding a centre's rows (a NOT NULL tenant_id, the same rule row-level security is
 * derived by: server/db/tenant-policies.ts), read from the database's catalogue, so a table
 * added later is archived with no other code. What must never leave the server is left out
 * by the declaration below; columns derived from the row (search text, sort keys) are left
 * out as repeating it.
 */
import { sql } from 'drizzle-orm';
import { MAX_PAGE_ROWS } from '../../../domain/index';
import type { Database, Tx } from '../../db/types';
import { withTenant } from '../../db/doors';
import { queryRows } from '../../db/statements';

type Row = Record<string, unknown>;

/**
 * Secrets, by table: password hashes, the hashes of refresh tokens, invitation links and
 * calendar links (each would let a holder in), and the sealed myDATA subscription key.
 */
export const SECRET_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  users: ['password_hash'],
  refresh_tokens: ['token_hash'],
  portal_invitations: ['token_hash'],
  calendar_feeds: ['secret_hash'],
  centre_settings: ['mydata_subscription_key'],
  // a fingerprint of a retried write's request (method, address, body): nothing to keep
  idempotency_keys: ['request_hash'],
};

/** The centre's tables, by name. */
export async function tenantTables(tx: Tx): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    tx,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'r' and exists (
        select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and a.attnotnull and not a.attisdropped)
      order by c.relname`,
  );
  return rows.map((r) => r.name);
}

export interface TableShape {
  name: string;
  /** What the archive holds of each row, in the table's order. */
  columns: string[];
  /** The columns left out. */
  left: string[];
  /** The primary key's columns with their types, to read the table a page at a time. */
  key: { name: string; type: string }[];
}

export async function shapeOf(tx: Tx, table: string): Promise<TableShape> {
  const columns = await queryRows<{ name: string; generated: string; key: boolean; type: string }>(
    tx,
    sql`select a.attname as name, a.attgenerated::text as generated, format_type(a.atttypid, a.atttypmod) as type,
        exists (select 1 from pg_index i where i.indrelid = a.attrelid and i.indisprimary and a.attnum = any(i.indkey)) as key
      from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relname = ${table} and a.attnum > 0 and not a.attisdropped order by a.attnum`,
  );
  const secret = new Set(SECRET_COLUMNS[table] ?? []);
  const kept = (c: { name: string; generated: string }) => !secret.has(c.name) && c.name !== 'search' && !c.generated;
  return {
    name: table,
    columns: columns.filter(kept).map((c) => c.name),
    left: columns.filter((c) => !kept(c)).map((c) => c.name),
    key: columns.filter((c) => c.key).map((c) => ({ name: c.name, type: c.type })),
  };
}

/**
 * The centre's rows of one table, a page at a time in key order, each page in its own short
 * transaction (a table without a key is read by its columns' order and offset).
 */
export async function* tablePages(database: Database, tenantId: number, shape: TableShape): AsyncGenerator<Row[]> {
  const left = sql`array[${sql.join(
    shape.left.map((c) => sql`${c}`),
    sql`, `,
  )}]::text[]`;
  const order = shape.key.length ? shape.key : shape.columns.map((name) => ({ name, type: '' }));
  const orderBy = sql.join(
    order.map((k) => sql`t.${sql.identifier(k.name)}`),
    sql`, `,
  );
  let after: string[] | undefined;
  for (let offset = 0; ; offset += MAX_PAGE_ROWS) {
    const past =
      after && shape.key.length
        ? sql`and (${orderBy}) > (${sql.join(
            shape.key.map((k, i) => sql`${after![i]}::${sql.raw(k.type)}`),
            sql`, `,
          )})`
        : sql``;
    const found = await withTenant(database, tenantId, (tx) =>
      queryRows<{ r: Row; k: string[] }>(
        tx,
        sql`select to_jsonb(t) - ${left} as r, array[${sql.join(
          shape.key.map((k) => sql`t.${sql.identifier(k.name)}::text`),
          sql`, `,
        )}]::text[] as k
          from ${sql.identifier(shape.name)} t where t.tenant_id = ${tenantId} ${past}
          order by ${orderBy} limit ${MAX_PAGE_ROWS} ${shape.key.length ? sql`` : sql`offset ${offset}`}`,
      ),
    );
    if (found.length) yield found.map((f) => f.r);
    if (found.length < MAX_PAGE_ROWS) return;
    after = found[found.length - 1]!.k;
  }
}
