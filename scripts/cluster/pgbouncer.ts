/**
 * A PgBouncer of our own (Debian's binary) in transaction mode on a loopback port: its
 * configuration, pid and log in a directory of its own; trust authentication towards the test
 * server (it accepts loopback connections without a password), scram-sha-256 with the
 * `postgres` role's password towards the cluster's nodes. Used by tests/api/db/pgbouncer.test.ts and by `npm run cluster`.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

export const PGBOUNCER_BIN = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((path) => existsSync(path));

export interface PgBouncerOptions {
  /** Where its configuration, log and pid go (created). */
  dir: string;
  port: number;
  /** Database name clients ask for -> libpq connection string of the server behind. */
  databases: Record<string, string>;
  /** Server connections per database and user (default 10). */
  poolSize?: number;
  /**
   * The `postgres` role's password: clients must give it (scram-sha-256) and PgBouncer logs in
   * to the server with it. Without one, trust (the test server accepts loopback without a password).
   */
  password?: string;
}

export interface PgBouncer {
  port: number;
  /** Re-reads the configuration (after `databases` changed): new transactions go to the new target. */
  retarget(databases: Record<string, string>): void;
  log(): string;
  stop(): Promise<void>;
}

/** The user PgBouncer runs as when we are root (it refuses to run as root). */
const RUN_AS = 'postgres';

function ids(user: string): { uid: number; gid: number } | undefined {
  try {
    return { uid: Number(execFileSync('id', ['-u', user]).toString()), gid: Number(execFileSync('id', ['-g', user]).toString()) };
  } catch {
    return undefined;
  }
}

function config(opts: PgBouncerOptions, databases: Record<string, string>): string {
  const lines = Object.entries(databases).map(([name, target]) => `${name} = ${target}`);
  return [
    '[databases]',
    ...lines,
    '',
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${opts.port}`,
    // No Unix socket: several PgBouncers on one machine must not fight over /var/run/postgresql.
    "unix_socket_dir = ''",
    `auth_type = ${opts.password ? 'scram-sha-256' : 'trust'}`,
    `auth_file = ${join(opts.dir, 'userlist.txt')}`,
    'pool_mode = transaction',
    `default_pool_size = ${opts.poolSize ?? 10}`,
    'max_client_conn = 500',
    // Sent by some drivers at start-up; harmless to ignore in transaction mode.
    'ignore_startup_parameters = extra_float_digits,options',
    // A primary lost: fail waiting clients quickly rather than hold them (the app answers 503).
    'server_connect_timeout = 3',
    'server_login_retry = 1',
    'query_wait_timeout = 10',
    `logfile = ${join(opts.dir, 'pgbouncer.log')}`,
    `pidfile = ${join(opts.dir, 'pgbouncer.pid')}`,
    '',
  ].join('\n');
}

/** Starts PgBouncer and waits until it accepts connections. */
export async function startPgBouncer(opts: PgBouncerOptions): Promise<PgBouncer> {
  if (!PGBOUNCER_BIN) throw new Error('pgbouncer is not installed (Debian: apt-get install pgbouncer)');
  mkdirSync(opts.dir, { recursive: true });
  const iniPath = join(opts.dir, 'pgbouncer.ini');
  writeFileSync(iniPath, config(opts, opts.databases));
  writeFileSync(join(opts.dir, 'userlist.txt'), `"postgres" "${opts.password ?? ''}"\n`, { mode: 0o600 });
  const root = process.getuid?.() === 0;
  const owner = root ? ids(RUN_AS) : undefined;
  if (root && !owner) throw new Error(`pgbouncer will not run as root and there is no user ${RUN_AS}`);
  if (owner) for (const file of ['', 'pgbouncer.ini', 'userlist.txt']) chownSync(join(opts.dir, file), owner.uid, owner.gid);

  const child: ChildProcess = spawn(PGBOUNCER_BIN, [...(root ? ['-u', RUN_AS] : []), iniPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  let ended = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      ended = true;
      resolve();
    }),
  );
  const log = () => {
    try {
      return out + readFileSync(join(opts.dir, 'pgbouncer.log'), 'utf8');
    } catch {
      return out;
    }
  };
  const stop = async () => {
    if (!ended) child.kill('SIGINT');
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(force);
  };

  const deadline = Date.now() + 10_000;
  for (;;) {
    if (ended) throw new Error(`pgbouncer exited at start:\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(opts.port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`pgbouncer did not listen on ${opts.port}:\n${log()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    port: opts.port,
    retarget(databases) {
      writeFileSync(iniPath, config(opts, databases));
      // SIGHUP: reload the configuration; pools of a changed database are reconnected.
      child.kill('SIGHUP');
    },
    log,
    stop,
  };
}
