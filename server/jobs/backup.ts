/**
 * Daily backups in PGlite mode. PGlite never calls fsync, so a power cut can damage its
 * files; a dump a day (the last 14 kept) in DATA_DIR/backups bounds the loss. PostgreSQL
 * servers have their own backup tooling, so this job does nothing there.
 */
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';

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

/** Newest backup's age decides the first run, so restarts do not skip or double a day. */
async function msUntilDue(dataDir: string): Promise<number> {
  try {
    const names = (await readdir(backupDir(dataDir))).filter((n) => NAME_RE.test(n)).sort();
    const last = names.at(-1);
    if (!last) return 60_000;
    const m = /^frontis-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/.exec(last)!;
    const at = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
    return Math.max(60_000, at + DAY_MS - Date.now());
  } catch {
    return 60_000;
  }
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

/** Starts the daily job; returns a stop function (called on shutdown). */
export function scheduleBackups(database: Database, dataDir: string, log: FastifyBaseLogger): () => void {
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
    if (!stopped) timer = setTimeout(run, DAY_MS).unref();
  };
  void msUntilDue(dataDir).then((ms) => {
    if (!stopped) timer = setTimeout(run, ms).unref();
  });
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
