// npm run restore, as an operator runs it: a good backup, a truncated one, garbage, a gzip that
// is no database, while the server runs, and into a DATA_DIR that does not exist yet. Each case
// checks what the operator sees (exit code, message) and what the data directory holds after.
import { PGlite } from '@electric-sql/pglite';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, PGLITE_EXTENSIONS, pgliteDir } from '../../../server/db/open';
import { backupNow } from '../../../server/jobs/backup';
import { migratedDataDir } from '../support/harness';
import { allNames, call, compiled, REPO, ROOT, signIn, startFrontis } from '../../../bench/frontis-process';

const BACKED_UP = 'Μάθημα στο αντίγραφο';
const LIVE = 'Μάθημα μετά το αντίγραφο';

function runRestore(file: string, dataDir: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [compiled('restore.js'), file], {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** A gzipped tar of the given files, made by tar(1). */
function tarOf(files: Record<string, string>): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'frontis-tar-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return execFileSync('tar', ['czf', '-', '-C', dir, '.']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Subject names in a stopped data directory, read straight from its files. */
async function subjectsIn(dataDir: string): Promise<string[]> {
  const pg = new PGlite(pgliteDir(dataDir), { extensions: PGLITE_EXTENSIONS });
  try {
    const { rows } = await pg.query<{ name: string }>('select name from subjects order by name');
    return rows.map((r) => r.name);
  } finally {
    await pg.close();
  }
}

/** Starts Frontis on dataDir (a migrated database), adds a subject named name, stops it. */
async function addSubject(dataDir: string, name: string) {
  await migratedDataDir(dataDir);
  const frontis = await startFrontis({ DATA_DIR: dataDir });
  try {
    const { token } = await signIn(frontis.base, ROOT.username, ROOT.password);
    expect((await call(frontis.base, 'POST', '/api/subjects', { token, body: { name } })).status).toBe(201);
  } finally {
    await frontis.stop();
  }
}

describe('npm run restore', () => {
  let tmp: string;
  let backup: string;
  let live: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'frontis-restore-'));
    const source = join(tmp, 'source');
    await addSubject(source, BACKED_UP);
    const database = await openDatabase({ dataDir: source });
    backup = (await backupNow(database, source))!;
    await database.close();
    live = join(tmp, 'live');
    await addSubject(live, LIVE);
  }, 300_000);

  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const leftovers = (dataDir: string) => readdirSync(dataDir).filter((n) => n.includes('restoring') || n.includes('before-restore'));

  it.each([
    ['a truncated backup', () => readFileSync(backup).subarray(0, Math.floor(readFileSync(backup).length / 2)), 'not a complete gzip file'],
    ['garbage', () => Buffer.from('this is not a backup at all\n'.repeat(100)), 'not a complete gzip file'],
    ['a gzip that holds no archive', () => gzipSync(Buffer.from('hello\n'.repeat(1000))), 'archive inside'],
    ['an archive that holds no database', () => tarOf({ 'notes.txt': 'hello\n', 'base/1/readme': 'not a table' }), 'database'],
  ])(
    'refuses %s, says why, and leaves the data as it was',
    async (_what, bytes, reason) => {
      const file = join(tmp, `bad-${Math.random().toString(36).slice(2)}.tar.gz`);
      writeFileSync(file, bytes());
      const { code, out } = await runRestore(file, live);
      expect(code, out).toBe(1);
      expect(out).toContain('cannot be restored');
      expect(out).toContain(reason);
      expect(out).toContain('Nothing was changed');
      expect(leftovers(live)).toEqual([]);
      expect(await subjectsIn(live)).toEqual([LIVE]);
    },
    60_000,
  );

  it('refuses a missing file', async () => {
    const { code, out } = await runRestore(join(tmp, 'no-such.tar.gz'), live);
    expect(code, out).toBe(1);
    expect(out).toContain('no such backup file');
  }, 30_000);

  it('refuses while the server runs on the data directory, which keeps serving its data', async () => {
    const frontis = await startFrontis({ DATA_DIR: live });
    try {
      // A second server on the same files is refused too.
      await expect(startFrontis({ DATA_DIR: live })).rejects.toThrow(`in use by the Frontis server (process ${frontis.child.pid})`);
      const { code, out } = await runRestore(backup, live);
      expect(code, out).toBe(1);
      expect(out).toContain(`in use by the Frontis server (process ${frontis.child.pid})`);
      expect(out).toContain('Nothing was changed');
      const { token } = await signIn(frontis.base, ROOT.username, ROOT.password);
      expect([...(await allNames(frontis.base, token, 'subjects'))]).toEqual([LIVE]);
    } finally {
      await frontis.stop();
    }
    expect(leftovers(live)).toEqual([]);
  }, 120_000);

  it('restores a good backup, keeps the previous data aside, and the centre works with it', async () => {
    const { code, out } = await runRestore(backup, live);
    expect(code, out).toBe(0);
    expect(out).toContain('Restored');
    expect(out).toContain('The previous data is kept in');
    const aside = readdirSync(live).filter((n) => n.includes('before-restore'));
    expect(aside).toHaveLength(1);
    expect(await subjectsIn(live)).toEqual([BACKED_UP]);
    // Secrets came with it: the same ROOT signs in and reads the backed-up data.
    const frontis = await startFrontis({ DATA_DIR: live });
    try {
      const { token } = await signIn(frontis.base, ROOT.username, ROOT.password);
      expect([...(await allNames(frontis.base, token, 'subjects'))]).toEqual([BACKED_UP]);
    } finally {
      await frontis.stop();
    }
  }, 120_000);

  it('restores into a DATA_DIR that does not exist yet (a new machine)', async () => {
    const fresh = join(tmp, 'new-machine', 'data');
    expect(existsSync(fresh)).toBe(false);
    const { code, out } = await runRestore(backup, fresh);
    expect(code, out).toBe(0);
    expect(out).not.toContain('previous data');
    expect(await subjectsIn(fresh)).toEqual([BACKED_UP]);
    expect(readdirSync(fresh).sort()).toEqual(['pgdata']);
  }, 60_000);
});
