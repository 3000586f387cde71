/**
 * Frontis scaled out with the parts a real deployment uses, on one machine (docs/deploy.md):
 *  - PostgreSQL 15 managed by pg_auto_failover: a monitor, a primary and a synchronous standby
 *    (their own data directories and ports; the server on 5432 is never touched);
 *  - PgBouncer in front of the current primary: `frontis` in transaction mode for requests,
 *    `frontis_session` in session mode for what needs a session (LISTEN, the migration lock),
 *    re-pointed by a watcher that asks the monitor which node is primary;
 *  - three Frontis processes on their own ports, and HAProxy in front of them on one port
 *    (health-checked on /healthz, long timeouts for the notification streams).
 * Everything listens on loopback only and is stopped by stop() (also on Ctrl-C).
 *
 *   npm run cluster            # up, prints the address, runs until Ctrl-C
 *   npm run cluster:failover   # up, kill the primary under write load, report, down
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startPgBouncer, type PgBouncer } from './pgbouncer';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PG_BIN = '/usr/lib/postgresql/15/bin';
const PACKAGES = ['haproxy', 'pgbouncer', 'postgresql-15-auto-failover', 'pg-auto-failover-cli'];
export const ROOT_USER = { username: 'root', password: 'cluster-root-password-1' } as const;

export interface ClusterOptions {
  dir: string;
  /** monitor +0, nodes +1 and +2, PgBouncer +10, HAProxy +20, Frontis +21..+23. */
  basePort: number;
  log: (line: string) => void;
}

export interface Cluster {
  /** HAProxy's address: what browsers would use. */
  base: string;
  frontis: string[];
  /** The node the monitor names primary now, if any. */
  primary(): Promise<{ name: string; port: number } | undefined>;
  /** SIGKILL the primary's keeper and PostgreSQL, as a machine lost would. */
  killPrimary(): Promise<string>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Debian's packages this needs, installed when missing (apt-get update is the operator's). */
/**
 * HAProxy in front of the Frontis processes. A request is sent again, to another process
 * (`option redispatch`), only where that is safe (docs/rules.md, "Exactly once"): after a
 * connection that failed before the request was sent, for any request; after it reached a
 * process (an empty answer, a 503), only for a read or a write that carries an Idempotency-Key,
 * which the server answers once however often it arrives. A write without a key is never resent.
 */
export function haproxyConfig(port: number, frontisPorts: readonly number[]): string {
  return [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    // Notification streams stay open for as long as the token lives.
    '  timeout tunnel 1h',
    '  option forwardfor',
    'frontend web',
    `  bind 127.0.0.1:${port}`,
    '  default_backend frontis',
    'backend frontis',
    '  balance leastconn',
    '  option httpchk GET /healthz',
    '  http-check expect status 200',
    // A retry goes to another process, not to the one that just failed.
    '  option redispatch 1',
    '  retry-on conn-failure empty-response 503',
    '  retries 2',
    '  acl safe_method method GET HEAD OPTIONS',
    '  acl keyed req.hdr(idempotency-key) -m found',
    // Beyond a failed connection, a write without a key may have been done: never sent twice.
    '  http-request disable-l7-retry if !safe_method !keyed',
    ...frontisPorts.map((p, i) => `  server f${i + 1} 127.0.0.1:${p} check inter 1s fall 2 rise 1`),
    '',
  ].join('\n');
}

