/**
 * Built calendar ranges, by key, each valid for one revision of its centre's calendar. Bounded
 * by entries and bytes; the least recently used go first. Only a cache: every process keeps
 * its own and checks the revision in the database before using an entry.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);

const MAX_ENTRIES = 200;
const MAX_BYTES = 48 * 1024 * 1024;

export const hash = (text: string) => createHash('sha1').update(text).digest('base64url').slice(0, 16);

/** One built range: its JSON, and the same gzipped once a browser asks for it (~15 times smaller). */
export class CachedRange {
  private zipped?: Promise<Buffer>;
  constructor(
    readonly revision: number,
    readonly body: Buffer,
  ) {}

  gzipped(): Promise<Buffer> {
    // zlib runs off the event loop; a failure is not kept.
    this.zipped ??= gzipAsync(this.body).catch((error: unknown) => {
      this.zipped = undefined;
      throw error;
    });
    return this.zipped;
  }
}

export class CalendarCache {
  private entries = new Map<string, CachedRange>();
  private bytes = 0;

  get(key: string, revision: number): CachedRange | undefined {
    const hit = this.entries.get(key);
    if (!hit || hit.revision !== revision) return undefined;
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  /** Keeps the body encoded: a busy week is about 115 KB, not worth encoding per request. */
  put(key: string, revision: number, text: string): CachedRange {
    const range = new CachedRange(revision, Buffer.from(text, 'utf8'));
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.body.length;
      this.entries.delete(key);
    }
    this.entries.set(key, range);
    this.bytes += range.body.length;
    for (const [k, v] of this.entries) {
      if (this.entries.size <= MAX_ENTRIES && this.bytes <= MAX_BYTES) break;
      this.entries.delete(k);
      this.bytes -= v.body.length;
    }
    return range;
  }
}
