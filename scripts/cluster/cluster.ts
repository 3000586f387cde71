/**
 * Frontis scaled out with the parts a real deployment uses, on one machine (docs/deploy.md):
 *  - PostgreSQL 15 managed by pg_auto_failover: a monitor, a primary and a synchronous standby
 *    (their own data directories and ports; the server on 5432 is never touched);
 *  - PgBouncer in front of the current primary: `frontis` in transaction mode for requests,
 *    `frontis_session` in session mode for what needs a session (LISTEN, the migration lock),
 *    re-pointed by a watcher that asks the monitor which node is primary;
 *  - three Frontis processes (the build, dist-server/main.js) on their own ports, and HAProxy in
 *    front of them: TLS on one port, plain HTTP redirected to it, X-Forwarded-Proto and HSTS,
 *    the stats page on loopback (health-checked on /healthz, so a draining process is taken out
 *    within a second or so; long timeouts for the streams; see haproxy.ts and front.ts);
 *  - pgBackRest: WAL archived continuously from the primary, a full backup at the first start
 *    (the schedule of full and incremental ones is the operator's cron: docs/deploy.md).
 * Every database role has a scram-sha-256 password, generated into the folder's secrets.json
 * (mode 600). Everything listens on loopback only and is stopped by stop() (also on Ctrl-C);
 * the folder (data, backups, secrets) stays. Runs as root (PostgreSQL and PgBouncer as postgres).
 *
 *   npm run cluster                  # up, prints the address, runs until Ctrl-C
 *   npm run cluster -- --fresh       # deletes a stopped cluster's folder first (CLUSTER_FRESH=1)
 *   npm run cluster:failover         # up, kill the primary under write load, report, down
 *   npm run cluster:restore-drill    # on the running cluster: restore to a moment, prove it
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { certificate, frontLines, httpsRequest } from './front';
import { haproxyConfig } from './haproxy';
import { startPgBouncer, type PgBouncer } from './pgbouncer';
import { archiveSettings, backrest, PG_BIN, postgresDir, postgresOwner } from './pitr';
import { loadSecrets, type Secrets } from './secrets';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGES = ['haproxy', 'pgbouncer', 'pgbackrest', 'postgresql-15-auto-failover', 'pg-auto-failover-cli'];
/** Where the cluster keeps everything, and its first port (docs/deploy.md's table). */
export const DEFAULT_DIR = '/tmp/frontis-cluster';
export const DEFAULT_BASE_PORT = 55400;
/** PostgreSQL's Unix sockets (Debian's default): pg_autoctl and pgBackRest reach their node there as postgres. */
const SOCKETS = '/var/run/postgresql';
export const ROOT_USER = { username: 'root', password: 'cluster-root-password-1' } as const;

export interface ClusterOptions {
  dir: string;
  /** monitor +0, nodes +1 and +2, PgBouncer +10, HAProxy HTTP +19, HTTPS +20, Frontis +21..+23, HAProxy stats +29, restore drill +30. */
  basePort: number;
  log: (line: string) => void;
  /** Delete a stopped cluster's folder first (a running one is never touched). */
  fresh?: boolean;
  /** Delete the folder at stop() too (a throwaway cluster: the failover drill). */
  removeOnStop?: boolean;
  /** Aborted (Ctrl-C) while coming up: what was started is stopped. */
  signal?: AbortSignal;
}

export const clusterPorts = (basePort: number) => ({
  monitor: basePort,
  nodes: [basePort + 1, basePort + 2],
  bouncer: basePort + 10,
  http: basePort + 19,
  haproxy: basePort + 20,
  frontis: [basePort + 21, basePort + 22, basePort + 23],
  stats: basePort + 29,
  drill: basePort + 30,
});

/** What a running cluster writes into its folder for the scripts that work on it. */
export interface ClusterState {
  pid: number;
  basePort: number;
  pem: string;
}
const stateFile = (dir: string) => join(dir, 'cluster.json');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** The running cluster of `dir` (its state), if any. */
export function runningCluster(dir: string): ClusterState | undefined {
  if (!existsSync(stateFile(dir))) return undefined;
  const state = JSON.parse(readFileSync(stateFile(dir), 'utf8')) as ClusterState;
  return alive(state.pid) ? state : undefined;
}

/**
 * Refuses to start over a running cluster (its folder's pid alive, or its ports taken) and,
 * without `fresh`, over a stopped one's folder (its data and backups): nothing is deleted
 * unless asked.
 */
