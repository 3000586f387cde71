/**
 * The database: PGlite (embedded; in memory or in DATA_DIR/pgdata) or a PostgreSQL server
 * (node-postgres pool) when a URL is given. The rest of the server sees one drizzle API and
 * reaches data only through two doors:
 *  - withTenant(): tenant data, as role frontis_app with app.tenant_id set, so row-level
 *    security applies on top of the tenant_id conditions the code writes anyway;
 *  - platform() / withPlatform(): tenants, root users, secrets, login attempts.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { sql, type ExtractTablesWithRelations, type SQL } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT, type PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite, PgliteSession, PgliteTransaction } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg, NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema/index';
import { countRoundTrip } from './counting';
import { throughKeyedDoor } from './idempotency';
import { clientFor, HostTarget, parseHosts } from './hosts';
import { refuseWaitingOnItself } from './own-connection';
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

export interface OpenOptions {
  /** postgres://… : use a PostgreSQL server. */
  url?: string;
  /** A direct URL for session-level work when `url` goes through PgBouncer in transaction mode; defaults to `url`. */
  directUrl?: string;
  /** DATA_DIR: PGlite keeps its files in DATA_DIR/pgdata. Omit both for in-memory PGlite. */
  dataDir?: string;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
  /** Told when a PostgreSQL connection breaks (the request using it gets 503; the pool replaces it). */
  onConnectionError?: (error: Error) => void;
  /** YYYY-MM-DD: the date every centre's "today" pretends to be (FRONTIS_TODAY; tests, demonstrations). */
  today?: string;
  /** In-memory PGlite only: start from this dump of a data directory (`dumpDataDir`) instead of an empty one. */
  from?: Blob;
}

/** The connection setting that pretends the centres' date (read by the SQL function centre_today). */
const todaySetting = (today: string | undefined): Record<string, string> => {
  if (today === undefined) return {};
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new Error(`FRONTIS_TODAY must be YYYY-MM-DD, not ${today}`);
  return { 'frontis.today': today };
};

/** How long a request waits for a connection before it is answered 503 rather than hanging. */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * How long the pool keeps a connection nobody uses. node-postgres closes one after 10 s; a
 * burst of requests opens the pool's every connection, they all fall idle together when it
 * ends, and 10 s later they were all closed together. On a busy server those closes held up
 * the requests in flight for 200–700 ms (the bench's open loops: the slowest 1% all due in
 * the same 300 ms, ten seconds after the closed loop before them). Kept for ten minutes (as
 * PgBouncer keeps its server connections), a connection costs PostgreSQL an idle process.
 */
const IDLE_CONNECTION_MS = 10 * 60_000;

/**
 * A node-postgres pool that survives the server going away. A client emits 'error' when its
 * connection dies; the pool listens only while the client is idle, and an 'error' event
 * nobody listens to ends the process. So every client gets a listener of its own for its
 * whole life; the query in flight fails on its own (and its request gets 503), and the pool
 * drops the broken client on release. New connections are made as requests come, so service
 * resumes as soon as the server accepts connections again.
 */
