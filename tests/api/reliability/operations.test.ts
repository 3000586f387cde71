// Start-up guards of a real server process: a lock file naming a process id now used by
// another program is taken over; a backup cut short by a kill is removed at start; several
// processes on one PostgreSQL database refuse local file storage that is not one shared folder.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config';
import { acquireDataLock, DataDirLockedError, lockFile, processStart } from '../../../server/db/data-lock';
import { checkFilesFolder, FilesFolderNotSharedError } from '../../../server/modules/files/shared-folder';
import { DATABASE_KINDS } from '../support/harness';
import { type FrontisProcess, scratchDatabase, startFrontis } from '../../../bench/frontis-process';
import { openDatabase } from '../../../server/db/open';

const temp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/** Another program, alive for the test: the process id a stale lock file may name. */
function otherProgram(): ChildProcess {
  return spawn('sleep', ['120'], { stdio: 'ignore' });
}

describe('the data lock', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) c.kill('SIGKILL');
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('is refused while the process that wrote it runs, and taken over once its process id belongs to another program', () => {
    const dir = temp('frontis-lock-');
    dirs.push(dir);
    const other = otherProgram();
    children.push(other);
    const pid = other.pid!;
    // Written by that very process (its start time matches): the directory is in use.
    writeFileSync(lockFile(dir), `${pid}\nthe Frontis server\n${processStart(pid)}\n`);
    expect(() => acquireDataLock(dir, 'a test')).toThrow(DataDirLockedError);
    // Written by a process long gone whose id the other program now has: stale.
    writeFileSync(lockFile(dir), `${pid}\nthe Frontis server\n1\n`);
    const lock = acquireDataLock(dir, 'a test');
    lock.release();
    expect(existsSync(lockFile(dir))).toBe(false);
  });
});

describe.skipIf(!DATABASE_KINDS.includes('pglite'))('a server process on pglite', () => {
  let server: FrontisProcess | undefined;
  let other: ChildProcess | undefined;
  const dir = temp('frontis-start-');
  afterAll(async () => {
    await server?.stop();
    other?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts over a lock naming a reused process id, and removes a backup and an upload left half-written', async () => {
    other = otherProgram();
    mkdirSync(join(dir, 'backups'), { recursive: true });
    writeFileSync(lockFile(dir), `${other.pid}\nthe Frontis server\n1\n`);
    const partial = join(dir, 'backups', 'frontis-20260101T000000Z.tar.gz.partial');
    writeFileSync(partial, '');
    mkdirSync(join(dir, 'files', '1'), { recursive: true });
    const upload = join(dir, 'files', '1', '0b6f2c1e-7d4a-4f7e-9a53-2f1f4b8e9c10.partial');
    writeFileSync(upload, 'half a file');
    server = await startFrontis({ DATA_DIR: dir });
    expect(existsSync(partial)).toBe(false);
    expect(existsSync(upload)).toBe(false);
    const res = await fetch(`${server.base}/healthz`);
    expect(res.status).toBe(200);
  });
});

describe.skipIf(!DATABASE_KINDS.includes('postgres'))('several processes on one PostgreSQL database with files on disk', () => {
  const started: FrontisProcess[] = [];
  const dirs: string[] = [];
  let db: Awaited<ReturnType<typeof scratchDatabase>>;
  afterAll(async () => {
    for (const s of started) await s.stop();
    await db?.drop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('refuse to start on a folder that is not the one the database’s files are in, unless FILES_SHARED=1', async () => {
    db = await scratchDatabase();
    const first = temp('frontis-files-a-');
    const second = temp('frontis-files-b-');
    dirs.push(first, second);
    started.push(await startFrontis({ DATABASE_URL: db.url, DATA_DIR: first }));

    // Another folder (another machine, another DATA_DIR): refused, saying what to do.
    const refused = await startFrontis({ DATABASE_URL: db.url, DATA_DIR: second }).then(
      (s) => {
        started.push(s);
        return 'started';
      },
      (error: Error) => error.message,
    );
    expect(refused).toContain('FILES_SHARED=1');
    expect(refused).toContain('S3_BUCKET');

    // The same folder: a second process is welcome.
    started.push(await startFrontis({ DATABASE_URL: db.url, DATA_DIR: first }));

    // The operator says the folder is shared: trusted.
    const database = await openDatabase({ url: db.url, dataDir: second });
    try {
      const config = { ...loadConfig({}), databaseUrl: db.url, dataDir: second };
      await expect(checkFilesFolder(database, config)).rejects.toThrow(FilesFolderNotSharedError);
      await expect(checkFilesFolder(database, { ...config, filesShared: true })).resolves.toBeUndefined();
    } finally {
      await database.close();
    }
  });
});