async function claimFolder(dir: string, basePort: number, fresh: boolean) {
  const running = runningCluster(dir);
  if (running)
    throw new Error(
      `a cluster is already running from ${dir} (process ${running.pid}, ports from ${running.basePort}): stop it first (Ctrl-C, or kill ${running.pid})`,
    );
  const ports = clusterPorts(basePort);
  for (const port of [ports.monitor, ...ports.nodes, ports.bouncer, ports.http, ports.haproxy, ...ports.frontis, ports.stats]) {
    if (await listening(port)) throw new Error(`port ${port} is taken (another cluster?): stop it, or choose other ports with CLUSTER_BASE_PORT`);
  }
  if (existsSync(dir)) {
    if (!fresh)
      throw new Error(
        `${dir} holds a stopped cluster (its data, backups and passwords): start over with \`npm run cluster -- --fresh\` (or CLUSTER_FRESH=1), which deletes it, or use another CLUSTER_DIR`,
      );
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Cluster {
  /** HAProxy's HTTPS address: what browsers would use. */
  base: string;
  /** The certificate HAProxy serves (made by the cluster unless CLUSTER_TLS_CERT names the operator's). */
  pem: string;
  frontis: string[];
  /** The node the monitor names primary now, if any. */
  primary(): Promise<{ name: string; port: number } | undefined>;
  /** SIGKILL the primary's keeper and PostgreSQL, as a machine lost would. */
  killPrimary(): Promise<string>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Debian's packages this needs, installed when missing (apt-get update is the operator's). */
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
  const ports = clusterPorts(basePort);
  const main = join(REPO, 'dist-server', 'main.js');
  if (!existsSync(main)) throw new Error('dist-server/main.js is missing: run `npm run build` first (the cluster runs the build, as production does)');
  if (process.getuid?.() !== 0) throw new Error('npm run cluster runs as root: it runs PostgreSQL, PgBouncer and pgBackRest as the postgres user');
  await claimFolder(dir, basePort, !!opts.fresh);
  const managed: Managed[] = [];
  let bouncer: PgBouncer | undefined;
  let watcher: NodeJS.Timeout | undefined;
  let stopping = false;

  /** A child in its own process group, so that it and everything it started can be ended together. */
  const run = (name: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Managed => {
    const child = spawn(command, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'], cwd: REPO });
    const m: Managed = { name, child, out: [], ended: false, exited: Promise.resolve() };
    // Each part's output also in the folder's logs/ (what an operator reads when a part will not come up).
    mkdirSync(join(dir, 'logs'), { recursive: true });
    const file = createWriteStream(join(dir, 'logs', `${name}.log`), { flags: 'a' });
    child.once('exit', () => file.end());
    const keep = (chunk: Buffer) => {
      file.write(chunk);
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
    rmSync(stateFile(dir), { force: true });
    if (opts.removeOnStop) rmSync(dir, { recursive: true, force: true });
  };

  // pg_autoctl keeps its state under XDG directories keyed by PGDATA: ours, in the folder.
  // PGPASSFILE: the passwords pg_autoctl (to the monitor, for replication) and the monitor's
  // health checks (its PostgreSQL inherits the environment) log in with.
  const asPostgres = (args: string[], command = 'pg_autoctl') => [
    '-u',
    'postgres',
    '--',
    'env',
    `PATH=${PG_BIN}:/usr/bin:/bin`,
    `XDG_CONFIG_HOME=${join(dir, 'xdg', 'config')}`,
    `XDG_DATA_HOME=${join(dir, 'xdg', 'data')}`,
    `XDG_RUNTIME_DIR=${join(dir, 'xdg', 'run')}`,
    `PGPASSFILE=${join(dir, 'pgpass')}`,
    command,
    ...args,
  ];
  let secrets: Secrets;
  const waitFor = async (what: string, check: () => Promise<boolean>, ms: number) => {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (opts.signal?.aborted) throw new Error(`${what}: interrupted`);
      if (await check().catch(() => false)) return;
      await sleep(500);
    }
    throw new Error(`${what}: not within ${ms / 1000} s`);
  };
  const query = async <T extends pg.QueryResultRow>(port: number, db: string, text: string, user: keyof Secrets = 'postgres'): Promise<T[]> => {
    const client = new pg.Client({ host: '127.0.0.1', port, database: db, user, password: secrets[user], connectionTimeoutMillis: 2000 });
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
    postgresDir(dir);
    writeFileSync(stateFile(dir), JSON.stringify({ pid: process.pid, basePort, pem: '' } satisfies ClusterState));
    secrets = loadSecrets(dir);
    const owner = postgresOwner();
    // The passwords the postgres user's programs log in with (libpq's password file).
    const pgpass = join(dir, 'pgpass');
    writeFileSync(
      pgpass,
      `${Object.entries(secrets)
        .map(([user, password]) => `127.0.0.1:*:*:${user}:${password}`)
        .join('\n')}\n`,
      { mode: 0o600 },
    );
    execFileSync('chown', [`${owner.uid}:${owner.gid}`, pgpass]);
    // pgBackRest's repository in the folder; the nodes archive their WAL to it (the primary does).
    const nodeAt = (i: number) => ({ path: join(dir, `node${i + 1}`), port: ports.nodes[i]!, socket: SOCKETS });
    // The first node alone until the second has joined (pgBackRest wants every node it is told of).
    let repo = backrest(join(dir, 'pgbackrest'), [nodeAt(0)]);
    /** initdb of our own, before pg_autoctl takes the data directory over: scram-sha-256 over TCP, peer on the socket. */
    const initdb = (name: string, port: number, extra: string[]) => {
      const pwfile = join(dir, `${name}.pw`);
      writeFileSync(pwfile, secrets.postgres, { mode: 0o600 });
      execFileSync('chown', [`${owner.uid}:${owner.gid}`, pwfile]);
      execFileSync(
        'runuser',
        asPostgres(['-D', join(dir, name), '-U', 'postgres', '--auth-local=peer', '--auth-host=scram-sha-256', `--pwfile=${pwfile}`], `${PG_BIN}/initdb`),
        { stdio: 'ignore' },
      );
      rmSync(pwfile);
      const conf = join(dir, name, 'postgresql.conf');
      const lines = ["listen_addresses = '127.0.0.1'", `port = ${port}`, "password_encryption = 'scram-sha-256'", ...extra];
      writeFileSync(conf, `${readFileSync(conf, 'utf8')}\n# npm run cluster\n${lines.join('\n')}\n`);
    };
    const common = ['--pgctl', `${PG_BIN}/pg_ctl`, '--hostname', '127.0.0.1', '--listen', '127.0.0.1', '--auth', 'scram-sha-256', '--no-ssl', '--run'];

    log(`monitor on ${ports.monitor}`);
    initdb('monitor', ports.monitor, []);
    run('monitor', 'runuser', asPostgres(['create', 'monitor', '--pgdata', join(dir, 'monitor'), '--pgport', String(ports.monitor), ...common]));
    await waitFor(
      'the monitor',
      async () => (await query(ports.monitor, 'pg_auto_failover', 'select 1 from pgautofailover.formation limit 1')).length === 1,
      60_000,
    );
    for (const role of ['autoctl', 'autoctl_node'] as const) await query(ports.monitor, 'pg_auto_failover', `alter user ${role} password '${secrets[role]}'`);
    await waitFor('the monitor', async () => (await monitorQuery('select 1')).length === 1, 60_000);
    // Fail over in seconds rather than the defaults' 50: check often, give up soon
    // (CLUSTER_MONITOR_TIMEOUTS=default keeps pg_auto_failover's own, to compare).
    const tuned = process.env.CLUSTER_MONITOR_TIMEOUTS !== 'default';
    for (const [name, value] of tuned
      ? [
          ['pgautofailover.health_check_period', '1000'],
          ['pgautofailover.health_check_timeout', '1000'],
          ['pgautofailover.health_check_max_retries', '1'],
          ['pgautofailover.health_check_retry_delay', '500'],
          ['pgautofailover.node_considered_unhealthy_timeout', '3000'],
          ['pgautofailover.primary_demote_timeout', "'5s'"],
        ]
      : []) {
      await query(ports.monitor, 'pg_auto_failover', `alter system set ${name} = ${value}`).catch((e: Error) => log(`monitor setting ${name}: ${e.message}`));
    }
    await query(ports.monitor, 'pg_auto_failover', 'select pg_reload_conf()');

    const monitorUri = `postgres://autoctl_node@127.0.0.1:${ports.monitor}/pg_auto_failover?sslmode=disable`;
    // The first node's data directory is ours (its settings: loopback, passwords, archiving);
    // the second is its base backup, settings included.
    initdb('node1', ports.nodes[0]!, archiveSettings(repo));
    for (const [i, port] of ports.nodes.entries()) {
      const name = `node${i + 1}`;
      log(`${name} on ${port}`);
      if (i === 1) {
        // A checkpoint now: the base backup starts with one, spread over minutes by default.
        await query(ports.nodes[0]!, 'postgres', 'checkpoint');
        // The stanza before the standby's base backup, so that the primary's archiving works (and the base backup's WAL is archived).
        repo.run('stanza-create');
        // The roles pg_autoctl made on the primary get their passwords before the standby's base backup needs one.
        for (const role of ['pgautofailover_replicator', 'pgautofailover_monitor'] as const) {
          await query(ports.nodes[0]!, 'postgres', `alter user ${role} password '${secrets[role]}'`);
        }
      }
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
    for (const name of ['node1', 'node2']) {
      execFileSync('runuser', asPostgres(['config', 'set', '--pgdata', join(dir, name), 'replication.password', secrets.pgautofailover_replicator]), {
        stdio: 'ignore',
      });
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
    log('pgBackRest: the first full backup');
    repo = backrest(join(dir, 'pgbackrest'), [nodeAt(0), nodeAt(1)]);
    repo.run('--type=full', 'backup');

    const targets = (port: number) => ({
      frontis: `host=127.0.0.1 port=${port} dbname=frontis user=postgres`,
      frontis_session: `host=127.0.0.1 port=${port} dbname=frontis user=postgres pool_mode=session`,
    });
    bouncer = await startPgBouncer({
      dir: join(dir, 'pgbouncer'),
      port: ports.bouncer,
      databases: targets(first.port),
      poolSize: 20,
      password: secrets.postgres,
    });
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
      DATABASE_URL: `postgres://postgres:${secrets.postgres}@127.0.0.1:${ports.bouncer}/frontis`,
      DATABASE_DIRECT_URL: `postgres://postgres:${secrets.postgres}@127.0.0.1:${ports.bouncer}/frontis_session`,
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
      // The ports lie in Linux's range for outgoing connections' own ports (32768-60999): one of
      // the cluster's own connections may hold it for a moment (EADDRINUSE). Started again then;
      // a production machine reserves them (docs/deploy.md).
      let started = run(`frontis${i + 1}`, process.execPath, [main], frontisEnv(port));
      let starts = 1;
      await waitFor(
        `Frontis ${i + 1}`,
        async () => {
          if (started.ended && starts < 5 && started.out.join('').includes('EADDRINUSE')) {
            log(`Frontis ${i + 1}: port ${port} was taken for a moment, starting it again`);
            managed.splice(managed.indexOf(started), 1);
            await sleep(1000);
            started = run(`frontis${i + 1}`, process.execPath, [main], frontisEnv(port));
            starts++;
            return false;
          }
          return healthy(frontis[i]!)();
        },
        120_000,
      );
    }

    const pem = certificate(dir);
    const haproxyCfg = join(dir, 'haproxy.cfg');
    writeFileSync(
      haproxyCfg,
      haproxyConfig(
        ports.haproxy,
        ports.frontis,
        frontLines({
          host: process.env.CLUSTER_PUBLIC_HOST ?? '127.0.0.1',
          https: ports.haproxy,
          http: ports.http,
          stats: ports.stats,
          pem,
          backend: 'frontis',
        }),
      ),
    );
    execFileSync('haproxy', ['-c', '-q', '-f', haproxyCfg]);
    run('haproxy', 'haproxy', ['-db', '-f', haproxyCfg]);
    const base = `https://localhost:${ports.haproxy}`;
    const ca = readFileSync(pem);
    await waitFor('HAProxy', async () => (await httpsRequest(ports.haproxy, '/healthz', ca)).status === 200, 30_000);
    writeFileSync(stateFile(dir), JSON.stringify({ pid: process.pid, basePort, pem } satisfies ClusterState));
    log(`HAProxy on ${base} (http://127.0.0.1:${ports.http} redirects there; stats on http://127.0.0.1:${ports.stats}/stats)`);

    return {
      base,
      pem,
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
  const dir = process.env.CLUSTER_DIR ?? DEFAULT_DIR;
  const fresh = process.argv.includes('--fresh') || process.env.CLUSTER_FRESH === '1';
  // Ctrl-C while it comes up: startCluster stops what it started (its error ends this process).
  const abort = new AbortController();
  const interrupted = () => {
    log('interrupted: stopping what was started');
    abort.abort();
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const cluster = await startCluster({ dir, basePort: Number(process.env.CLUSTER_BASE_PORT ?? DEFAULT_BASE_PORT), log, fresh, signal: abort.signal });
  process.off('SIGINT', interrupted);
  process.off('SIGTERM', interrupted);
  log(
    `Frontis on ${cluster.base} (x-tenant-id: demo; root ${ROOT_USER.username} / ${ROOT_USER.password}; certificate ${cluster.pem}; passwords in ${join(dir, 'secrets.json')})`,
  );
  log('ready; Ctrl-C stops everything (the folder stays: data, backups, passwords)');
  const end = () => void cluster.stop().then(() => process.exit(0));
  process.once('SIGINT', end);
  process.once('SIGTERM', end);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(`[cluster] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
