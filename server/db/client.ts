/**
 * The database: PGlite (embedded; in memory or in DATA_DIR/pgdata) or a PostgreSQL server
 * (node-postgres pool) when a URL is given. The rest of the server sees one drizzle API and
 * reaches data only through two doors:
 *  - withTenant(): tenant data, as role frontis_app with app.tenant_id set, so row-level
 *    security applies on top of the tenant_id conditions the code writes anyway;
 *  - platform() / withPlatform(): tenants, root users, secrets, login attempts.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { sql, type ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg, NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema/index';
import { countRoundTrip } from './counting';
import { isDatabaseUnavailable } from './unavailable';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything queries can run on: the database itself or an open transaction. */
export type Queryable = Db | Tx;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Set in PGlite mode (backups use dumpDataDir). */
  pglite?: PGlite;
  /** Set in PostgreSQL mode (migrations take a dedicated connection for the advisory lock). */
  pool?: pg.Pool;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres://… : use a PostgreSQL server. */
  url?: string;
  /** DATA_DIR: PGlite keeps its files in DATA_DIR/pgdata. Omit both for in-memory PGlite. */
  dataDir?: string;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
  /** Told when a PostgreSQL connection breaks (the request using it gets 503; the pool replaces it). */
  onConnectionError?: (error: Error) => void;
}

/** How long a request waits for a connection before it is answered 503 rather than hanging. */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * A node-postgres pool that survives the server going away. A client emits 'error' when its
 * connection dies; the pool listens only while the client is idle, and an 'error' event
 * nobody listens to ends the process. So every client gets a listener of its own for its
 * whole life; the query in flight fails on its own (and its request gets 503), and the pool
 * drops the broken client on release. New connections are made as requests come, so service
 * resumes as soon as the server accepts connections again.
 */
function resilientPool(opts: OpenOptions & { url: string }): pg.Pool {
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.maxConnections ?? 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  const report = (error: Error) => opts.onConnectionError?.(error);
  pool.on('error', report);
  pool.on('connect', (client) => {
    client.on('error', report);
    countQueries(client as unknown as Countable);
  });
  return pool;
}

type Countable = { query: (...args: unknown[]) => unknown };

/**
 * Makes every query of a node-postgres client (one round trip each) count towards the
 * request's counter (counting.ts). Counted when answered, with the statements the answer
 * holds (a simple-protocol script answers one result per statement).
 */
function countQueries(client: Countable) {
  // A query inherited from the class is looked up at each call, so that a later wrapper of the
  // class's own (the bench's statement capture) still sees every query.
  const own = Object.hasOwn(client, 'query') ? client.query : undefined;
  const proto = Object.getPrototypeOf(client) as Countable;
  client.query = function (this: unknown, ...args: unknown[]) {
    const query = own ?? proto.query;
    // pool.query() passes a callback rather than waiting on the promise.
    const last = args.length - 1;
    const callback = args[last];
    const answered = countRoundTrip();
    if (typeof callback === 'function') {
      args[last] = (error: unknown, result: unknown) => {
        answered(result);
        return callback(error, result);
      };
      return query.apply(this, args);
    }
    const out = query.apply(this, args);
    if (out && typeof (out as Promise<unknown>).then === 'function') {
      return (out as Promise<unknown>).then((result) => {
        answered(result);
        return result;
      });
    }
    answered();
    return out;
  };
}

/**
 * The same for PGlite: query and exec are one round trip each (exec counts the statements
 * of its script); a transaction adds its BEGIN and its COMMIT (or ROLLBACK) to what runs in it.
 */
function countPgliteQueries(pglite: PGlite) {
  const lite = pglite as unknown as Countable & { exec: Countable['query']; transaction: PGlite['transaction'] };
  countQueries(lite);
  const exec = lite.exec;
  lite.exec = function (this: unknown, ...args: unknown[]) {
    const answered = countRoundTrip();
    return (exec.apply(this, args) as Promise<unknown>).then((result) => {
      answered(result);
      return result;
    });
  };
  const transaction = lite.transaction;
  lite.transaction = function <T>(this: PGlite, fn: Parameters<PGlite['transaction']>[0]) {
    countRoundTrip()();
    const ended = countRoundTrip();
    return transaction
      .call(this, (tx) => {
        countQueries(tx as unknown as Countable);
        const txExec = tx.exec;
        tx.exec = (...args: Parameters<typeof txExec>) => {
          const answered = countRoundTrip();
          return txExec.apply(tx, args).then((result) => {
            answered(result);
            return result;
          });
        };
        return fn(tx);
      })
      .finally(() => ended()) as Promise<T>;
  } as PGlite['transaction'];
}

export const pgliteDir = (dataDir: string) => join(dataDir, 'pgdata');

