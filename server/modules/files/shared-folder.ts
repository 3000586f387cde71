/**
 * Several processes on one PostgreSQL database with files on local disk work only when every
 * process sees the same folder (one machine and one DATA_DIR, or a shared mount): otherwise a
 * file uploaded through one process is 404 through another. Nothing in a process's settings
 * says how many processes there are, so the folder is asked instead: the database names its
 * files' folder by a random token, and that folder holds a marker file of the same name. A
 * process whose DATA_DIR/files lacks the marker is not looking at the database's folder and
 * refuses to start, unless FILES_SHARED=1 says the operator knows better (a mount that
 * appears later, a copied folder). PGlite needs no check (one process: the data lock), nor
 * S3 (every process sees the bucket).
 */
import { randomBytes } from 'node:crypto';
import { access, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Database } from '../../db/types';
import { platform } from '../../db/doors';
import { serverSecrets } from '../../db/schema/index';

const NAME = 'files-folder-token';
export const markerName = (token: string) => `.frontis-folder-${token}`;

export class FilesFolderNotSharedError extends Error {
  constructor(readonly folder: string) {
    super(
      `${folder} is not the folder this database's files are kept in: another Frontis process on this database keeps them elsewhere. ` +
        'With several processes, set S3_BUCKET, or give every process the same DATA_DIR on one machine or a shared mount; ' +
        'if this folder is shared (or holds a copy of the files), start with FILES_SHARED=1.',
    );
  }
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** Throws FilesFolderNotSharedError when this process's file folder is not the database's. */
export async function checkFilesFolder(database: Database, config: Config): Promise<void> {
  if (!config.databaseUrl || config.s3 || config.filesShared) return;
  const folder = join(config.dataDir, 'files');
  await mkdir(folder, { recursive: true });
  const db = platform(database);
  // The marker is written before the token is offered, so a token in the database always has
  // its marker somewhere; when another process's token wins the race, ours is taken back.
  const mine = randomBytes(16).toString('hex');
  await writeFile(join(folder, markerName(mine)), 'Frontis keeps this database’s files in this folder.\n');
  const inserted = await db.insert(serverSecrets).values({ name: NAME, value: mine }).onConflictDoNothing().returning({ value: serverSecrets.value });
  if (inserted.length) return;
  await rm(join(folder, markerName(mine)), { force: true });
  const [row] = await db.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, NAME));
  if (!row || !(await exists(join(folder, markerName(row.value))))) throw new FilesFolderNotSharedError(folder);
}

/**
 * Removes the `.partial` files of uploads a killed process was writing (DATA_DIR/files/<tenant>/).
 * Only where this process is the folder's one writer (PGlite: it holds the data lock); with
 * several processes another may be writing one right now.
 */
export async function removePartialUploads(dataDir: string): Promise<number> {
  const folder = join(dataDir, 'files');
  let removed = 0;
  let tenants: string[];
  try {
    tenants = await readdir(folder);
  } catch {
    return 0;
  }
  for (const tenant of tenants.filter((n) => /^\d+$/.test(n))) {
    for (const name of await readdir(join(folder, tenant)).catch(() => [] as string[])) {
      if (!name.endsWith('.partial')) continue;
      await rm(join(folder, tenant, name), { force: true });
      removed++;
    }
  }
  return removed;
}
