/**
 * Opening the database: PGlite (embedded; in memory or in DATA_DIR/pgdata) or a PostgreSQL
 * server (node-postgres pool) when a URL is given. The rest of the server sees one drizzle API
 * and reaches data only through the doors (doors.ts, read-batch.ts).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema/index';
import { countPgliteQueries, countQueries } from './counting';
import { clientFor, HostTarget, parseHosts } from './hosts';
import { refuseWaitingOnItself } from './own-connection';
import { takeTurns } from './pglite-turns';
import type { Database, Db } from './types';

interface OpenOptions {
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
    countQueries(client);
  });
  return pool;
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
    const db: Db = drizzlePg({ client: pool, schema });
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
  const db: Db = drizzlePglite({ client: pglite, schema });
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
