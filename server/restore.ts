/**
 * npm run restore -- FILE: replaces the embedded database in DATA_DIR with a backup.
 *
 * The live database is not touched until the whole backup has proved good: it is read,
 * unzipped and unpacked completely, then unpacked beside the live files and opened there as a
 * database that holds Frontis's tables. The restore holds DATA_DIR's lock, so it refuses while
 * a server runs there (and no server starts in the middle). Only then is the current database
 * moved aside (never deleted) and the new one moved in; a failure at that step puts the
 * previous files back. DATA_DIR may be empty or missing (a new machine).
 */
import { PGlite } from '@electric-sql/pglite';
import { existsSync } from 'node:fs';
import { readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { loadConfig } from './config';
import { PGLITE_EXTENSIONS, pgliteDir } from './db/open';
import { acquireDataLock, DataDirLockedError } from './db/data-lock';

/** Tables without which a backup cannot bring a centre back (schema, tenants, people, secrets). */
export const REQUIRED_TABLES = ['tenants', 'root_users', 'users', 'sessions', 'server_secrets', 'lessons', 'students', 'history'] as const;

/** A refusal whose message is meant for the person running the restore. */
export class RestoreError extends Error {}

/** Walks a tar archive's headers: every entry must be whole and the archive must end properly. */
function checkTar(tar: Buffer): number {
  let offset = 0;
  let files = 0;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) return files;
    const stored = Number.parseInt(header.subarray(148, 156).toString('latin1').replace(/\0/g, '').trim(), 8);
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
    if (!Number.isFinite(stored) || stored !== sum) throw new RestoreError('the archive inside is damaged (a header does not check out)');
    const size = Number.parseInt(header.subarray(124, 136).toString('latin1').replace(/\0/g, '').trim() || '0', 8);
    offset += 512 + Math.ceil(size / 512) * 512;
    if (offset > tar.length) throw new RestoreError('the archive inside is cut short');
    files++;
  }
  throw new RestoreError('the archive inside is cut short (no end marker)');
}

async function checkTables(pg: PGlite): Promise<void> {
  const { rows } = await pg.query<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = 'public'`);
  const present = new Set(rows.map((r) => r.name));
  const missing = REQUIRED_TABLES.filter((t) => !present.has(t));
  if (missing.length) throw new RestoreError(`it is not a Frontis database (missing tables: ${missing.join(', ')})`);
  await pg.query('select count(*) from tenants');
}

const gzipBlob = (bytes: Buffer) => new Blob([new Uint8Array(bytes)], { type: 'application/x-gzip' });

/** Checks that bytes unzip and unpack completely; throws RestoreError saying what is wrong. */
export function verifyArchive(bytes: Buffer): void {
  let tar: Buffer;
  try {
    tar = gunzipSync(bytes);
  } catch {
    throw new RestoreError('it is not a complete gzip file (truncated or not a Frontis backup)');
  }
  if (checkTar(tar) === 0) throw new RestoreError('the archive inside is empty');
}

/** Unpacks bytes into dir as a database and proves it opens and holds Frontis's tables. */
async function unpackAndOpen(bytes: Buffer, dir: string): Promise<void> {
  let pg: PGlite | undefined;
  try {
    pg = new PGlite(dir, { extensions: PGLITE_EXTENSIONS, loadDataDir: gzipBlob(bytes) });
    await pg.waitReady;
    await checkTables(pg);
  } catch (error) {
    if (error instanceof RestoreError) throw error;
    throw new RestoreError(`it does not open as a database (${error instanceof Error ? error.message : String(error)})`);
  } finally {
    await pg?.close().catch(() => undefined);
  }
}

const stamp = () => new Date().toISOString().replace(/[-:.]/g, '');

export async function restore(file: string, dataDir: string): Promise<{ restored: string; movedAside?: string }> {
  const source = resolve(file);
  if (!existsSync(source) || !(await stat(source)).isFile()) throw new RestoreError(`no such backup file: ${source}`);
  const bytes = await readFile(source);
  const refuse = (error: unknown) =>
    error instanceof RestoreError ? new RestoreError(`${source} cannot be restored: ${error.message}. Nothing was changed.`) : error;
  try {
    verifyArchive(bytes);
  } catch (error) {
    throw refuse(error);
  }

  let lock: ReturnType<typeof acquireDataLock>;
  try {
    lock = acquireDataLock(dataDir, 'a restore');
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      throw new RestoreError(`${error.message} Restore needs the server stopped. Nothing was changed.`);
    }
    throw error;
  }
  const target = pgliteDir(dataDir);
  const staging = join(dirname(target), `${basename(target)}.restoring-${stamp()}`);
  let movedAside: string | undefined;
  try {
    // Unpacked beside the live files, which stay untouched until the copy has opened as a database.
    try {
      await unpackAndOpen(bytes, staging);
    } catch (error) {
      throw refuse(error);
    }
    if (existsSync(target)) {
      movedAside = `${target}.before-restore-${stamp()}`;
      await rename(target, movedAside);
    }
    try {
      await rename(staging, target);
    } catch (error) {
      if (movedAside) await rename(movedAside, target);
      movedAside = undefined;
      throw error;
    }
    return { restored: target, movedAside };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  } finally {
    lock.release();
  }
}

const isMain = process.argv[1] && basename(process.argv[1]).startsWith('restore');
if (isMain) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: npm run restore -- DATA_DIR/backups/frontis-YYYYMMDDTHHMMSSZ.tar.gz');
    process.exit(2);
  }
  const config = loadConfig();
  if (config.databaseUrl) {
    console.error('DATABASE_URL is set: restore is for the embedded PGlite database only (use pg_restore on a server).');
    process.exit(2);
  }
  restore(file, config.dataDir)
    .then(({ restored, movedAside }) => {
      console.log(`Restored ${file} into ${restored}.`);
      if (movedAside) console.log(`The previous data is kept in ${movedAside}.`);
    })
    .catch((error: unknown) => {
      console.error(error instanceof RestoreError ? error.message : error);
      process.exit(1);
    });
}
