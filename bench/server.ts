// First, as in the server's entry (server/main.ts): the server measured runs with V8 set as production sets it.
import '../server/garbage-collector';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { fork } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants as perf, monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../server/app';
import { bootstrap } from '../server/bootstrap';
import { loadConfig, type Config } from '../server/config';
import type { Database } from '../server/db/types';
import { openDatabase } from '../server/db/open';
import { queryRows } from '../server/db/statements';
import { processTotals, type DbCounts } from '../server/db/counting';
import { migrate } from '../server/db/migrate';
import { LISTEN_BACKLOG, listen } from '../server/plugins/connections';
import { bareListRoutes, seedLists, type ListsSeed } from './lists';
import { seedStudents } from './seed';
import { scratchDatabase } from './scratch';
import type { SeededServer } from './targets';

/**
 * A real Frontis server on loopback over a fresh database (PGlite in a new data directory, as
 * `npm start` keeps it, or a scratch database on TEST_DATABASE_URL), with `students` students in `demo` and 3,000 in another centre;
 * `serveClient` also serves the built client (./dist) for the browser measurement.
 */
export async function startSeededServer(kind: 'pglite' | 'postgres', students: number, opts: { serveClient?: boolean } = {}): Promise<SeededServer> {
  const scratch = kind === 'postgres' ? await scratchDatabase() : undefined;
  // From the environment, OVERLOAD_* and LISTEN_SOCKETS only: the overload bench compares the
  // shedder on and off, and one listening socket with several.
  const fromEnv = loadConfig(process.env);
  const config: Config = {
    ...loadConfig({}),
    rootUsername: 'root',
    rootPassword: 'root-password-1',
    logLevel: 'silent',
    databaseUrl: scratch?.url,
    loginRateLimit: { perUser: 1000, perAddress: 100_000, windowSeconds: 900 },
    overload: fromEnv.overload,
  };
  // Every load generator here is one address (loopback) standing for many users', as behind a
  // load balancer (TRUST_PROXY), where the server does not bound connections per address either:
  // the overload bench opens far more than the 200 one real address may hold.
  config.connections = { ...config.connections, maxPerAddress: 0, listenSockets: fromEnv.connections.listenSockets };
  const dataDir = kind === 'pglite' ? mkdtempSync(join(tmpdir(), 'frontis-bench-')) : undefined;
  const database = await openDatabase({ url: scratch?.url, dataDir, maxConnections: 20 });
  const close = async () => {
    await database.close();
    await scratch?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await migrate(database);
    await bootstrap(database, config);
    const app = await buildApp({ database, config, serveClient: opts.serveClient ?? false });
    const address = await listen(app, config.connections, { port: 0, host: '127.0.0.1' });
    const base = (tenant: string) => ({ 'x-client-type': 'api', 'x-tenant-id': tenant, host: `${tenant}.localhost` });
    const t0 = Date.now();
    const token = await seedStudents(address, base, students, 3000);
    // What autovacuum does on a server within a minute, and the hourly job on PGlite.
    await database.db.execute(sql`vacuum analyze`);
    return {
      database,
      app,
      address,
      headers: { ...base('demo'), authorization: `Bearer ${token}` },
      seedSeconds: (Date.now() - t0) / 1000,
      close: async () => {
        await app.close();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The tenant and session an access token names (read, not verified: the bare routes trust the bench). */
function claimsOf(headers: Record<string, string>): { tid: number; sid: number } {
  const payload = headers.authorization!.replace(/^Bearer /, '').split('.')[1]!;
  return JSON.parse(Buffer.from(payload, 'base64url').toString()) as { tid: number; sid: number };
}

/** A live session of the tenant: the check every answer needs, in SQL a hand-written route would write. */
const LIVE_SESSION = 'exists (select 1 from sessions where tenant_id = $1 and id = $2 and revoked_at is null)';

/** An instant as the API writes it (ISO 8601, milliseconds, UTC). */
const INSTANT = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A student's links to one kind of row, as the ids and their labels (by name) the API answers. */
const LINKED = (alias: string, link: string, key: string, table: string, label: string) => `left join lateral (
      select json_agg(l.${key} order by l.${key}) as ids, json_agg(json_build_object('id', t.id, 'name', ${label}) order by ${label}, t.id) as labels
      from ${link} l join ${table} t on t.tenant_id = l.tenant_id and t.id = l.${key}
      where l.tenant_id = s.tenant_id and l.student_id = s.id) ${alias} on true`;

/**
 * The students page as a hand-written route would get it: one statement that checks the
 * session and answers the page of 25 active students by name with everything the API answers
 * for each (their contracts' count, first and last start in one pass over their contracts;
 * their guardians', classes' and subjects' ids and names), and the count, as JSON.
 */
const BARE_STUDENTS = `select case when ${LIVE_SESSION} then json_build_object(
  'data', coalesce((select json_agg(p) from (
    select s.id, s.version, ${INSTANT('s.created_at')} as created_at, ${INSTANT('s.updated_at')} as updated_at, s.first_name, s.last_name, s.email,
      s.phone, to_char(s.birth_date, 'YYYY-MM-DD') as birth_date, s.gender, s.status, s.inactive_reason, s.information, s.custom_fields,
      k.number_of_contracts, k.first_contract_date, k.last_contract_date,
      coalesce(g.ids, '[]') as guardian_ids, coalesce(g.labels, '[]') as guardians,
      coalesce(c.ids, '[]') as class_ids, coalesce(c.labels, '[]') as classes,
      coalesce(j.ids, '[]') as subject_ids, coalesce(j.labels, '[]') as subjects
    from students s
    cross join lateral (select count(*)::int as number_of_contracts, to_char(min(x.start_date), 'YYYY-MM-DD') as first_contract_date,
        to_char(max(x.start_date), 'YYYY-MM-DD') as last_contract_date
      from contracts x where x.tenant_id = s.tenant_id and x.student_id = s.id) k
    ${LINKED('g', 'student_guardians', 'guardian_id', 'guardians', "trim(t.first_name || ' ' || t.last_name)")}
    ${LINKED('c', 'class_students', 'class_id', 'classes', 't.name')}
    ${LINKED('j', 'student_subjects', 'subject_id', 'subjects', 't.name')}
    where s.tenant_id = $1 and s.status = 'ACTIVE'
    order by s.last_name_sort collate "C", s.first_name_sort collate "C", s.id limit 25) p), '[]'),
  'total', (select count(*) from students where tenant_id = $1 and status = 'ACTIVE'))::text end as body`;

/** The calendar's revision, for a route that keeps the built week as Frontis does. */
const BARE_REVISION = `select ${LIVE_SESSION} as live, coalesce((select revision from calendar_revisions where tenant_id = $1), 0)::int as revision`;

/**
 * The bare routes: plain Fastify, no plugins, each request one hand-written statement on the
 * same database: /students answers the students page; /week answers the week Frontis answered
 * (kept, as Frontis keeps it) while the calendar's revision stays the same.
 */
async function startBareRoutes(database: Database, headers: Record<string, string>) {
  const { tid, sid } = claimsOf(headers);
  const run = async <T>(text: string): Promise<T[]> =>
    database.pglite ? ((await database.pglite.query(text, [tid, sid])).rows as T[]) : ((await database.pool!.query(text, [tid, sid])).rows as T[]);
  const bare = Fastify({ logger: false });
  let week: { revision: number; body: string } | undefined;
  bare.get('/students', async (_request, reply) => {
    const [row] = await run<{ body: string | null }>(BARE_STUDENTS);
    if (!row?.body) return reply.code(401).send();
    return reply.type('application/json; charset=utf-8').send(row.body);
  });
  bare.post('/week', async (request) => {
    const [row] = await run<{ revision: number }>(BARE_REVISION);
    week = { revision: row!.revision, body: request.body as string };
    return { revision: week.revision };
  });
  bareListRoutes(bare, run);
  bare.addContentTypeParser('text/plain', { parseAs: 'string' }, (_r, body, done) => done(null, body));
  bare.get('/week', async (_request, reply) => {
    const [row] = await run<{ live: boolean; revision: number }>(BARE_REVISION);
    if (!row?.live) return reply.code(401).send();
    if (!week || row.revision !== week.revision) return reply.code(409).send();
    return reply.type('application/json; charset=utf-8').send(week.body);
  });
  return {
    bare,
    address: await bare.listen({ port: 0, host: '127.0.0.1', backlog: LISTEN_BACKLOG }),
    sql: { students: BARE_STUDENTS, revision: BARE_REVISION },
  };
}

export interface ServerProcess {
  address: string;
  bareAddress: string;
  headers: Record<string, string>;
  seedSeconds: number;
  /** vacuum analyze in the server's process (its database may be in its memory). */
  vacuum(): Promise<void>;
  /** Seeds guardians, receipts, attendance marks and the money behind them (bench/lists.ts) in the server's process. */
  seedLists(): Promise<ListsSeed>;
  /** The server's memory in MB: RSS, V8's heap, and memory outside it (PGlite's WebAssembly memory, buffers). */
  memoryMb(): Promise<{ rss: number; heap: number; external: number }>;
  /** CPU time the server's process has used so far, in microseconds (user and system). */
  cpuMicros(): Promise<number>;
  /** How long the server's event loop was held up, and by garbage collection, since the last call. */
  stalls(): Promise<ServerStalls>;
  /**
   * The round trips and statements the server's process has sent to its database so far. The
   * server runs as `npm start` runs it, without DB_COUNTS (whose per-request scope turns on
   * promise hooks for the whole process): a request's cost is the difference around it, sent alone.
   */
  databaseWork(): Promise<DbCounts>;
  close(): Promise<void>;
}

/** The server's own hold-ups over a stretch of time, in milliseconds. */
export interface ServerStalls {
  /** The event loop's longest delay (a timer due that waited for the loop), and its 99th percentile. */
  loopMaxMs: number;
  loopP99Ms: number;
  /** The longest garbage collection pause, and all of them together. */
  gcMaxMs: number;
  gcTotalMs: number;
  /**
   * When each full (mark-compact) collection ended, in ms since the epoch. Its pause is short,
   * but its marking ran for 80-150 ms before it on V8's helper threads, taking a core from the
   * database and the load generator on 2 cores: an open loop's tail can gather around one.
   */
  majorGcAt: number[];
}

type Reply = { id: number; memory?: NodeJS.MemoryUsage; cpu?: NodeJS.CpuUsage; seeded?: ListsSeed; stalls?: ServerStalls; work?: DbCounts; error?: string };

/** Where the compiled bench server goes: inside node_modules, so that its imports resolve as the sources' do. */
const COMPILED = fileURLToPath(new URL('../node_modules/.cache/frontis-bench/', import.meta.url));

let compiling: Promise<string> | undefined;
/**
 * This file and the server it starts, compiled as `npm run build` compiles the server for `npm
 * start` (esbuild, the same target): the server measured is the code production runs, not the
 * sources through tsx, whose transform wraps functions (to keep their names) on every call.
 * The bare routes are compiled with it, so both sides of a comparison run the same way.
 */
function compiledServer(): Promise<string> {
  compiling ??= (async () => {
    const { build } = await import('esbuild');
    rmSync(COMPILED, { recursive: true, force: true });
    await build({
      absWorkingDir: fileURLToPath(new URL('..', import.meta.url)),
      entryPoints: { server: fileURLToPath(import.meta.url) },
      outdir: COMPILED,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node22',
      logLevel: 'warning',
    });
    // the migrations, where the compiled code looks for them (next to itself)
    cpSync(fileURLToPath(new URL('../server/db/migrations', import.meta.url)), join(COMPILED, 'migrations'), { recursive: true });
    return join(COMPILED, 'server.mjs');
  })();
  return compiling;
}

/**
 * startSeededServer in a process of its own, compiled (compiledServer), so that the load
 * generator (this process) and the server never share an event loop. The bare routes run in
 * the server's process too, on the same database (an in-memory PGlite lives there).
 */
export async function spawnSeededServer(kind: 'pglite' | 'postgres', students: number, opts: { serveClient?: boolean } = {}): Promise<ServerProcess> {
  const child = fork(await compiledServer(), ['--serve', kind, String(students), opts.serveClient ? '1' : '0'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // BENCH_SERVER_FLAGS: flags for this process only (a V8 flag tried against the same run without it).
    execArgv: [...process.execArgv, ...(process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? [])],
  });
  const replies = new Map<number, (reply: Reply) => void>();
  let next = 1;
  const ready = new Promise<{ address: string; bareAddress: string; headers: Record<string, string>; seedSeconds: number }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    child.on('message', (message: { ready?: never } & Reply) => {
      if (message.ready) resolve(message.ready);
      else replies.get(message.id)?.(message);
    });
  });
  const ask = (cmd: string) =>
    new Promise<Reply>((resolve, reject) => {
      const id = next++;
      replies.set(id, (reply) => (reply.error ? reject(new Error(reply.error)) : resolve(reply)));
      child.send({ id, cmd });
    });
  const info = await ready;
  return {
    ...info,
    vacuum: async () => void (await ask('vacuum')),
    seedLists: async () => (await ask('seed-lists')).seeded!,
    memoryMb: async () => {
      const memory = (await ask('memory')).memory!;
      const mb = (n: number) => n / 1024 / 1024;
      return { rss: mb(memory.rss), heap: mb(memory.heapTotal), external: mb(memory.external) };
    },
    cpuMicros: async () => {
      const cpu = (await ask('cpu')).cpu!;
      return cpu.user + cpu.system;
    },
    stalls: async () => (await ask('stalls')).stalls!,
    databaseWork: async () => (await ask('work')).work!,
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ id: 0, cmd: 'close' });
      await exited;
    },
  };
}