/** Extensions the migrations use (btree_gist: the lessons' exclusion constraints); every PGlite opens with them. */
export const PGLITE_EXTENSIONS = { btree_gist };

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.url) {
    const pool = resilientPool({ ...opts, url: opts.url });
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    return { kind: 'postgres', db, pool, close: () => pool.end() };
  }
  let pglite: PGlite;
  if (opts.dataDir) {
    const dir = pgliteDir(opts.dataDir);
    mkdirSync(dir, { recursive: true });
    pglite = new PGlite(dir, { extensions: PGLITE_EXTENSIONS });
  } else {
    pglite = new PGlite({ extensions: PGLITE_EXTENSIONS });
  }
  await pglite.waitReady;
  countPgliteQueries(pglite);
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    pglite,
    close: async () => {
      if (!pglite.closed) await pglite.close();
    },
  };
}

const assertTenantId = (tenantId: number) => {
  if (!Number.isSafeInteger(tenantId) || tenantId <= 0) throw new Error(`invalid tenant id ${tenantId}`);
};

/**
 * Turns the current transaction into a tenant transaction: role frontis_app (no superuser,
 * so RLS applies) and app.tenant_id, both local to the transaction so a pooled connection
 * never leaks them to the next user. One statement, one round trip.
 * Use withTenant(); call this directly only inside a platform transaction that must also
 * write tenant rows atomically (creating a tenant with its first ADMIN).
 */
export async function enterTenant(tx: Tx, tenantId: number): Promise<void> {
  assertTenantId(tenantId);
  await tx.execute(sql`select set_config('role', 'frontis_app', true), set_config('app.tenant_id', ${String(tenantId)}, true)`);
}

/** The settings of a tenant transaction as literal SQL (tenantId is checked to be a positive integer). */
const tenantSettings = (tenantId: number) => `select set_config('role', 'frontis_app', true), set_config('app.tenant_id', '${tenantId}', true)`;

/** The single door to tenant data: fn runs in a transaction that sees only tenantId's rows. */
export async function withTenant<T>(database: Database, tenantId: number, fn: (tx: Tx) => Promise<T>): Promise<T> {
  assertTenantId(tenantId);
  if (database.pool) return pgTenantTransaction(database.pool, database.db, tenantId, fn);
  return database.db.transaction(async (tx) => {
    await enterTenant(tx, tenantId);
    return fn(tx);
  });
}

type DrizzleInternals = { session: { dialect: unknown; schema: unknown; options: unknown } };

/**
 * withTenant on node-postgres: what drizzle's db.transaction() does, except that BEGIN and
 * the tenant settings travel as one simple-protocol message (one round trip instead of
 * two). The settings are transaction-local as before, so the pooled connection never keeps them.
 */
async function pgTenantTransaction<T>(pool: pg.Pool, db: Db, tenantId: number, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const root = (db as unknown as DrizzleInternals).session;
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    const session = new NodePgSession(client, root.dialect as never, root.schema as never, root.options as never);
    const tx = new NodePgTransaction(root.dialect as never, session, root.schema as never) as unknown as Tx;
    await client.query(`begin; ${tenantSettings(tenantId)}`);
    try {
      const result = await fn(tx);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch((e: Error) => (broken = e));
      throw error;
    }
  } catch (error) {
    if (isDatabaseUnavailable(error)) broken ??= error as Error;
    throw error;
  } finally {
    // A connection that failed (or whose rollback failed) is discarded, never handed to the next request.
    client.release(broken);
  }
}

/** node-postgres's own conversion of a parameter to the text it sends (arrays, dates, JSON). */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils') as { prepareValue: (value: unknown) => string | Buffer | null };

/**
 * A statement with its parameters written in as literals, exactly the text node-postgres
 * would have sent for each (its parameters are untyped, like a quoted literal, so PostgreSQL
 * reads both alike), quoted by pg's escapeLiteral. Undefined when a parameter cannot travel
 * inside the text (a NUL character or binary data): the caller then sends it on its own.
 */
export function inlineParams(text: string, params: readonly unknown[]): string | undefined {
  const literals: string[] = [];
  for (const param of params) {
    const value = prepareValue(param);
    if (value === null) literals.push('null');
    else if (typeof value !== 'string' || value.includes('\0')) return undefined;
    else literals.push(pg.escapeLiteral(value));
  }
  if (!literals.length) return text;
  return text.replace(/\$(\d+)\b/g, (whole, n: string) => literals[Number(n) - 1] ?? whole);
}

type PgQueryConfig = { text: string; rowMode?: 'array'; types?: unknown };
type Pending = { config: PgQueryConfig; params: unknown[]; resolve: (result: pg.QueryResult) => void; reject: (error: unknown) => void };

/**
 * Stands in for a node-postgres client under drizzle: the queries drizzle sends are held,
 * and those sent together (before the next turn of the event loop) go to the database as one
 * simple-protocol message behind the tenant settings, one round trip for all of them. What
 * depends on an answer waits for it and goes in the next message.
 */
class ReadBatch {
  private pending: Pending[] = [];
  private scheduled = false;

  constructor(
    private pool: pg.Pool,
    private tenantId: number,
  ) {}

