/**
 * Wakes the open notification streams of this process when any process's transaction has
 * created notifications or changed what is read. PostgreSQL: LISTEN on a dedicated
 * connection (not from the pool: a pooled client is handed to the next request), re-opened
 * with a growing pause when it breaks, so service resumes after an outage. PGlite: its own
 * listen(), the same NOTIFY in the one process that holds the database.
 */
import pg from 'pg';
import type { Database } from '../../db/types';
import { NOTIFY_CHANNEL, type Wake } from './create';

type Listener = () => void;

export interface NotificationBus {
  /** Calls `listener` whenever this user's notifications change; answers the unsubscribe. */
  subscribe(tenantId: number, userId: number, listener: Listener): () => void;
  /** Calls `listener` with the centre whenever any of its users' notifications change. */
  onAny(listener: (tenantId: number) => void): () => void;
  /** Calls `listener` with every wake heard (news, ended sessions, changed accounts). */
  onWake(listener: (wake: Wake) => void): () => void;
  /** Calls `listener` after the connection came back: wakes sent meanwhile were not heard. */
  onResync(listener: () => void): () => void;
  close(): Promise<void>;
}

export async function startBus(database: Database, log: { warn(msg: string): void }): Promise<NotificationBus> {
  const listeners = new Map<string, Set<Listener>>();
  const keyOf = (tenantId: number, userId: number) => `${tenantId}:${userId}`;
  const anyListeners = new Set<(tenantId: number) => void>();
  const wakeListeners = new Set<(wake: Wake) => void>();
  const resyncListeners = new Set<() => void>();

  const deliver = (payload: string) => {
    let wake: Wake;
    try {
      wake = JSON.parse(payload) as Wake;
    } catch {
      return;
    }
    for (const userId of wake.u ?? []) for (const listener of listeners.get(keyOf(wake.t, userId)) ?? []) listener();
    for (const listener of wakeListeners) listener(wake);
    if (wake.u?.length) for (const listener of anyListeners) listener(wake.t);
  };

  let closed = false;
  let stop: () => Promise<void> = async () => {};

  if (database.pglite) {
    const unlisten = await database.pglite.listen(NOTIFY_CHANNEL, deliver);
    stop = async () => {
      if (!database.pglite!.closed) await unlisten();
    };
  } else if (database.pool) {
    const options = database.pool.options;
    let client: pg.Client | undefined;
    let retry: NodeJS.Timeout | undefined;
    let pause = 500;
    let connectedOnce = false;
    const connect = async () => {
      if (closed) return;
      // LISTEN needs a session of its own: past PgBouncer in transaction mode when there is one.
      const next = new pg.Client({ connectionString: database.directUrl ?? options.connectionString, connectionTimeoutMillis: 5000, keepAlive: true });
      const again = (error: Error) => {
        if (closed || client !== next) return;
        log.warn(`notification listener lost its connection: ${error.message}`);
        client = undefined;
        void next.end().catch(() => {});
        retry = setTimeout(() => void connect(), pause).unref();
        pause = Math.min(pause * 2, 10_000);
      };
      client = next;
      next.on('error', again);
      next.on('notification', (message) => {
        if (message.channel === NOTIFY_CHANNEL && message.payload) deliver(message.payload);
      });
      try {
        await next.connect();
        await next.query(`listen ${NOTIFY_CHANNEL}`);
        pause = 500;
        // What happened while the connection was down was not heard: every stream re-reads.
        if (connectedOnce) {
          for (const set of listeners.values()) for (const listener of set) listener();
          for (const listener of resyncListeners) listener();
        }
        connectedOnce = true;
      } catch (error) {
        again(error as Error);
      }
    };
    await connect();
    stop = async () => {
      clearTimeout(retry);
      await client?.end().catch(() => {});
    };
  }

  return {
    subscribe(tenantId, userId, listener) {
      const key = keyOf(tenantId, userId);
      let set = listeners.get(key);
      if (!set) listeners.set(key, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (!set.size) listeners.delete(key);
      };
    },
    onAny(listener) {
      anyListeners.add(listener);
      return () => anyListeners.delete(listener);
    },
    onWake(listener) {
      wakeListeners.add(listener);
      return () => wakeListeners.delete(listener);
    },
    onResync(listener) {
      resyncListeners.add(listener);
      return () => resyncListeners.delete(listener);
    },
    async close() {
      closed = true;
      listeners.clear();
      anyListeners.clear();
      wakeListeners.clear();
      resyncListeners.clear();
      await stop();
    },
  };
}