// The server process itself (forked by spawnSeededServer).
if (process.argv[2] === '--serve' && process.send) {
  const [kind, students, serveClient] = process.argv.slice(3) as ['pglite' | 'postgres', string, string];
  const server = await startSeededServer(kind, Number(students), { serveClient: serveClient === '1' });
  const { bare, address: bareAddress } = await startBareRoutes(server.database, server.headers);
  // The event loop's delay (sampled every 10 ms) and each garbage collection's pause, kept from one 'stalls' to the next.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const gc = { max: 0, total: 0, majorAt: [] as number[] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.max = Math.max(gc.max, entry.duration);
      gc.total += entry.duration;
      if ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === perf.NODE_PERFORMANCE_GC_MAJOR) {
        gc.majorAt.push(performance.timeOrigin + entry.startTime + entry.duration);
      }
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('message', async (message: { id: number; cmd: string }) => {
    try {
      if (message.cmd === 'vacuum') await queryRows(server.database.db, sql`vacuum analyze`);
      if (message.cmd === 'seed-lists') return process.send!({ id: message.id, seeded: await seedLists(server.database) });
      if (message.cmd === 'cpu') return process.send!({ id: message.id, cpu: process.cpuUsage() });
      if (message.cmd === 'work') return process.send!({ id: message.id, work: { ...processTotals } });
      if (message.cmd === 'stalls') {
        // the histogram holds whole intervals between the 10 ms samples: the delay is what is over 10 ms
        const late = (ns: number) => Math.max(0, ns / 1e6 - 10);
        const stalls: ServerStalls = {
          loopMaxMs: late(loop.max),
          loopP99Ms: late(loop.percentile(99)),
          gcMaxMs: gc.max,
          gcTotalMs: gc.total,
          majorGcAt: gc.majorAt,
        };
        loop.reset();
        Object.assign(gc, { max: 0, total: 0, majorAt: [] });
        return process.send!({ id: message.id, stalls });
      }
      if (message.cmd === 'close') {
        await bare.close();
        await server.close();
        process.exit(0);
      }
      process.send!({ id: message.id, memory: process.memoryUsage() });
    } catch (error) {
      process.send!({ id: message.id, error: String(error) });
    }
  });
  // The bench went away (killed): close, so that the scratch database is dropped.
  process.on('disconnect', () => void server.close().finally(() => process.exit(1)));
  process.send({ ready: { address: server.address, bareAddress, headers: server.headers, seedSeconds: server.seedSeconds } });
}
