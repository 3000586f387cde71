/**
 * Daily backups in PGlite mode. PGlite never calls fsync, so a power cut can damage its
 * files; a dump a day (the last 14 kept) in DATA_DIR/backups bounds the loss. PostgreSQL
 * servers have their own backup tooling, so this job does nothing there.
 *
 * A dump holds PGlite's one connection from start to end (the demo centre: 1-1.8 s on a
 * busy two-core machine; a large centre longer), and every request waits behind it. So the
 * backup runs at night, at BACKUP_HOUR in Greek time (03:00 by default), never in the
 * office's day; only a data directory with no backup at all gets its first one a minute
 * after the start (a new install, whose database is small).
 */
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/types';

export const KEEP_BACKUPS = 14;
const DAY_MS = 24 * 3600 * 1000;
const NAME_RE = /^frontis-\d{8}T\d{6}Z\.tar\.gz$/;

export const backupDir = (dataDir: string) => join(dataDir, 'backups');

const stamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** Writes one dump and prunes old ones; returns its path. */
export async function backupNow(database: Database, dataDir: string): Promise<string | null> {
  if (database.kind !== 'pglite' || !database.pglite) return null;
  const dir = backupDir(dataDir);
  await mkdir(dir, { recursive: true });
  const dump = await database.pglite.dumpDataDir('gzip');
  const file = join(dir, `frontis-${stamp(new Date())}.tar.gz`);
  // Write beside, then rename: a crash mid-write never leaves a truncated "latest" backup.
  try {
    await writeFile(`${file}.partial`, Buffer.from(await dump.arrayBuffer()));
    await rename(`${file}.partial`, file);
  } catch (error) {
    await rm(`${file}.partial`, { force: true });
    throw error;
  }
  await pruneBackups(dir);
  return file;
}

export async function pruneBackups(dir: string, keep = KEEP_BACKUPS): Promise<void> {
  const names = (await readdir(dir)).filter((n) => NAME_RE.test(n)).sort();
  for (const name of names.slice(0, Math.max(0, names.length - keep))) await rm(join(dir, name), { force: true });
}

/** The time zone BACKUP_HOUR is read in: the centres' own. */
const BACKUP_TIME_ZONE = 'Europe/Athens';
const HOUR_MS = 3600 * 1000;

/** The next moment after `now` (ms) at which it is `hour`:00 in Greek time (daylight saving included). */
export function nextBackupAt(now: number, hour: number): number {
  const hourOf = new Intl.DateTimeFormat('en-GB', { timeZone: BACKUP_TIME_ZONE, hour: 'numeric', hourCycle: 'h23' });
  // Whole UTC hours: Greece is a whole number of hours from UTC, in winter and in summer.
  const first = Math.floor(now / HOUR_MS) * HOUR_MS + HOUR_MS;
  for (let at = first; at < first + 2 * DAY_MS; at += HOUR_MS) if (Number(hourOf.format(at)) === hour) return at;
  return now + DAY_MS;
}

/** A first backup a minute after the start of a data directory that has none; otherwise the next night. */
async function msUntilDue(dataDir: string, hour: number): Promise<number> {
  let hasOne = false;
  try {
    hasOne = (await readdir(backupDir(dataDir))).some((n) => NAME_RE.test(n));
  } catch {
    // no backups folder yet
  }
  return hasOne ? nextBackupAt(Date.now(), hour) - Date.now() : 60_000;
}

/**
 * Removes the `.partial` files a killed process left mid-write (only this process writes
 * backups of this data directory: it holds the data lock). Returns the names removed.
 */
export async function removePartialBackups(dataDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(backupDir(dataDir))).filter((n) => n.endsWith('.partial'));
  } catch {
    return [];
  }
  for (const name of names) await rm(join(backupDir(dataDir), name), { force: true });
  return names;
}

/** Starts the nightly job (at `hour`, Greek time); returns a stop function (called on shutdown). */
export function scheduleBackups(database: Database, dataDir: string, hour: number, log: FastifyBaseLogger): () => void {
  if (database.kind !== 'pglite') return () => undefined;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const run = async () => {
    try {
      const file = await backupNow(database, dataDir);
      log.info({ file }, 'backup written');
    } catch (error) {
      log.error({ err: error }, 'backup failed');
    }
    if (!stopped) timer = setTimeout(run, nextBackupAt(Date.now(), hour) - Date.now()).unref();
  };
  void msUntilDue(dataDir, hour).then((ms) => {
    if (!stopped) timer = setTimeout(run, ms).unref();
  });
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
