/**
 * The one place that reaches into drizzle's private parts. Two doors build drizzle transactions
 * of their own rather than asking drizzle for one: withTenant on node-postgres (BEGIN and the
 * tenant settings in one message, doors.ts) and withTenantReads (no BEGIN at all; a batch of
 * reads stands in for the driver's client, read-batch.ts). For that they need what drizzle
 * keeps inside a database: its dialect and its session's options.
 *
 * tests/unit/drizzle-inside.test.ts checks that what this file relies on is still there and
 * behaves; when a drizzle upgrade makes it fail, see that file's header.
 */
import { is } from 'drizzle-orm';
import { type NodePgClient, NodePgSession, type NodePgSessionOptions, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import { PgliteSession, type PgliteSessionOptions, PgliteTransaction } from 'drizzle-orm/pglite';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Db, Schema, SchemaTables, Tx } from './types';

/** drizzle changed what this file relies on (see tests/unit/drizzle-inside.test.ts). */
class DrizzleInsideChanged extends Error {
  constructor(what: string) {
    super(`drizzle-orm no longer keeps ${what}: server/db/drizzle-inside.ts must follow it`);
    this.name = 'DrizzleInsideChanged';
  }
}

interface Inside {
  dialect: PgDialect;
  options: NodePgSessionOptions & PgliteSessionOptions;
}

const insides = new WeakMap<Db, Inside>();

/** What a transaction of our own is built from: the database's dialect (private) and its session's options (private). */
export function insideOf(db: Db): Inside {
  const known = insides.get(db);
  if (known) return known;
  const dialect: unknown = Reflect.get(db, 'dialect');
  if (!is(dialect, PgDialect)) throw new DrizzleInsideChanged('its PgDialect in a database\'s "dialect"');
  const options: unknown = Reflect.get(db._.session, 'options');
  if (typeof options !== 'object' || options === null) throw new DrizzleInsideChanged('the options it was given in a session\'s "options"');
  const inside = { dialect, options };
  insides.set(db, inside);
  return inside;
}

function nodePgTransaction(db: Db, client: NodePgClient): Tx {
  const { dialect, options } = insideOf(db);
  // No relational schema: like every transaction drizzle opens, `tx.query` is not used on these.
  const session = new NodePgSession<Schema, SchemaTables>(client, dialect, undefined, options);
  return new NodePgTransaction<Schema, SchemaTables>(dialect, session, undefined);
}

function pgliteTransaction(db: Db, client: PGlite): Tx {
  const { dialect, options } = insideOf(db);
  const session = new PgliteSession<Schema, SchemaTables>(client, dialect, undefined, options);
  return new PgliteTransaction<Schema, SchemaTables>(dialect, session, undefined);
}

/** A drizzle transaction on a connection already in one (BEGIN sent by the caller, who also ends it). */
export const transactionOnConnection = (db: Db, client: pg.PoolClient): Tx => nodePgTransaction(db, client);

/**
 * A drizzle transaction whose every query goes to `imitation`, which answers `query` as the
 * driver's client would: node-postgres's query(config, params) or PGlite's query(text, params,
 * options), answering { rows, fields }.
 */
export function transactionOnImitation(db: Db, driver: 'postgres' | 'pglite', imitation: object): Tx {
  const client = imitation as unknown as pg.PoolClient & PGlite;
  return driver === 'postgres' ? nodePgTransaction(db, client) : pgliteTransaction(db, client);
}
