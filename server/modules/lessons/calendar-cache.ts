/**
 * Built calendar ranges, by key, each valid for one revision of its centre's calendar. Bounded
 * by entries and bytes; the least recently used go first. Only a cache: every process keeps
 * its own and checks the revision in the database before using an entry.
 */
import { createHash } from 'node:crypto';

const MAX_ENTRIES = 200;
const MAX_BYTES = 48 * 1024 * 1024;

export const hash = (text: string) => createHash('sha1').update(text).digest('base64url').slice(0, 16);

export class CalendarCache {
  private entries = new Map<string, { revision: number; body: Buffer }>();
  private bytes = 0;

  get(key: string, revision: number): Buffer | undefined {
    const hit = this.entries.get(key);
    if (!hit || hit.revision !== revision) return undefined;
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.body;
  }

  /** Keeps the body encoded: a busy week is half a megabyte, not worth encoding per request. */
  put(key: string, revision: number, text: string): Buffer {
    const body = Buffer.from(text, 'utf8');
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.body.length;
      this.entries.delete(key);
    }
    this.entries.set(key, { revision, body });
    this.bytes += body.length;
    for (const [k, v] of this.entries) {
      if (this.entries.size <= MAX_ENTRIES && this.bytes <= MAX_BYTES) break;
      this.entries.delete(k);
      this.bytes -= v.body.length;
    }
    return body;
  }
}
