/**
 * One process at a time in a data directory. The embedded database is a set of files that
 * only one process may have open: a second server, or a restore swapping the files under a
 * running server, corrupts them. Whoever uses DATA_DIR holds DATA_DIR/frontis.lock, a file
 * created exclusively that names its process; a lock whose process is gone (kill -9, power
 * cut) is taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const lockFile = (dataDir: string) => join(dataDir, 'frontis.lock');

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    readonly holder: string,
  ) {
    super(`${dataDir} is in use by ${holder} (process ${pid}); stop it first.`);
  }
}

export interface DataLock {
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): { pid: number; holder: string } | null {
  try {
    const [pid, holder] = readFileSync(file, 'utf8').split('\n');
    const n = Number(pid);
    return Number.isSafeInteger(n) && n > 0 ? { pid: n, holder: holder || 'a Frontis process' } : null;
  } catch {
    return null;
  }
}

/** Who holds the lock of dataDir, if a live process other than this one does. */
export function lockHolder(dataDir: string): { pid: number; holder: string } | null {
  const found = readHolder(lockFile(dataDir));
  return found && found.pid !== process.pid && alive(found.pid) ? found : null;
}

/**
 * Takes the lock of dataDir (created if missing) for this process, described as holder
 * ('the Frontis server', 'a restore'); throws DataDirLockedError when a live process has it.
 */
export function acquireDataLock(dataDir: string, holder: string): DataLock {
  mkdirSync(dataDir, { recursive: true });
  const file = lockFile(dataDir);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${process.pid}\n${holder}\n`);
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          if (readHolder(file)?.pid === process.pid) unlinkSync(file);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const held = lockHolder(dataDir);
      if (held) throw new DataDirLockedError(dataDir, held.pid, held.holder);
      // Left by a process that is gone: take it over (another taker racing us loses on 'wx').
      try {
        unlinkSync(file);
      } catch {
        // Someone else removed it first; try again.
      }
    }
  }
  const held = readHolder(file);
  throw new DataDirLockedError(dataDir, held?.pid ?? 0, held?.holder ?? 'another process');
}
