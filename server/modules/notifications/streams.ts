/**
 * This process's open notification streams, and the one read that feeds them. A wake names
 * users; the streams of those users here are fed from one read (their unread counts and
 * latest notifications, for all of them at once), not one read per stream, so thousands of
 * open streams add no database work per stream. Streams end when their session does (the bus
 * carries revoked sessions and changed accounts from every process), and a user holds at most
 * `maxPerUser` streams: a new one closes the oldest.
 */
import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../../db/types';
import { withTenant } from '../../db/doors';
import { notifications } from '../../db/schema/index';
import type { NotificationBus } from './bus';

export type NotificationRow = typeof notifications.$inferSelect;

/** What a stream tells its reader: the unread count and the newest notification. */
export interface StreamState {
  unread: number;
  latest: NotificationRow | null;
}

export interface Stream {
  tenantId: number;
  /** null for a ROOT: no notifications of its own, but its stream still ends with its session. */
  userId: number | null;
  sessionId: number;
  deliver(state: StreamState): void;
  /** Ends the stream (idempotent). */
  finish(): void;
}

export interface StreamHub {
  /** Registers a stream (closing the user's oldest beyond the cap); answers the unregister. */
  add(stream: Stream): () => void;
  /** One user's state, read on its own: the first event of a new stream. */
  stateOf(tenantId: number, userId: number): Promise<StreamState>;
  /** How many streams are open here (tests, bench). */
  size(): number;
  close(): void;
}

/** The state of each of `userIds` in one transaction: two statements whatever their number. */
async function readStates(database: Database, tenantId: number, userIds: number[]): Promise<Map<number, StreamState>> {
  return withTenant(database, tenantId, async (tx) => {
    const mineOf = and(eq(notifications.tenantId, tenantId), inArray(notifications.userId, userIds));
    const counts = await tx
      .select({ userId: notifications.userId, n: count() })
      .from(notifications)
      .where(and(mineOf, isNull(notifications.readAt)))
      .groupBy(notifications.userId);
    const latest = await tx.selectDistinctOn([notifications.userId]).from(notifications).where(mineOf).orderBy(notifications.userId, desc(notifications.id));
    const states = new Map<number, StreamState>(userIds.map((id) => [id, { unread: 0, latest: null }]));
    for (const c of counts) states.get(c.userId)!.unread = Number(c.n);
    for (const row of latest) states.get(row.userId)!.latest = row;
    return states;
  });
}

export function startStreamHub(
  database: Database,
  bus: NotificationBus,
  opts: { maxPerUser: number; log: { warn(obj: unknown, msg: string): void } },
): StreamHub {
  /** tenant:user -> that user's streams, oldest first (a Set keeps insertion order). */
  const byUser = new Map<string, Set<Stream>>();
  /** tenant:session -> the streams that session opened. */
  const bySession = new Map<string, Set<Stream>>();
  const keyOf = (tenantId: number, id: number) => `${tenantId}:${id}`;
  let total = 0;

  // Wakes arriving while a tenant's read is running join the next read of that tenant.
  const pending = new Map<number, Set<number>>();
  const running = new Set<number>();
  const feed = (tenantId: number) => {
    if (running.has(tenantId)) return;
    const users = [...(pending.get(tenantId) ?? [])].filter((u) => byUser.has(keyOf(tenantId, u)));
    pending.delete(tenantId);
    if (!users.length) return;
    running.add(tenantId);
    readStates(database, tenantId, users)
      .then((states) => {
        for (const [userId, state] of states) for (const stream of byUser.get(keyOf(tenantId, userId)) ?? []) stream.deliver(state);
      })
      .catch((error: unknown) => opts.log.warn({ err: error }, 'notification streams could not read'))
      .finally(() => {
        running.delete(tenantId);
        if (pending.has(tenantId)) feed(tenantId);
      });
  };

  const stopWakes = bus.onWake((wake) => {
    if (wake.u?.length) {
      let set = pending.get(wake.t);
      if (!set) pending.set(wake.t, (set = new Set()));
      for (const u of wake.u) set.add(u);
      feed(wake.t);
    }
    // Sessions ended (sign-out, revocation, password change, deactivation): their streams end.
    for (const sessionId of wake.s ?? []) for (const stream of [...(bySession.get(keyOf(wake.t, sessionId)) ?? [])]) stream.finish();
    // An account's role or status changed: its streams end, and reconnect as what it now is.
    for (const userId of wake.a ?? []) for (const stream of [...(byUser.get(keyOf(wake.t, userId)) ?? [])]) stream.finish();
  });

  // Wakes sent while the bus was away were not heard: every stream here reads again.
  const stopResync = bus.onResync(() => {
    for (const key of byUser.keys()) {
      const [tenantId, userId] = key.split(':').map(Number) as [number, number];
      let set = pending.get(tenantId);
      if (!set) pending.set(tenantId, (set = new Set()));
      set.add(userId);
    }
    for (const tenantId of [...pending.keys()]) feed(tenantId);
  });

  return {
    add(stream) {
      const key = stream.userId === null ? null : keyOf(stream.tenantId, stream.userId);
      let set: Set<Stream> | undefined;
      if (key !== null) {
        // The oldest go first; finishing one unregisters it (and may drop the user's set).
        for (let held = byUser.get(key); held && held.size >= opts.maxPerUser; held = byUser.get(key)) {
          const oldest = held.values().next().value!;
          held.delete(oldest);
          if (!held.size) byUser.delete(key);
          oldest.finish();
        }
        set = byUser.get(key);
        if (!set) byUser.set(key, (set = new Set()));
        set.add(stream);
      }
      total++;
      const sessionKey = keyOf(stream.tenantId, stream.sessionId);
      let sessionSet = bySession.get(sessionKey);
      if (!sessionSet) bySession.set(sessionKey, (sessionSet = new Set()));
      sessionSet.add(stream);
      return () => {
        if (!sessionSet.delete(stream)) return;
        if (!sessionSet.size && bySession.get(sessionKey) === sessionSet) bySession.delete(sessionKey);
        total--;
        if (key === null || !set) return;
        set.delete(stream);
        if (!set.size && byUser.get(key) === set) byUser.delete(key);
      };
    },
    async stateOf(tenantId, userId) {
      return (await readStates(database, tenantId, [userId])).get(userId)!;
    },
    size: () => total,
    close() {
      stopWakes();
      stopResync();
      // Every stream is under its session (a ROOT's too, which has no user set).
      for (const streams of [...bySession.values()]) for (const stream of [...streams]) stream.finish();
      byUser.clear();
      bySession.clear();
    },
  };
}