function resilientPool(opts: OpenOptions & { url: string }, target?: HostTarget): pg.Pool {
  const pool = new pg.Pool({
    connectionString: opts.url,
    ...(target ? { Client: clientFor(target) } : {}),
    max: opts.maxConnections ?? 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    ...(opts.today === undefined ? {} : { options: `-c frontis.today=${todaySetting(opts.today)['frontis.today']}` }),
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

/**
 * PGlite runs one call at a time on this process's own event loop, and its queue starts the
 * next call as soon as one ends, in the same turn of the loop. Offered more than it could
 * serve, 32 queued requests' statements ran back to back for about 120 ms in which no
 * connection was accepted and no request read: the kernel's queue of new connections
 * overflowed, and clients waited seconds to connect instead of being refused at once (the
 * overload bench's answered p99 was 11 s). Calls now wait in a queue of our own (first come,
 * first served), and once PGlite has held the loop for TURN_MS since it last let go, the next
 * call waits for a turn of the loop (setImmediate): new connections are accepted, requests
 * read and the excess refused in between. Letting go after every call instead cost up to a
 * fifth of a list's throughput. A transaction is one call (it holds PGlite until its end anyway).
 */
const TURN_MS = 10;
/** Calls waiting in each PGlite's queue (takeTurns), not counting the one it runs: what /metrics calls its pool waits. */
const pgliteQueues = new WeakMap<PGlite, { waiting: number }>();
export const pgliteWaiting = (pglite: PGlite) => pgliteQueues.get(pglite)?.waiting ?? 0;
function takeTurns(pglite: PGlite) {
  const queue = { waiting: 0 };
  pgliteQueues.set(pglite, queue);
  let previous: Promise<unknown> = Promise.resolve();
  let heldSince = performance.now();
  const letGo = () => new Promise<void>((resolve) => setImmediate(resolve));
  const lite = pglite as unknown as Record<'query' | 'exec' | 'transaction', (...args: unknown[]) => Promise<unknown>>;
  for (const name of ['query', 'exec', 'transaction'] as const) {
    const call = lite[name];
    lite[name] = function (this: unknown, ...args: unknown[]) {
      queue.waiting++;
      const answer = previous.then(async () => {
        queue.waiting--;
        if (performance.now() - heldSince > TURN_MS) {
          await letGo();
          heldSince = performance.now();
        }
        return call.apply(this, args);
      });
      previous = answer.catch(() => undefined);
      return answer;
    };
  }
}

export const pgliteDir = (dataDir: string) => join(dataDir, 'pgdata');

/** Extensions the migrations use (btree_gist: the lessons' exclusion constraints); every PGlite opens with them. */
export const PGLITE_EXTENSIONS = { btree_gist };

/**
 * PGlite's memory. Its WebAssembly memory grows to what the database touches and never
 * shrinks, and an in-memory database also keeps its files (tables and WAL) in the process:
 *  - shared_buffers 32 MB instead of 128 MB (16 MB in memory, where every page is in the
 *    process anyway): a page not in the buffers is read from PGlite's file system in the same
 *    process (from memory, or the OS's cache of DATA_DIR), cheaply; a large centre's hot pages
 *    (lessons of the weeks in view, students) stay in them;
 *  - maintenance_work_mem 16 MB instead of 64 MB (VACUUM and index builds);
 *  - the WAL: a single-process PostgreSQL only recycles WAL files at a checkpoint, which it
 *    never requests itself, so keepWalSmall() runs one whenever 32 MB have been written since
 *    the last (otherwise seeding a school year of lessons leaves 160 MB of WAL files), and
 *    keeps two or three 16 MB files rather than up to 1 GB;
 *  - in memory, no full-page images in the WAL: they protect pages on disk against a torn
 *    write in a crash, and an in-memory database does not outlive one.
 */
const PGLITE_SETTINGS: Record<string, string> = { shared_buffers: '32MB', maintenance_work_mem: '16MB', max_wal_size: '32MB', min_wal_size: '32MB' };
const IN_MEMORY_SETTINGS: Record<string, string> = { shared_buffers: '16MB', full_page_writes: 'off' };
const WAL_CHECK_MS = 5000;
const WAL_CHECKPOINT_BYTES = 32 * 1024 * 1024;

/** Checkpoints when enough WAL was written since the last one, so the WAL files are recycled. */
function keepWalSmall(pglite: PGlite): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy || pglite.closed) return;
    busy = true;
    pglite
      .query<{ over: boolean }>(`select pg_current_wal_insert_lsn() - (select redo_lsn from pg_control_checkpoint()) > ${WAL_CHECKPOINT_BYTES} as over`)
      .then(async ({ rows }) => {
        if (rows[0]?.over) await pglite.exec('checkpoint');
      })
      // Closed meanwhile, or failing for a reason the next request will report: try again later.
      .catch(() => undefined)
      .finally(() => (busy = false));
  }, WAL_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.url) {
    // Several hosts (pg_autoctl's URL): connections go to the writable one, found again after a failover.
    const hosts = parseHosts(opts.url, 'DATABASE_URL');
    const target = hosts ? await HostTarget.open(hosts, 'DATABASE_URL', CONNECT_TIMEOUT_MS) : undefined;
    const directHosts = opts.directUrl ? parseHosts(opts.directUrl, 'DATABASE_DIRECT_URL') : undefined;
    const directTarget = directHosts ? await HostTarget.open(directHosts, 'DATABASE_DIRECT_URL', CONNECT_TIMEOUT_MS) : undefined;
    const pool = resilientPool({ ...opts, url: target?.current ?? opts.url }, target);
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    const keepsPrepared = !opts.directUrl || opts.directUrl === opts.url;
    const session = directTarget ?? (opts.directUrl ? undefined : target);
    const directUrl = opts.directUrl ?? opts.url;
    return {
      kind: 'postgres',
      db,
      pool,
      // A session of its own (LISTEN, the migrations' lock) opens on the current host each time.
      get directUrl() {
        return session?.current ?? directUrl;
      },
      keepsPrepared,
      close: () => pool.end(),
    };
  }
  const settings = { ...PGLITE_SETTINGS, ...(opts.dataDir ? {} : IN_MEMORY_SETTINGS), ...todaySetting(opts.today) };
  const startParams = [...PGlite.defaultStartParams, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
  let pglite: PGlite;
  if (opts.dataDir) {
    const dir = pgliteDir(opts.dataDir);
    mkdirSync(dir, { recursive: true });
    pglite = new PGlite(dir, { extensions: PGLITE_EXTENSIONS, startParams });
  } else {
    pglite = new PGlite({ extensions: PGLITE_EXTENSIONS, startParams, ...(opts.from ? { loadDataDir: opts.from } : {}) });
  }
  await pglite.waitReady;
  countPgliteQueries(pglite);
  takeTurns(pglite);
  refuseWaitingOnItself(pglite);
  const stopWalCheck = keepWalSmall(pglite);
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    pglite,
    keepsPrepared: true,
    close: async () => {
      stopWalCheck();
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
  // A write sent with an Idempotency-Key reserves it in this same transaction (idempotency.ts).
  return throughKeyedDoor(tenantId, fn, (run) => {
    if (database.pool) return pgTenantTransaction(database.pool, database.db, tenantSettings(tenantId), run);
    return database.db.transaction(async (tx) => {
      await enterTenant(tx, tenantId);
      return run(tx);
    });
  });
}

/**
 * The settings of a family transaction as literal SQL: role frontis_guardian, the centre and
 * the guardian (both checked to be positive integers), local to the transaction.
 */
const familySettings = (tenantId: number, guardianId: number) =>
  `select set_config('role', 'frontis_guardian', true), set_config('app.tenant_id', '${tenantId}', true), set_config('app.guardian_id', '${guardianId}', true)`;

/**
 * The door to one family's data (a guardian's portal requests): like withTenant(), but as role
 * frontis_guardian with app.guardian_id set too, so row-level security (family-policies.ts)
 * shows fn only this guardian's own row, her children and what hangs off them, whatever its
 * queries forget to narrow.
 */
export async function withFamily<T>(database: Database, tenantId: number, guardianId: number, fn: (tx: Tx) => Promise<T>): Promise<T> {
  assertTenantId(tenantId);
  if (!Number.isSafeInteger(guardianId) || guardianId <= 0) throw new Error(`invalid guardian id ${guardianId}`);
  return throughKeyedDoor(tenantId, fn, (run) => {
    if (database.pool) return pgTenantTransaction(database.pool, database.db, familySettings(tenantId, guardianId), run);
    return database.db.transaction(async (tx) => {
      await tx.execute(sql.raw(familySettings(tenantId, guardianId)));
      return run(tx);
    });
  });
}

type DrizzleInternals = { session: { dialect: unknown; schema: unknown; options: unknown } };

/**
 * withTenant (and withFamily) on node-postgres: what drizzle's db.transaction() does, except that BEGIN and
 * the tenant settings travel as one simple-protocol message (one round trip instead of
 * two). The settings are transaction-local as before, so the pooled connection never keeps them.
 */
async function pgTenantTransaction<T>(pool: pg.Pool, db: Db, settings: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const root = (db as unknown as DrizzleInternals).session;
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    const session = new NodePgSession(client, root.dialect as never, undefined as never, root.options as never);
    const tx = new NodePgTransaction(root.dialect as never, session, undefined as never) as unknown as Tx;
    await client.query(`begin; ${settings}`);
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
 * The literal pg's escapeLiteral writes (quotes doubled; with a backslash, backslashes doubled
 * too and an E string), made by splitting and joining where pg adds one character at a time:
 * a megabyte took 280–370 ms there and 1–60 ms here (most for a megabyte of quotes).
 */
export function quoteLiteral(value: string): string {
  const quoted = value.split("'").join("''");
  return value.includes('\\') ? ` E'${quoted.split('\\').join('\\\\')}'` : `'${quoted}'`;
}

/**
 * A statement with its parameters written in as literals, exactly the text node-postgres
 * would have sent for each (its parameters are untyped, like a quoted literal, so PostgreSQL
 * reads both alike), quoted as pg's escapeLiteral quotes (quoteLiteral). Undefined when a
 * parameter cannot travel inside the text (a NUL character or binary data): the caller then
 * sends it on its own.
 */
export function inlineParams(text: string, params: readonly unknown[]): string | undefined {
  const literals: string[] = [];
  for (const param of params) {
    const value = prepareValue(param);
    if (value === null) literals.push('null');
    else if (typeof value !== 'string' || value.includes('\0')) return undefined;
    else literals.push(quoteLiteral(value));
  }
  if (!literals.length) return text;
  return text.replace(/\$(\d+)\b/g, (whole, n: string) => literals[Number(n) - 1] ?? whole);
}

/**
 * A read-only statement (only checked integers written in) sent ahead of the first message of
 * a withTenantReads(), in the same tenant view: the per-request session check. `judge` sees its
 * rows before any other answer of that message is given; an error it returns is what every
 * query of the message rejects with.
 */
export interface FirstStatement {
  text: string;
  /** The same with its parameters apart, to prepare where the connection keeps prepared statements. */
  written?: WrittenStatement;
  judge(rows: Record<string, unknown>[]): Error | undefined;
}

type QueryConfig = { text: string; rowMode?: 'array' | 'object'; types?: unknown; parsers?: Record<number, (value: string) => unknown> };
type Answer = { rows: unknown[]; fields: { name: string }[] };
type Pending = { config: QueryConfig; params: unknown[]; written?: WrittenStatement; resolve: (result: Answer) => void; reject: (error: unknown) => void };

/** An answer's rows (sent as arrays) as objects named by its columns. */
const rowsAsObjects = (answer: Answer): Record<string, unknown>[] => {
  const names = answer.fields.map((f) => f.name);
  return (answer.rows as unknown[][]).map((r) => Object.fromEntries(names.map((n, j) => [n, r[j]])));
};

/**
 * A statement of a read message: its text with the parameters written in, and a kept one as
 * written too (to prepare it). The text may be a getter that writes the values in when first
 * read: a kept statement already prepared on the connection travels as `execute`, and its
 * whole text (a list page's is several KB) is then never written out.
 */
export interface ScriptStatement {
  readonly text: string;
  written?: WrittenStatement;
}

/** How many statements one connection keeps prepared before it lets them all go and starts again. */
const PREPARED_PER_CONNECTION = 64;

/** Texts PostgreSQL would not prepare (a parameter whose type it cannot tell): sent with their parameters written in. */
const unpreparable = new Set<string>();
const UNPREPARABLE_MAX = 1000;

/**
 * A prepared statement's name: this process's own prefix and a number never reused in it, so a
 * name stands for one text wherever it is found. Behind a pooler that hands one server
 * connection to several processes (it should not be, see `keepsPrepared`), a name prepared by
 * another process is then unknown here, never another statement.
 */
const PREPARED_PREFIX = `frontis_${randomBytes(4).toString('hex')}_`;
let preparedNames = 0;

/**
 * The kept statements one connection has prepared, by their text. A kept statement (a list's
 * page, read again and again) is planned anew every time it travels as text; prepared once on
 * a connection, its next runs there execute the plan PostgreSQL keeps (after its first few
 * runs, a generic plan unless the values make a worse one). `PREPARE` travels in the same
 * message as the statement's first `EXECUTE`, so no round trip is added. Nothing else on these
 * connections prepares named statements, so letting them all go (`deallocate all`) is safe.
 */
class PreparedOnConnection {
  private names = new Map<string, string>();
  private forgetAll = false;

  /** The message's lines for `statements`, and for each statement the line whose answer is its rows. */
  plan(statements: readonly ScriptStatement[], inline: Inline): { lines: string[]; answers: number[]; prepared: string[]; executes: boolean } {
    const lines: string[] = [];
    const answers: number[] = [];
    const prepared: string[] = [];
    let executes = false;
    if (this.forgetAll || this.names.size + statements.length > PREPARED_PER_CONNECTION) {
      lines.push('deallocate all');
      this.names.clear();
      this.forgetAll = false;
    }
    for (const statement of statements) {
      const written = statement.written;
      const run = written && !unpreparable.has(written.text) ? this.execute(written, statement, inline) : undefined;
      if (!run) {
        lines.push(statement.text);
      } else {
        if (run.prepare) {
          lines.push(run.prepare);
          prepared.push(written!.text);
        }
        lines.push(run.execute);
        executes = true;
      }
      answers.push(lines.length - 1);
    }
    return { lines, answers, prepared, executes };
  }

  /** After a failed message, what it prepared is unknown: the next message starts by letting all go. */
  forget() {
    this.names.clear();
    this.forgetAll = true;
  }

  /** `statement.text` (the values written in) is read only for a statement prepared with its values in its text. */
  private execute(written: WrittenStatement, statement: ScriptStatement, inline: Inline): { prepare?: string; execute: string } | undefined {
    const text = written.valuesInText ? statement.text : written.text;
    const known = this.names.get(text);
    const name = known ?? `${PREPARED_PREFIX}${++preparedNames}`;
    const placeholders = written.valuesInText ? '' : written.params.map((_, i) => `$${i + 1}`).join(', ');
    const execute = inline(placeholders ? `execute ${name}(${placeholders})` : `execute ${name}`, written.params);
    if (execute === undefined) return undefined;
    if (known) return { execute };
    this.names.set(text, name);
    return { prepare: `prepare ${name} as ${text}`, execute };
  }
}

const preparedOn = new WeakMap<object, PreparedOnConnection>();
const preparedOf = (connection: object) => {
  let kept = preparedOn.get(connection);
  if (!kept) preparedOn.set(connection, (kept = new PreparedOnConnection()));
  return kept;
};

/** A connection a read message goes on: how to send a script there, and what it keeps prepared (where it keeps anything). */
interface ReadConnection {
  kept?: PreparedOnConnection;
  send(script: string): Promise<Answer[]>;
}

/** Runs fn on a connection; `drop` asks for that connection not to be used again. */
type OnConnection = <T>(fn: (connection: ReadConnection, drop: () => void) => Promise<T>) => Promise<T>;

/**
 * Sends `statements` behind the tenant settings as one message, prepared where the connection
 * keeps them. A message that fails with something prepared or executed in it is sent once
 * more as plain text (on another connection where the pool has more): what it prepared is
 * then taken for something PostgreSQL would not prepare, and the failed connection's prepared
 * statements are let go. Answers one per statement.
 */
async function sendScript(statements: readonly ScriptStatement[], tenantId: number, inline: Inline, onConnection: OnConnection): Promise<Answer[]> {
  const settings = tenantSettings(tenantId);
  // Written out only where it travels: a connection that keeps nothing prepared, or a message sent again.
  const plain = () => [settings, ...statements.map((s) => s.text)].join(';\n');
  let failed: string[] | undefined;
  const answers = await onConnection(async ({ kept, send }, drop) => {
    if (!kept) return (await send(plain())).slice(1);
    const plan = kept.plan(statements, inline);
    try {
      const answer = (await send([settings, ...plan.lines].join(';\n'))).slice(1);
      return plan.answers.map((i) => answer[i]!);
    } catch (error) {
      kept.forget();
      if (!plan.executes || isDatabaseUnavailable(error)) throw error;
      drop();
      failed = plan.prepared;
      return undefined;
    }
  });
  if (answers) return answers;
  const again = (await onConnection(({ send }) => send(plain()))).slice(1);
  if (unpreparable.size + failed!.length > UNPREPARABLE_MAX) unpreparable.clear();
  for (const text of failed!) unpreparable.add(text);
  return again;
}

/**
 * How a ReadBatch reaches its database: a script (the tenant settings, then the statements,
 * one message run as one implicit transaction) answering rows as arrays; or, for a statement
 * whose parameters cannot be written into its text, BEGIN and the settings, the statement with
 * its parameters, and COMMIT.
 */
interface ReadChannel {
  script(statements: ScriptStatement[], first: QueryConfig): Promise<Answer[]>;
  alone(config: QueryConfig, params: unknown[]): Promise<Answer>;
}

/** The channel over a node-postgres pool: a connection per message, dropped if it broke (or failed with statements prepared on it). */
function pgChannel(pool: pg.Pool, tenantId: number, keepsPrepared: boolean): ReadChannel {
  const onClient = async <T>(fn: (client: pg.PoolClient, drop: () => void) => Promise<T>): Promise<T> => {
    let client: pg.PoolClient | undefined;
    let broken: Error | undefined;
    try {
      client = await pool.connect();
      return await fn(client, () => (broken ??= new Error('a failed message left its prepared statements unknown')));
    } catch (error) {
      if (isDatabaseUnavailable(error)) broken = error as Error;
      throw error;
    } finally {
      client?.release(broken);
    }
  };
  return {
    script: (statements, first) =>
      sendScript(statements, tenantId, inlineParams, (fn) =>
        onClient((client, drop) =>
          fn(
            {
              kept: keepsPrepared ? preparedOf(client) : undefined,
              send: async (script) => (await client.query({ text: script, rowMode: 'array', types: first.types } as never)) as unknown as Answer[],
            },
            drop,
          ),
        ),
      ),
    alone: (config, params) =>
      onClient(async (client) => {
        await client.query(`begin; ${tenantSettings(tenantId)}`);
        try {
          return (await client.query({ ...config, rowMode: 'array' } as never, params)) as unknown as pg.QueryResult;
        } finally {
          await client.query('commit');
        }
      }),
  };
}

/**
 * The channel into PGlite. exec() sends the script as one simple-protocol message (one call
 * into the database, where a query with parameters costs five), and between two messages other
 * requests get their turn: a transaction would hold PGlite for itself until its COMMIT.
 */
function pgliteChannel(pglite: PGlite, tenantId: number, keepsPrepared: boolean): ReadChannel {
  return {
    script: (statements, first) =>
      sendScript(statements, tenantId, inlinePglite, (fn) =>
        fn(
          {
            kept: keepsPrepared ? preparedOf(pglite) : undefined,
            send: async (script) => (await pglite.exec(script, { rowMode: 'array', parsers: first.parsers })) as Answer[],
          },
          () => {},
        ),
      ),
    alone: (config, params) =>
      pglite.transaction(async (tx) => {
        await tx.exec(tenantSettings(tenantId));
        return (await tx.query(config.text, params, { rowMode: 'array', parsers: config.parsers })) as Answer;
      }),
  };
}

/**
 * Stands in for the database client under drizzle: the queries drizzle sends are held,
 * and those sent together (before the next turn of the event loop) go to the database as one
 * simple-protocol message behind the tenant settings, one round trip for all of them. What
 * depends on an answer waits for it and goes in the next message.
 */
class ReadBatch {
  private pending: Pending[] = [];
  private scheduled = false;

  constructor(
    private channel: ReadChannel,
    /** How the driver writes a parameter into SQL text (undefined: it cannot). */
    private inline: Inline,
    /** Sent ahead of the first message's statements, and judged before any of their answers is given. */
    private first?: FirstStatement,
  ) {}

  query(config: QueryConfig | string, params: unknown[] = [], options: Omit<QueryConfig, 'text'> = {}, written?: WrittenStatement): Promise<Answer> {
    // node-postgres passes one config; PGlite passes the text, the parameters and the options.
    const normalized = typeof config === 'string' ? { ...options, text: config } : config;
    return new Promise((resolve, reject) => {
      this.pending.push({ config: normalized, params, written, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  /** A written statement (see WrittenStatement): prepared where the connection keeps it, else with its parameters written in. */
  queryWritten(statement: WrittenStatement): Promise<Answer> {
    return this.query({ text: statement.text, rowMode: 'object' }, statement.params, {}, statement);
  }

  private async flush() {
    this.scheduled = false;
    const batch = this.pending.splice(0);
    // A parameter that cannot be written into the text goes alone, with the statement's parameters.
    const inlinable = batch.map((p) => this.inline('', p.params) !== undefined);
    const alone = batch.filter((_, i) => !inlinable[i]);
    const together = batch.filter((_, i) => inlinable[i]);
    const first = this.first;
    this.first = undefined;
    if (first) {
      // The first statement travels with the first message; nothing is answered before it is judged.
      const statements = [{ text: first.text, written: first.written }, ...this.script(together)];
      let judged: Answer[];
      try {
        judged = await this.channel.script(statements, together[0]?.config ?? { text: first.text });
        const [head] = judged;
        const refusal = first.judge(rowsAsObjects(head!));
        if (refusal) throw refusal;
      } catch (error) {
        for (const p of batch) p.reject(error);
        return;
      }
      for (const p of alone) void this.answer([p], () => this.channel.alone(p.config, p.params).then((r) => [r]));
      if (together.length) await this.answer(together, async () => judged.slice(1));
      return;
    }
    for (const p of alone) void this.answer([p], () => this.channel.alone(p.config, p.params).then((r) => [r]));
    if (together.length) await this.answer(together, () => this.channel.script(this.script(together), together[0]!.config));
  }

  /**
   * The statements of a message: each with its parameters written in when its text is read
   * (kept on a written statement, per driver, for the next message that needs it), a written
   * one as written too.
   */
  private script(together: Pending[]): ScriptStatement[] {
    const inline = this.inline;
    return together.map(({ config, params, written }) => {
      let text: string | undefined;
      return {
        written,
        get text() {
          if (text === undefined) {
            text = written?.inlined?.get(inline) ?? inline(config.text, params)!;
            written?.inlined?.set(inline, text);
          }
          return text;
        },
      };
    });
  }

  private async answer(batch: Pending[], run: () => Promise<Answer[]>) {
    try {
      const results = await run();
      batch.forEach((p, i) => {
        const result = results[i]!;
        if (p.config.rowMode === 'array') return p.resolve(result);
        // drizzle asked for rows as objects (raw SQL): named by the answer's columns.
        p.resolve({ ...result, rows: rowsAsObjects(result) });
      });
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }
}

/**
 * A parameter written as PGlite would send it: a Date as its ISO text (node-postgres writes
 * it in local time), the rest as node-postgres writes it.
 */
const inlinePglite = (text: string, params: readonly unknown[]) =>
  inlineParams(
    text,
    params.map((p) => (p instanceof Date ? p.toISOString() : p)),
  );

/**
 * The door to tenant data for requests that only read: like withTenant(), but without BEGIN
 * and COMMIT. The queries fn sends together (a page and its count, say) travel as one message
 * with the tenant settings, which the database runs as one implicit transaction: role
 * frontis_app and app.tenant_id apply to them and end with them, as in withTenant(). fn must
 * not write (nothing would roll it back with the rest). `first` goes ahead of the first
 * message's statements (see FirstStatement).
 */
export async function withTenantReads<T>(database: Database, tenantId: number, fn: (tx: Tx) => Promise<T>, first?: FirstStatement): Promise<T> {
  assertTenantId(tenantId);
  const root = (database.db as unknown as DrizzleInternals).session;
  let tx: Tx;
  let client: ReadBatch;
  if (database.pool) {
    client = new ReadBatch(pgChannel(database.pool, tenantId, database.keepsPrepared), inlineParams, first);
    const session = new NodePgSession(client as never, root.dialect as never, undefined as never, root.options as never);
    tx = new NodePgTransaction(root.dialect as never, session, undefined as never) as unknown as Tx;
  } else {
    client = new ReadBatch(pgliteChannel(database.pglite!, tenantId, database.keepsPrepared), inlinePglite, first);
    const session = new PgliteSession(client as never, root.dialect as never, undefined as never, root.options as never);
    tx = new PgliteTransaction(root.dialect as never, session, undefined as never) as unknown as Tx;
  }
  batchedReads.set(tx, database);
  batchClients.set(tx, client);
  return fn(tx);
}

const batchedReads = new WeakMap<Tx, Database>();
const batchClients = new WeakMap<Tx, ReadBatch>();

/** How a driver's parameters are written into a statement's text (inlineParams, inlinePglite). */
type Inline = (text: string, params: readonly unknown[]) => string | undefined;

/**
 * A statement drizzle already wrote: its text (`$n` for each parameter) and its parameters.
 * With `inlined`, the text with the parameters written in is kept there too, per driver, for
 * a statement sent many times as it is (a kept list page).
 */
export interface WrittenStatement {
  text: string;
  params: unknown[];
  inlined?: Map<Inline, string | undefined>;
  /**
   * Prepared with its values written into the text, so that its one plan is made for them:
   * for a statement whose best plan depends on the values (which index rows a key or a
   * filter value selects), where a plan made for any value would be slower than planning.
   */
  valuesInText?: boolean;
}

const dialect = new PgDialect();

/** A statement written to SQL text once, as drizzle writes it, to be sent again as it is (writtenRows). */
export function writeStatement(statement: SQL, opts: { valuesInText?: boolean } = {}): WrittenStatement {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  return { text, params, inlined: new Map(), ...(opts.valuesInText ? { valuesInText: true } : {}) };
}

/**
 * Statements already written, by what decides their text, to be sent again as they are
 * without building anything: at most `max` in the process, all let go when it is reached
 * (each a few KB of SQL; a kept statement is only ever a shortcut).
 */
export class KeptStatements {
  readonly #kept = new Map<string, WrittenStatement>();
  constructor(readonly max: number) {}
  get(key: string): WrittenStatement | undefined {
    return this.#kept.get(key);
  }
  keep(key: string, statement: WrittenStatement): WrittenStatement {
    if (this.#kept.size >= this.max) this.#kept.clear();
    this.#kept.set(key, statement);
    return statement;
  }
}

/** A written statement as SQL again, for a transaction that does not batch its reads. */
function asSql({ text, params }: WrittenStatement): SQL {
  const chunks: SQL[] = [];
  let last = 0;
  for (const match of text.matchAll(/\$(\d+)\b/g)) {
    chunks.push(sql.raw(text.slice(last, match.index)), sql`${sql.param(params[Number(match[1]) - 1])}`);
    last = match.index + match[0].length;
  }
  chunks.push(sql.raw(text.slice(last)));
  return sql.join(chunks);
}

/**
 * Rows of a statement built for this request, sent as a kept one is: prepared once on a
 * connection that keeps prepared statements, and executed there after (same text, any values).
 */
export const preparedRows = <T>(tx: Tx, statement: SQL): Promise<T[]> => writtenRows<T>(tx, writeStatement(statement));

/**
 * A count of rows (a page's size or offset), checked and written into a statement's text: a
 * prepared page whose limit PostgreSQL can see keeps one plan for every centre and filter
 * value, where against a limit parameter it would plan every run anew.
 */
export function rowCount(n: number): SQL {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a count of rows: ${n}`);
  return sql.raw(String(n));
}

/** Rows of a written statement, sent again without drizzle where tx batches reads (through drizzle elsewhere). */
export async function writtenRows<T>(tx: Tx, statement: WrittenStatement): Promise<T[]> {
  const client = batchClients.get(tx);
  if (!client) return queryRows<T>(tx, asSql(statement));
  return (await client.queryWritten(statement)).rows as T[];
}

/** Whether queries on tx sent together share one round trip (so it pays to send them together). */
export const sendsTogether = (tx: Tx) => batchedReads.has(tx);

/** The database of a withTenantReads() transaction (undefined elsewhere). */
export const databaseOfReads = (tx: Tx) => batchedReads.get(tx);

/**
 * Read-only statements in a tenant's view, in a single round trip: the tenant settings and
 * the statements go as one simple-protocol message, which PostgreSQL (and PGlite) runs as
 * one implicit transaction, so role frontis_app, app.tenant_id and RLS apply exactly as in
 * withTenant() and end with it. Without bound parameters, the statements may only inline
 * values the caller has checked to be integers. The rows of each statement, in order. For the
 * per-request session check and what a route reads with it.
 */
export async function tenantStatements(
  database: Database,
  tenantId: number,
  statements: readonly (string | ScriptStatement)[],
): Promise<Record<string, unknown>[][]> {
  assertTenantId(tenantId);
  const channel = database.pool
    ? pgChannel(database.pool, tenantId, database.keepsPrepared)
    : pgliteChannel(database.pglite!, tenantId, database.keepsPrepared);
  const answers = await channel.script(
    statements.map((s) => (typeof s === 'string' ? { text: s } : s)),
    { text: '' },
  );
  return answers.map(rowsAsObjects);
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
