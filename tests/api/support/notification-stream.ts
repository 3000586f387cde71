// The notification stream (server-sent events) read over real HTTP, event by event: shared by
// the tests that open it on an app in this process and on a server running as its own process.

interface StreamEvent {
  event: string;
  data: { unread: number; fresh: boolean; latest: Record<string, any> | null };
}

/** An open stream of `base` as the bearer of `token` on `tenant`. */
export async function openStream(base: string, tenant: string, token?: string) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/notifications/stream`, {
    headers: { 'x-client-type': 'api', 'x-tenant-id': tenant, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    signal: controller.signal,
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const next = async (): Promise<StreamEvent> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const lines = block.split('\n');
        const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
        const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
        if (event && data) return { event, data: JSON.parse(data) };
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended');
      buffer += decoder.decode(value, { stream: true });
    }
  };
  /** The next event whose unread count is `unread`. */
  const until = async (unread: number) => {
    for (;;) {
      const e = await next();
      if (e.data.unread === unread) return e;
    }
  };
  return { res, next, until, close: () => controller.abort() };
}
