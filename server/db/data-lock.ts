/**
 * One process at a time in a data directory. The embedded database is a set of files that
 * only one process may have open: a second server, or a restore swapping the files under a
 * running server, corrupts them. Whoever uses DATA_DIR holds DATA_DIR/frontis.lock, a file
 * created exclusively that names its process; a lock whose process is gone (kill -9, power
 * cut) is taken over. The file also records when that process started (Linux: field 22 of
 * /proc/<pid>/stat), so a lock naming a process id since reused by another program (after a
 * reboot, say) is known to be stale and taken over too.
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

/**
 * When process pid started, in clock ticks since boot (field 22 of /proc/<pid>/stat), or null
 * where /proc is not there (macOS, Windows: the process id alone decides, as before).
 */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count after its end.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

interface Holder {
  pid: number;
  holder: string;
  /** The holder's start time as processStart gave it; '' when unknown. */
  started: string;
}

function readHolder(file: string): Holder | null {
  try {
    const [pid, holder, started] = readFileSync(file, 'utf8').split('\n');
    const n = Number(pid);
    return Number.isSafeInteger(n) && n > 0 ? { pid: n, holder: holder || 'a Frontis process', started: started ?? '' } : null;
  } catch {
    return null;
  }
}

/** The process named by the lock is still the one that wrote it. */
function stillHolding(found: Holder): boolean {
  if (!alive(found.pid)) return false;
  if (!found.started) return true;
  const now = processStart(found.pid);
  return now === null || now === found.started;
}

/** Who holds the lock of dataDir, if a live process other than this one does. */
export function lockHolder(dataDir: string): { pid: number; holder: string } | null {
  const found = readHolder(lockFile(dataDir));
  return found && found.pid !== process.pid && stillHolding(found) ? { pid: found.pid, holder: found.holder } : null;
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
      writeSync(fd, `${process.pid}\n${holder}\n${processStart(process.pid) ?? ''}\n`);
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