export function ensurePackages(log: (line: string) => void) {
  const missing = PACKAGES.filter((name) => {
    try {
      return !execFileSync('dpkg-query', ['-W', '-f', '$' + '{Status}', name])
        .toString()
        .includes('install ok installed');
    } catch {
      return true;
    }
  });
  if (!missing.length) return;
  log(`installing ${missing.join(' ')}`);
  execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

interface Managed {
  name: string;
  child: ChildProcess;
  out: string[];
  exited: Promise<void>;
  ended: boolean;
}

export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const { dir, basePort, log } = opts;
  const ports = {
    monitor: basePort,
    nodes: [basePort + 1, basePort + 2],
    bouncer: basePort + 10,
    haproxy: basePort + 20,
    frontis: [basePort + 21, basePort + 22, basePort + 23],
  };
  const managed: Managed[] = [];
  let bouncer: PgBouncer | undefined;
  let watcher: NodeJS.Timeout | undefined;
  let stopping = false;

  /** A child in its own process group, so that it and everything it started can be ended together. */
  const run = (name: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Managed => {
    const child = spawn(command, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'], cwd: REPO });
    const m: Managed = { name, child, out: [], ended: false, exited: Promise.resolve() };
    const keep = (chunk: Buffer) => {
      m.out.push(chunk.toString());
      if (m.out.length > 200) m.out.shift();
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    m.exited = new Promise((resolve) =>
      child.once('exit', () => {
        m.ended = true;
        resolve();
      }),
    );
    managed.push(m);
    return m;
  };
  const endGroup = async (m: Managed, signal: NodeJS.Signals = 'SIGTERM') => {
    if (m.ended || !m.child.pid) return;
    try {
      process.kill(-m.child.pid, signal);
    } catch {
      // already gone
    }
    const force = setTimeout(() => {
      try {
        process.kill(-m.child.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    }, 10_000);
    await m.exited;
    clearTimeout(force);
  };

  const stop = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(watcher);
    // Front to back: HAProxy and Frontis, PgBouncer, then the database nodes and the monitor.
    const order = ['haproxy', 'frontis', 'node', 'monitor'];
    for (const prefix of order) await Promise.all(managed.filter((m) => m.name.startsWith(prefix)).map((m) => endGroup(m)));
    await bouncer?.stop();
    rmSync(dir, { recursive: true, force: true });
  };

  // pg_autoctl keeps its state under XDG directories keyed by PGDATA: ours, removed with the rest.
  const asPostgres = (args: string[]) => [
    '-u',
    'postgres',
    '--',
    'env',
    `PATH=${PG_BIN}:/usr/bin:/bin`,
    `XDG_CONFIG_HOME=${join(dir, 'xdg', 'config')}`,
    `XDG_DATA_HOME=${join(dir, 'xdg', 'data')}`,
    `XDG_RUNTIME_DIR=${join(dir, 'xdg', 'run')}`,
    'pg_autoctl',
    ...args,
  ];
  const waitFor = async (what: string, check: () => Promise<boolean>, ms: number) => {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (await check().catch(() => false)) return;
      await sleep(500);
    }
    throw new Error(`${what}: not within ${ms / 1000} s`);
  };
  const query = async <T extends pg.QueryResultRow>(port: number, db: string, text: string, user = 'postgres'): Promise<T[]> => {
    const client = new pg.Client({ host: '127.0.0.1', port, database: db, user, connectionTimeoutMillis: 2000 });
    await client.connect();
    try {
      return (await client.query<T>(text)).rows;
    } finally {
      await client.end();
    }
  };
  const monitorQuery = <T extends pg.QueryResultRow>(text: string) => query<T>(ports.monitor, 'pg_auto_failover', text, 'autoctl_node');

  const primary = async () => {
    // The node that reports, and is asked to be, a writable state (a dead primary's last report stays "primary", its goal changes).
    const rows = await monitorQuery<{ nodename: string; nodeport: number }>(
      "select nodename, nodeport from pgautofailover.node where reportedstate = goalstate and goalstate in ('primary', 'wait_primary', 'single')",
    );
    const port = rows[0]?.nodeport;
    return port ? { name: `node${ports.nodes.indexOf(port) + 1}`, port } : undefined;
  };

  try {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const owner = { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) };
    chownSync(dir, owner.uid, owner.gid);
    const common = ['--pgctl', `${PG_BIN}/pg_ctl`, '--hostname', '127.0.0.1', '--auth', 'trust', '--no-ssl', '--run'];

    log(`monitor on ${ports.monitor}`);
    run('monitor', 'runuser', asPostgres(['create', 'monitor', '--pgdata', join(dir, 'monitor'), '--pgport', String(ports.monitor), ...common]));
    await waitFor('the monitor', async () => (await monitorQuery('select 1')).length === 1, 60_000);
    // Fail over in seconds rather than the defaults' half a minute: check often, give up soon.
    for (const [name, value] of [
      ['pgautofailover.health_check_period', '1000'],
      ['pgautofailover.health_check_timeout', '1000'],
      ['pgautofailover.health_check_max_retries', '1'],
      ['pgautofailover.health_check_retry_delay', '500'],
      ['pgautofailover.node_considered_unhealthy_timeout', '3000'],
      ['pgautofailover.primary_demote_timeout', "'5s'"],
    ]) {
      await query(ports.monitor, 'pg_auto_failover', `alter system set ${name} = ${value}`).catch((e: Error) => log(`monitor setting ${name}: ${e.message}`));
    }
    await query(ports.monitor, 'pg_auto_failover', 'select pg_reload_conf()');

    const monitorUri = `postgres://autoctl_node@127.0.0.1:${ports.monitor}/pg_auto_failover?sslmode=disable`;
    for (const [i, port] of ports.nodes.entries()) {
      const name = `node${i + 1}`;
      log(`${name} on ${port}`);
      run(
        name,
        'runuser',
        asPostgres([
          'create',
          'postgres',
          '--pgdata',
          join(dir, name),
          '--pgport',
          String(port),
          '--name',
          name,
          '--dbname',
          'frontis',
          '--monitor',
          monitorUri,
          ...common,
        ]),
      );
      // One at a time: the first becomes primary, the second its standby (a base backup).
      await waitFor(
        `${name} joining`,
        async () => {
          const rows = await monitorQuery<{ s: string }>(`select reportedstate::text as s from pgautofailover.node where nodename = '${name}'`);
          return rows[0]?.s === (i === 0 ? 'single' : 'secondary');
        },
        120_000,
      );
    }
    const replication = async () => {
      const now = await primary();
      if (!now) return undefined;
      const rows = await query<{ state: string; sync_state: string; names: string }>(
        now.port,
        'postgres',
        "select state, sync_state, current_setting('synchronous_standby_names') as names from pg_stat_replication",
      );
      return { now, rows };
    };
    const synchronous = async () => !!(await replication())?.rows.some((r) => r.state === 'streaming' && r.sync_state !== 'async');
    await waitFor('a primary with a synchronous standby', synchronous, 120_000).catch(async (error: Error) => {
      log(`replication seen: ${JSON.stringify(await replication().catch((e: Error) => e.message))}`);
      throw error;
    });
    const first = (await primary())!;
    const seen = (await replication())!.rows[0]!;
    log(`primary ${first.name}; standby ${seen.state}, ${seen.sync_state} (synchronous_standby_names = ${seen.names})`);

    const targets = (port: number) => ({
      frontis: `host=127.0.0.1 port=${port} dbname=frontis user=postgres`,
      frontis_session: `host=127.0.0.1 port=${port} dbname=frontis user=postgres pool_mode=session`,
    });
    bouncer = await startPgBouncer({ dir: join(dir, 'pgbouncer'), port: ports.bouncer, databases: targets(first.port), poolSize: 20 });
    log(`PgBouncer on ${ports.bouncer} -> ${first.name}`);
    // Follow the primary: when the monitor names another one, PgBouncer is re-pointed at it.
    let current = first.port;
    watcher = setInterval(() => {
      primary()
        .then((now) => {
          if (now && now.port !== current && !stopping) {
            current = now.port;
            bouncer?.retarget(targets(now.port));
            log(`PgBouncer re-pointed at ${now.name}`);
          }
        })
        .catch(() => undefined);
    }, 500);

    const frontisEnv = (port: number): NodeJS.ProcessEnv => ({
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `postgres://postgres@127.0.0.1:${ports.bouncer}/frontis`,
      DATABASE_DIRECT_URL: `postgres://postgres@127.0.0.1:${ports.bouncer}/frontis_session`,
      // one folder for the three on this machine: an upload through one is there for the others
      // (each its own, the second process refused to start, as a server should on such a split)
      DATA_DIR: join(dir, 'frontis-data'),
      DEFAULT_TENANT: 'demo',
      ROOT_USERNAME: ROOT_USER.username,
      ROOT_PASSWORD: ROOT_USER.password,
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
    });
    const healthy = (base: string) => async () => (await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2000) })).status === 200;
    const frontis = ports.frontis.map((port) => `http://127.0.0.1:${port}`);
    // The first migrates and creates the centre; the others find it done.
    for (const [i, port] of ports.frontis.entries()) {
      log(`Frontis ${i + 1} on ${port}`);
      run(`frontis${i + 1}`, process.execPath, ['--import', 'tsx', 'server/main.ts'], frontisEnv(port));
      await waitFor(`Frontis ${i + 1}`, healthy(frontis[i]!), 120_000);
    }

    const haproxyCfg = join(dir, 'haproxy.cfg');
    writeFileSync(haproxyCfg, haproxyConfig(ports.haproxy, ports.frontis));
    execFileSync('haproxy', ['-c', '-q', '-f', haproxyCfg]);
    run('haproxy', 'haproxy', ['-db', '-f', haproxyCfg]);
    const base = `http://127.0.0.1:${ports.haproxy}`;
    await waitFor('HAProxy', healthy(base), 30_000);
    log(`HAProxy on ${base}`);

    return {
      base,
      frontis,
      primary,
      async killPrimary() {
        const now = await primary();
        if (!now) throw new Error('no primary to kill');
        const node = managed.find((m) => m.name === now.name)!;
        await endGroup(node, 'SIGKILL');
        // PostgreSQL's own processes may have left the group: end the postmaster by its pid file.
        const pidFile = join(dir, now.name, 'postmaster.pid');
        if (existsSync(pidFile)) {
          try {
            const pid = Number(execFileSync('head', ['-1', pidFile]).toString());
            if (pid > 0) process.kill(pid, 'SIGKILL');
          } catch {
            // gone already
          }
        }
        return now.name;
      },
      stop,
    };
  } catch (error) {
    for (const m of managed) if (m.out.length) log(`--- ${m.name}:\n${m.out.join('').slice(-3000)}`);
    await stop();
    throw error;
  }
}

/** `npm run cluster`: up, then wait for Ctrl-C. */
async function main() {
  const log = (line: string) => console.log(`[cluster] ${line}`);
  ensurePackages(log);
  const cluster = await startCluster({ dir: process.env.CLUSTER_DIR ?? '/tmp/frontis-cluster', basePort: Number(process.env.CLUSTER_BASE_PORT ?? 55400), log });
  log(`Frontis on ${cluster.base} (x-tenant-id: demo; root ${ROOT_USER.username} / ${ROOT_USER.password}); Ctrl-C stops everything`);
  const end = () => void cluster.stop().then(() => process.exit(0));
  process.once('SIGINT', end);
  process.once('SIGTERM', end);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
