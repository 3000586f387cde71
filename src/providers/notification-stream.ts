import { i18n } from './i18nProvider';
import { hostTenant, http } from './http';

/** One notification as the API answers it. */
export interface NotificationRow {
  id: number;
  kind: string;
  params: Record<string, string | number>;
  title: string;
  body: string;
  link: string;
  read: boolean;
  read_at: string | null;
  created_at: string;
}

/** What the stream says: the unread count, the newest one, and whether that one just arrived. */
interface NotificationState {
  unread: number;
  latest: NotificationRow | null;
  fresh: boolean;
}

type Listener = (state: NotificationState) => void;

const listeners = new Set<Listener>();
let last: NotificationState | null = null;
let stop: (() => void) | null = null;

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

function publish(state: NotificationState) {
  last = state;
  for (const listener of listeners) listener(state);
}

/** Reads `event: unread` blocks from a server-sent event body until it ends. */
async function readEvents(body: ReadableStream<Uint8Array>, signal: AbortSignal) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  signal.addEventListener('abort', () => void reader.cancel().catch(() => {}));
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block.split('\n').find((line) => line.startsWith('data: '));
      if (block.includes('event: unread') && data) publish(JSON.parse(data.slice(6)) as NotificationState);
    }
  }
}

/**
 * This tab's stream of notification news: fetch rather than EventSource, because every call
 * carries the client headers. The server ends a stream when the access token that opened it
 * expires; it is opened again, and a 401 goes through the HTTP client's one shared refresh
 * first (an ordinary call does it). Each tab keeps its own stream, so every tab's count is right.
 */
function start(): () => void {
  const controller = new AbortController();
  const { signal } = controller;
  void (async () => {
    let failures = 0;
    while (!signal.aborted) {
      try {
        const res = await fetch('/api/notifications/stream', {
          headers: { 'x-client-type': 'web', 'x-tenant-id': hostTenant(), 'accept-language': i18n.language },
          credentials: 'include',
          signal,
        });
        if (res.status === 401) {
          // Refreshes the session (or ends it, which ends this loop with the page).
          await http.get('/api/notifications', { params: { _end: 0 } });
          continue;
        }
        if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
        failures = 0;
        await readEvents(res.body, signal);
      } catch {
        if (signal.aborted) return;
        failures++;
      }
      await pause(Math.min(1000 * 2 ** failures, 30_000), signal);
    }
  })();
  return () => controller.abort();
}

/** Subscribes to this tab's notification news; the stream runs while anyone listens. */
export function subscribeNotifications(listener: Listener): () => void {
  listeners.add(listener);
  if (last) listener({ ...last, fresh: false });
  stop ??= start();
  return () => {
    listeners.delete(listener);
    if (!listeners.size) {
      stop?.();
      stop = null;
      last = null;
    }
  };
}