  query(config: PgQueryConfig | string, params: unknown[] = []): Promise<pg.QueryResult> {
    const normalized = typeof config === 'string' ? { text: config } : config;
    return new Promise((resolve, reject) => {
      this.pending.push({ config: normalized, params, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush() {
    this.scheduled = false;
    const batch = this.pending.splice(0);
    const texts = batch.map((p) => inlineParams(p.config.text, p.params));
    // A parameter that cannot be written into the text goes alone, with the statement's parameters.
    const alone = batch.filter((_, i) => texts[i] === undefined);
    const together = batch.filter((_, i) => texts[i] !== undefined);
    for (const p of alone) void this.send([p], undefined);
    if (together.length)
      await this.send(
        together,
        texts.filter((t): t is string => t !== undefined),
      );
  }

  private async send(batch: Pending[], texts: string[] | undefined) {
    let client: pg.PoolClient | undefined;
    let broken: Error | undefined;
    try {
      client = await this.pool.connect();
      let results: pg.QueryResult[];
      if (texts) {
        const script = `${tenantSettings(this.tenantId)}; ${texts.join(';\n')}`;
        const answer = (await client.query({ text: script, rowMode: 'array', types: batch[0]!.config.types } as never)) as unknown as pg.QueryResult[];
        results = answer.slice(1);
      } else {
        // Alone: BEGIN and the settings, the statement with its parameters, COMMIT.
        await client.query(`begin; ${tenantSettings(this.tenantId)}`);
        try {
          results = [(await client.query({ ...batch[0]!.config, rowMode: 'array' } as never, batch[0]!.params)) as unknown as pg.QueryResult];
        } finally {
          await client.query('commit');
        }
      }
      batch.forEach((p, i) => {
        const result = results[i]!;
        if (p.config.rowMode === 'array') return p.resolve(result);
        // drizzle asked for rows as objects (raw SQL): named by the answer's columns.
        const names = result.fields.map((f) => f.name);
        const rows = (result.rows as unknown as unknown[][]).map((r) => Object.fromEntries(names.map((n, j) => [n, r[j]])));
        p.resolve({ ...result, rows });
      });
    } catch (error) {
      if (isDatabaseUnavailable(error)) broken = error as Error;
      for (const p of batch) p.reject(error);
    } finally {
      client?.release(broken);
    }
  }
}

/**
 * The door to tenant data for requests that only read: like withTenant(), but on PostgreSQL
 * without BEGIN and COMMIT. The queries fn sends together (a page and its count, say) travel
 * as one message with the tenant settings, which PostgreSQL runs as one implicit transaction:
 * role frontis_app and app.tenant_id apply to them and end with them, as in withTenant(). fn
 * must not write (nothing would roll it back with the rest). On PGlite (no network) it is
 * withTenant().
 */
export async function withTenantReads<T>(database: Database, tenantId: number, fn: (tx: Tx) => Promise<T>): Promise<T> {
  assertTenantId(tenantId);
  if (!database.pool) return withTenant(database, tenantId, fn);
  const root = (database.db as unknown as DrizzleInternals).session;
  const session = new NodePgSession(new ReadBatch(database.pool, tenantId) as never, root.dialect as never, root.schema as never, root.options as never);
  const tx = new NodePgTransaction(root.dialect as never, session, root.schema as never) as unknown as Tx;
  batchedReads.set(tx, database);
  return fn(tx);
}

const batchedReads = new WeakMap<Tx, Database>();

/** Whether queries on tx sent together share one round trip (so it pays to send them together). */
export const sendsTogether = (tx: Tx) => batchedReads.has(tx);

/** The database of a withTenantReads() transaction on PostgreSQL (undefined elsewhere). */
export const databaseOfReads = (tx: Tx) => batchedReads.get(tx);

/**
 * One read-only statement in a tenant's view, in a single round trip: the tenant settings
 * and the statement go as one simple-protocol message, which PostgreSQL (and PGlite) runs as
 * one implicit transaction, so role frontis_app, app.tenant_id and RLS apply exactly as in
 * withTenant() and end with it. Without bound parameters, the statement may only inline
 * values the caller has checked to be integers. For the per-request session check.
 */
export async function tenantStatement<T>(database: Database, tenantId: number, statement: string): Promise<T[]> {
  assertTenantId(tenantId);
  const script = `${tenantSettings(tenantId)}; ${statement}`;
  if (database.pglite) {
    const results = await database.pglite.exec(script);
    return results[1]!.rows as T[];
  }
  const results = (await database.pool!.query(script)) as unknown as pg.QueryResult[];
  return results[1]!.rows as T[];
}

/**
 * The door to platform tables (tenants, root_users, login_attempts, server_secrets). Runs as
 * the connecting role, without app.tenant_id: tenant tables show no rows here unless that
 * role bypasses RLS, so tenant data must not be read this way.
 */
export const platform = (database: Database): Db => database.db;

/** A platform transaction (see platform()). */
export async function withPlatform<T>(database: Database, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return database.db.transaction(fn);
}

/** Rows of a raw SQL query on either driver (pg answers {rows}, PGlite answers {rows} too). */
export async function queryRows<T>(q: Queryable, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await q.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export { migrate } from './migrate';
