/**
 * npm run restore -- FILE: replaces the PGlite database in DATA_DIR with a backup.
 * Run it with the server stopped. The current data directory is moved aside (never deleted),
 * so a wrong choice of backup can be undone by moving it back.
 */
import { PGlite } from '@electric-sql/pglite';
import { existsSync } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { loadConfig } from './config';
import { PGLITE_EXTENSIONS, pgliteDir } from './db/client';

export async function restore(file: string, dataDir: string): Promise<{ restored: string; movedAside?: string }> {
  const source = resolve(file);
  if (!existsSync(source)) throw new Error(`no such backup: ${source}`);
  const target = pgliteDir(dataDir);
  let movedAside: string | undefined;
  if (existsSync(target)) {
    movedAside = `${target}.before-restore-${new Date().toISOString().replace(/[-:.]/g, '')}`;
    await rename(target, movedAside);
  }
  try {
    const bytes = await readFile(source);
    const pg = new PGlite(target, { extensions: PGLITE_EXTENSIONS, loadDataDir: new Blob([bytes], { type: 'application/x-gzip' }) });
    await pg.waitReady;
    // A query proves the restored files open as a database before we report success.
    await pg.query('select count(*) from tenants');
    await pg.close();
  } catch (error) {
    if (movedAside) {
      await rm(target, { recursive: true, force: true });
      await rename(movedAside, target);
    }
    throw error;
  }
  return { restored: target, movedAside };
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
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
