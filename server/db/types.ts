/**
 * The database's types: what the rest of the server holds (Database) and what its queries run
 * on (Db, Tx). The rest of server/db, by job:
 *  - opening: open.ts (PGlite or PostgreSQL, options), pglite-turns.ts (PGlite's queue),
 *    own-connection.ts (a PGlite transaction that would wait on itself), counting.ts, hosts.ts;
 *  - the doors to data: doors.ts (withTenant, withFamily, withPlatform, enterTenant),
 *    idempotency.ts (a keyed write's reservation inside its door);
 *  - the read batch: read-batch.ts (withTenantReads), read-channels.ts, prepared.ts;
 *  - statements: statements.ts (writeStatement, KeptStatements, writtenRows, queryRows, inlineParams);
 *  - drizzle's private parts: drizzle-inside.ts, and nowhere else.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { Assume, ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type * as schema from './schema/index';

export type Schema = typeof schema;
export type SchemaTables = ExtractTablesWithRelations<Schema>;

/** What a raw statement answers on either driver (node-postgres's QueryResult, PGlite's Results both have it): its rows. */
type Answered<Row> = { rows: Row[] };
/** Raw statements (`execute`) answer their rows, whichever driver runs them. */
interface RowsResult extends PgQueryResultHKT {
  type: Answered<Assume<this['row'], Record<string, unknown>>>;
}

export type Db = PgDatabase<RowsResult, Schema>;
export type Tx = PgTransaction<RowsResult, Schema, SchemaTables>;
/** Anything queries can run on: the database itself or an open transaction. */
export type Queryable = Db | Tx;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Set in PGlite mode (backups use dumpDataDir). */
  pglite?: PGlite;
  /** Set in PostgreSQL mode (migrations take a dedicated connection for the advisory lock). */
  pool?: pg.Pool;
  /** PostgreSQL: a URL past any transaction-mode pooler, for sessions of their own (LISTEN, the migration lock). */
  directUrl?: string;
  /**
   * Whether a connection keeps what it prepared from one request to the next (PGlite; a
   * PostgreSQL server reached directly). Behind a pooler in transaction mode (a direct URL of
   * its own given), the next request's connection may be another.
   */
  keepsPrepared: boolean;
  close(): Promise<void>;
}
