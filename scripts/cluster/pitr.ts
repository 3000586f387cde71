/**
 * Point-in-time recovery with pgBackRest (Debian's `pgbackrest`): its configuration, the
 * stanza, backups, and the drill that proves a restore to a chosen moment (docs/deploy.md):
 * a payment written before the moment is in the restored database, one written after is not.
 * The repository, its log and lock files and the drill's scratch cluster are in `dir`,
 * owned by `postgres`, as PostgreSQL's archive_command runs as that user.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

export const PG_BIN = '/usr/lib/postgresql/15/bin';
export const STANZA = 'frontis';

export interface PgNode {
  /** Data directory. */
  path: string;
  port: number;
  /** The node's Unix socket directory (pgBackRest connects there as `postgres`, peer authentication). */
  socket: string;
}

export interface Backrest {
  dir: string;
  config: string;
  /** `pgbackrest <args>` as postgres with this configuration; its output. */
  run(...args: string[]): string;
  /** The line for postgresql.conf's archive_command. */
  archiveCommand: string;
}

export function postgresOwner(): { uid: number; gid: number } {
  return { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) };
}

/** A folder owned by postgres (created). */
export function postgresDir(path: string): string {
  mkdirSync(path, { recursive: true });
  const owner = postgresOwner();
  chownSync(path, owner.uid, owner.gid);
  return path;
}

/**
 * pgBackRest's configuration in `dir` for these nodes (one, or a primary and its standbys: it
 * backs up from whichever is primary). Retention: two full backups (and the WAL they need);
 * incrementals in between.
 */
export function backrest(dir: string, nodes: PgNode[]): Backrest {
  postgresDir(dir);
  for (const sub of ['repo', 'log', 'lock', 'spool']) postgresDir(join(dir, sub));
  const config = join(dir, 'pgbackrest.conf');
  writeFileSync(
    config,
    [
      '[global]',
      `repo1-path=${join(dir, 'repo')}`,
      'repo1-retention-full=2',
      `log-path=${join(dir, 'log')}`,
      `lock-path=${join(dir, 'lock')}`,
      `spool-path=${join(dir, 'spool')}`,
      'log-level-console=warn',
      'log-level-file=info',
      'start-fast=y',
      'compress-level=1',
      '',
      `[${STANZA}]`,
      ...nodes.flatMap((n, i) => [`pg${i + 1}-path=${n.path}`, `pg${i + 1}-port=${n.port}`, `pg${i + 1}-socket-path=${n.socket}`]),
      '',
    ].join('\n'),
  );
  const owner = postgresOwner();
  chownSync(config, owner.uid, owner.gid);
  return {
    dir,
    config,
    archiveCommand: `pgbackrest --config=${config} --stanza=${STANZA} archive-push %p`,
    run(...args) {
      const res = spawnSync('runuser', ['-u', 'postgres', '--', 'pgbackrest', `--config=${config}`, `--stanza=${STANZA}`, ...args], { encoding: 'utf8' });
      if (res.status !== 0) throw new Error(`pgbackrest ${args.join(' ')} failed (${res.status}): ${res.stderr || res.stdout}`);
      return res.stdout;
    },
  };
}

/** postgresql.conf lines for continuous WAL archiving to the repository (a restart applies archive_mode). */
export const archiveSettings = (b: Backrest) => ['archive_mode = on', `archive_command = '${b.archiveCommand}'`, 'archive_timeout = 60'];

export interface Connection {
  port: number;
  user: string;
  password: string;
  database: string;
}

export async function sql<T extends pg.QueryResultRow>(c: Connection, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ host: '127.0.0.1', ...c, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface DrillOptions {
  backrest: Backrest;
  /** The primary, as the drill reads the moment and the restored rows. */
  primary: Connection;
  /** Writes one payment through Frontis; its id. */
  pay(): Promise<number>;
  /** Where the scratch cluster is restored (removed first and after) and its port. */
  scratch: string;
  scratchPort: number;
  log: (line: string) => void;
}

export interface DrillResult {
  moment: string;
  before: number;
  after: number;
  /** Payment ids found in the restored database. */
  found: number[];
  seconds: number;
}

/**
 * Takes an incremental backup (a full one when there is none), writes a payment, notes the
 * moment, writes another, makes sure the WAL holding both is archived, restores the backup and
 * the WAL up to that moment into a scratch cluster, starts it, reads which of the two payments
 * it has, stops it and removes it.
 */
export async function restoreDrill(o: DrillOptions): Promise<DrillResult> {
  const started = Date.now();
  o.log('backup (incremental)');
  o.backrest.run('--type=incr', 'backup');
  const before = await o.pay();
  await sleep(1000);
  const [{ moment }] = (await sql<{ moment: string }>(o.primary, "select to_char(clock_timestamp(), 'YYYY-MM-DD HH24:MI:SS.USOF') as moment")) as [
    { moment: string },
  ];
  await sleep(1000);
  const after = await o.pay();
  o.log(`payment ${before} before ${moment}, payment ${after} after it`);
  // Switches to a new WAL segment and waits until the one holding both payments is archived.
  o.backrest.run('check');
  rmSync(o.scratch, { recursive: true, force: true });
  postgresDir(o.scratch);
  o.log(`restoring to ${moment} into ${o.scratch}`);
  o.backrest.run(`--pg1-path=${o.scratch}`, '--type=time', `--target=${moment}`, '--target-action=promote', 'restore');
  const pgCtl = (...args: string[]) => {
    const res = spawnSync('runuser', ['-u', 'postgres', '--', `${PG_BIN}/pg_ctl`, '-D', o.scratch, ...args], { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`pg_ctl ${args[args.length - 1]} of the scratch cluster failed: ${res.stderr || res.stdout}`);
  };
  // Its own port and socket; no archiving (it must not push its new timeline into the
  // repository) and no synchronous standby to wait for.
  const options = [
    `-p ${o.scratchPort}`,
    "-c listen_addresses='127.0.0.1'",
    `-c unix_socket_directories='${o.scratch}'`,
    '-c archive_mode=off',
    "-c synchronous_standby_names=''",
    "-c shared_preload_libraries=''",
  ].join(' ');
  pgCtl('-l', join(o.scratch, 'scratch.log'), '-w', '-t', '120', '-o', options, 'start');
  try {
    const scratch: Connection = { ...o.primary, port: o.scratchPort };
    const deadline = Date.now() + 120_000;
    for (;;) {
      const rows = await sql<{ r: boolean }>(scratch, 'select pg_is_in_recovery() as r').catch(() => [{ r: true }]);
      if (!rows[0]!.r) break;
      if (Date.now() > deadline) throw new Error('the scratch cluster did not finish its recovery within 120 s');
      await sleep(500);
    }
    const found = (await sql<{ id: number }>(scratch, 'select id from payments where id = any($1::int[]) order by id', [[before, after]])).map((r) => r.id);
    return { moment, before, after, found, seconds: (Date.now() - started) / 1000 };
  } finally {
    pgCtl('-m', 'immediate', 'stop');
    rmSync(o.scratch, { recursive: true, force: true });
  }
}
