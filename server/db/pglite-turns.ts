/**
 * PGlite runs one call at a time on this process's own event loop, and its queue starts the
 * next call as soon as one ends, in the same turn of the loop. Offered more than it could
 * serve, 32 queued requests' statements ran back to back for about 120 ms in which no
 * connection was accepted and no request read: the kernel's queue of new connections
 * overflowed, and clients waited seconds to connect instead of being refused at once (the
 * overload bench's answered p99 was 11 s). Calls now wait in a queue of our own (first come,
 * first served), and once PGlite has held the loop for TURN_MS since it last let go, the next
 * call waits for a turn of the loop (setImmediate): new connections are accepted, requests
 * read and the excess refused in between. Letting go after every call instead cost up to a
 * fifth of a list's throughput. A transaction is one call (it holds PGlite until its end anyway).
 */
import type { PGlite } from '@electric-sql/pglite';
import { wrapMethod } from './wrap-method';

const TURN_MS = 10;

/** Calls waiting in each PGlite's queue (takeTurns), not counting the one it runs: what /metrics calls its pool waits. */
const pgliteQueues = new WeakMap<PGlite, { waiting: number }>();

export const pgliteWaiting = (pglite: PGlite) => pgliteQueues.get(pglite)?.waiting ?? 0;

/** Makes pglite's calls wait in a queue of our own, letting go of the event loop every TURN_MS. */
export function takeTurns(pglite: PGlite): void {
  const queue = { waiting: 0 };
  pgliteQueues.set(pglite, queue);
  let previous: Promise<unknown> = Promise.resolve();
  let heldSince = performance.now();
  const letGo = () => new Promise<void>((resolve) => setImmediate(resolve));
  for (const name of ['query', 'exec', 'transaction']) {
    wrapMethod(pglite, name, (call, self, args) => {
      queue.waiting++;
      const answer = previous.then(async () => {
        queue.waiting--;
        if (performance.now() - heldSince > TURN_MS) {
          await letGo();
          heldSince = performance.now();
        }
        return call(self, args);
      });
      previous = answer.catch(() => undefined);
      return answer;
    });
  }
}
