import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateFilter, stringify } from '../../src/providers/dataProvider';
import { ApiError, BUSY_JITTER_MS, BUSY_RETRIES, BUSY_WAIT_MAX_MS, createHttpClient, type Locks } from '../../src/providers/http';
import { createSession, memoryStore, type KeyValueStore } from '../../src/providers/session';

// A real HTTP server standing in for the API: /api/* answers 401 until a refresh happened.
interface Fake {
  url: string;
  server: Server;
  refreshCalls: number;
  apiCalls: number;
  refreshed: boolean;
  refreshAnswer: 200 | 401;
  seenHeaders: IncomingMessage['headers'][];
  forbiddenCode?: string;
}

/** What /echo/* answers: the request as the server received it. */
interface Echo {
  method: string;
  url: string;
  contentType: string | null;
  body: string;
}

async function startFake(): Promise<Fake> {
  const fake: Fake = {
    url: '',
    refreshCalls: 0,
    apiCalls: 0,
    refreshed: false,
    refreshAnswer: 200,
    seenHeaders: [],
    server: createServer((req, res) => {
      fake.seenHeaders.push(req.headers);
      const send = (status: number, body?: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(body === undefined ? '' : JSON.stringify(body));
      };
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.url?.startsWith('/echo')) {
          const echo: Echo = {
            method: req.method!,
            url: req.url,
            contentType: req.headers['content-type'] ?? null,
            body: Buffer.concat(chunks).toString('utf8'),
          };
          return send(200, echo);
        }
        if (req.url === '/bytes') {
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          return res.end(Buffer.from([1, 2, 3]));
        }
        if (req.url === '/limited') {
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '42' });
          return res.end(JSON.stringify({ error: { code: 'rate-limited', message: 'slow down' } }));
        }
        if (req.url === '/empty') {
          res.writeHead(204);
          return res.end();
        }
        if (req.url === '/never') return; // no answer: the caller gives up
        if (req.method === 'POST' && req.url === '/refresh-token') {
          fake.refreshCalls++;
          // answer late, so every concurrent 401 arrives while the refresh is in flight
          setTimeout(() => {
            if (fake.refreshAnswer === 401) return send(401, { error: { code: 'session-expired', message: 'expired' } });
            fake.refreshed = true;
            send(200, { user: { id: 1, username: 'maria', role: 'ADMIN', firstName: 'Maria', lastName: 'P' }, token: 'sess-2', exp: 2_000_000_000 });
          }, 50);
          return;
        }
        if (req.url?.startsWith('/api/forbidden')) return send(403, { error: { code: fake.forbiddenCode ?? 'forbidden', message: 'no' } });
        if (req.url?.startsWith('/api/')) {
          fake.apiCalls++;
          if (!fake.refreshed) return send(401, { error: { code: 'unauthorized', message: 'sign in' } });
          return send(200, { data: { path: req.url } });
        }
        send(404, { error: { code: 'not-found', message: 'nope' } });
      });
    }),
  };
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
  return fake;
}

function signedIn(store: KeyValueStore) {
  const session = createSession(() => store);
  session.set({ id: 1, username: 'maria', role: 'ADMIN', firstName: 'Maria', lastName: 'P' }, 'sess-1', 1_000_000_000);
  return session;
}

describe('http client', () => {
  let fake: Fake;
  let store: KeyValueStore;
  let visited: string[];

  beforeEach(async () => {
    fake = await startFake();
    store = memoryStore();
    visited = [];
  });
  afterEach(async () => {
    await new Promise((resolve) => fake.server.close(resolve));
  });

  const client = (locks: Locks | null = null) =>
    createHttpClient({ baseURL: fake.url, session: signedIn(store), navigate: (p) => visited.push(p), locks, tenant: () => 'demo' }).http;

  it('sends the web client and tenant headers on every request', async () => {
    fake.refreshed = true;
    await client().get('/api/users');
    expect(fake.seenHeaders[0]!['x-client-type']).toBe('web');
    expect(fake.seenHeaders[0]!['x-tenant-id']).toBe('demo');
  });

  it('five concurrent 401s share exactly one refresh, then each retries once and succeeds', async () => {
    const http = client();
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => http.get(`/api/items/${n}`)));
    expect(fake.refreshCalls).toBe(1);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((a) => (a.data as { data: { path: string } }).data.path)).toEqual([1, 2, 3, 4, 5].map((n) => `/api/items/${n}`));
    expect(fake.apiCalls).toBe(10); // five 401s, five retries
    expect(JSON.parse(store.getItem('user')!).exp).toBe(2_000_000_000);
    expect(store.getItem('token')).toBe('sess-2');
    expect(visited).toEqual([]);
  });

  it('takes the cross-tab lock for the refresh when Web Locks exist', async () => {
    const names: string[] = [];
    const locks: Locks = { request: (name, cb) => (names.push(name), cb()) };
    const http = client(locks);
    await Promise.all([1, 2, 3].map((n) => http.get(`/api/items/${n}`)));
    expect(names).toEqual(['frontis-refresh']);
    expect(fake.refreshCalls).toBe(1);
  });

  it('skips the refresh when another tab refreshed while this one waited for the lock', async () => {
    const session = signedIn(store);
    const locks: Locks = {
      request: async (_name, cb) => {
        // the other tab held the lock, refreshed, and stored its new expiry
        fake.refreshed = true;
        session.set({ id: 1, username: 'maria', role: 'ADMIN', firstName: 'Maria', lastName: 'P' }, 'sess-other', 1_500_000_000);
        return cb();
      },
    };
    const http = createHttpClient({ baseURL: fake.url, session, navigate: (p) => visited.push(p), locks, tenant: () => 'demo' }).http;
    const answer = await http.get('/api/items/1');
    expect(answer.status).toBe(200);
    expect(fake.refreshCalls).toBe(0);
  });

  it('a failed refresh clears the session and goes to /login', async () => {
    fake.refreshAnswer = 401;
    const http = client();
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => http.get(`/api/items/${n}`)));
    expect(fake.refreshCalls).toBe(1);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    const reason = (results[0] as PromiseRejectedResult).reason as ApiError;
    expect(reason).toBeInstanceOf(ApiError);
    expect(reason.statusCode).toBe(401);
    expect(reason.sessionCleared).toBe(true);
    expect(store.getItem('token')).toBeNull();
    expect(store.getItem('user')).toBeNull();
    expect(visited).toEqual(['/login']);
  });

  it('a 403 forbidden goes to the caller and keeps the session', async () => {
    const http = client();
    const error = await http.get('/api/forbidden').catch((e: unknown) => e as ApiError);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('forbidden');
    expect((error as ApiError).sessionCleared).toBe(false);
    expect(store.getItem('token')).toBe('sess-1');
    expect(visited).toEqual([]);
  });

  it('any other 403 (tenant-mismatch, session-revoked) clears the session', async () => {
    fake.forbiddenCode = 'tenant-mismatch';
    const http = client();
    const error = (await http.get('/api/forbidden').catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('tenant-mismatch');
    expect(error.sessionCleared).toBe(true);
    expect(store.getItem('user')).toBeNull();
    expect(visited).toEqual(['/login']);
  });

  it('other errors go to the caller with the server code', async () => {
    fake.refreshed = true;
    const error = (await client()
      .get('/elsewhere')
      .catch((e: unknown) => e)) as ApiError;
    expect(error.statusCode).toBe(404);
    expect(error.code).toBe('not-found');
    expect(store.getItem('token')).toBe('sess-1');
  });

  it('sends query parameters, JSON and form bodies as the server expects them', async () => {
    const http = client();
    const query = await http.get<Echo>('/echo/list', {
      params: { _start: 0, unread: 'true', missing: undefined, none: null, ids: [1, 2], text: 'a b,c:d$é&' },
    });
    expect(query.data.url).toBe('/echo/list?_start=0&unread=true&ids%5B%5D=1&ids%5B%5D=2&text=a+b,c:d$%C3%A9%26');
    const more = await http.delete<Echo>('/echo/row?x=1', { params: { with_records: 'true' } });
    expect(more.data).toMatchObject({ method: 'DELETE', url: '/echo/row?x=1&with_records=true', body: '' });

    const json = await http.patch<Echo>('/echo/row', { name: 'Μαρία', version: 3 });
    expect(json.data).toMatchObject({ method: 'PATCH', contentType: 'application/json', body: '{"name":"Μαρία","version":3}' });

    const form = new FormData();
    form.append('file', new Blob(['hello']), 'hello.txt');
    const upload = await http.post<Echo>('/echo/files', form);
    expect(upload.data.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload.data.body).toContain('filename="hello.txt"');
    expect(upload.data.body).toContain('hello');
  });

  it('answers a blob when asked, an empty body as empty, and keeps the answer headers on an error', async () => {
    const http = client();
    const bytes = await http.get<Blob>('/bytes', { responseType: 'blob' });
    expect([...new Uint8Array(await bytes.data.arrayBuffer())]).toEqual([1, 2, 3]);
    expect((await http.delete('/empty')).status).toBe(204);
    const limited = (await http.post('/limited', {}).catch((e: unknown) => e)) as ApiError;
    expect(limited).toBeInstanceOf(ApiError);
    expect(limited.statusCode).toBe(429);
    expect(limited.code).toBe('rate-limited');
    expect(limited.headers['retry-after']).toBe('42');
  });

  it('a cancelled call rejects as a network error and keeps the session', async () => {
    const controller = new AbortController();
    const pending = client()
      .get('/never', { signal: controller.signal })
      .catch((e: unknown) => e);
    setTimeout(() => controller.abort(), 20);
    const error = (await pending) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('network');
    expect(error.statusCode).toBe(0);
    expect(store.getItem('token')).toBe('sess-1');
    expect(visited).toEqual([]);
  });
});

describe("the data provider's list parameters", () => {
  it('are sorted, repeat an array, encode strictly and leave out what is empty', () => {
    const query = {
      _start: 0,
      _end: 25,
      status: ['ACTIVE', 'INACTIVE'],
      q: "Μαρία (O'Neil)!*",
      last_name_like: 'Παπα δ',
      skip: undefined,
      none: null,
      blank: '',
    };
    expect(stringify(query)).toBe(
      '_end=25&_start=0&blank=&last_name_like=%CE%A0%CE%B1%CF%80%CE%B1%20%CE%B4&none&q=%CE%9C%CE%B1%CF%81%CE%AF%CE%B1%20%28O%27Neil%29%21%2A&status=ACTIVE&status=INACTIVE',
    );
    expect(stringify(query, { skipNull: true, skipEmptyString: true })).toBe(
      '_end=25&_start=0&last_name_like=%CE%A0%CE%B1%CF%80%CE%B1%20%CE%B4&q=%CE%9C%CE%B1%CF%81%CE%AF%CE%B1%20%28O%27Neil%29%21%2A&status=ACTIVE&status=INACTIVE',
    );
    expect(stringify({ id: [3, 1], _end: 2 })).toBe('_end=2&id=3&id=1');
  });

  it("name Refine's filters the way the server reads them", () => {
    expect(
      generateFilter([
        { field: 'q', operator: 'contains', value: 'μαρ' },
        { field: 'status', operator: 'eq', value: 'ACTIVE' },
        { field: 'role', operator: 'ne', value: 'ADMIN' },
        { field: 'date', operator: 'gte', value: '2026-11-01' },
        { field: 'date', operator: 'lte', value: '2026-11-30' },
        { field: 'last_name', operator: 'contains', value: 'Πα' },
        { field: 'class_id', operator: 'in', value: [1, 2] },
      ]),
    ).toEqual({ q: 'μαρ', status: 'ACTIVE', role_ne: 'ADMIN', date_gte: '2026-11-01', date_lte: '2026-11-30', last_name_like: 'Πα', class_id: [1, 2] });
  });
});

describe('http client under a busy server (503 with Retry-After)', () => {
  let server: Server;
  let url: string;
  /** Calls seen per path; each path answers 503 its first `busy` times, then 200. */
  let calls: Record<string, number>;

  beforeEach(async () => {
    calls = {};
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const [, , busyTimes, reason, retryAfter] = (req.url ?? '').split('/');
        const seen = (calls[req.url!] = (calls[req.url!] ?? 0) + 1);
        if (seen <= Number(busyTimes)) {
          res.writeHead(503, { 'content-type': 'application/json', ...(retryAfter === 'none' ? {} : { 'retry-after': retryAfter ?? '2' }) });
          const details = reason === 'overloaded' || reason === 'draining' ? { reason, retry_after: 2 } : { retry_after: 2 };
          return res.end(JSON.stringify({ error: { code: 'unavailable', message: 'busy', details } }));
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: { method: req.method, seen } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const client = (pauses: number[]) =>
    createHttpClient({
      baseURL: url,
      session: signedIn(memoryStore()),
      navigate: () => {},
      locks: null,
      tenant: () => 'demo',
      wait: async (ms) => {
        pauses.push(ms);
      },
    }).http;

  it('a read refused as busy is sent again after the pause the server asks for, and succeeds', async () => {
    const pauses: number[] = [];
    const answer = await client(pauses).get<{ data: { seen: number } }>('/busy/2/db/2');
    expect(answer.status).toBe(200);
    expect(answer.data.data.seen).toBe(3);
    expect(pauses).toHaveLength(2);
    for (const ms of pauses) {
      expect(ms).toBeGreaterThanOrEqual(2000);
      expect(ms).toBeLessThan(2000 + BUSY_JITTER_MS);
    }
  });

  it('gives up after the bounded number of tries and hands the 503 to the caller', async () => {
    const pauses: number[] = [];
    const error = (await client(pauses)
      .get('/busy/9/overloaded/1')
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.statusCode).toBe(503);
    expect(error.code).toBe('unavailable');
    expect(calls['/busy/9/overloaded/1']).toBe(1 + BUSY_RETRIES);
    expect(pauses).toHaveLength(BUSY_RETRIES);
  });

  it('a write is sent again only when the server refused it before doing anything (reason overloaded or draining)', async () => {
    const pauses: number[] = [];
    const http = client(pauses);
    const shed = await http.post<{ data: { method: string; seen: number } }>('/busy/1/overloaded/1', { amount: 1000 });
    expect(shed.data.data).toEqual({ method: 'POST', seen: 2 });
    const restarting = await http.post<{ data: { method: string; seen: number } }>('/busy/1/draining/1', { amount: 1000 });
    expect(restarting.data.data).toEqual({ method: 'POST', seen: 2 });
    // A 503 of a write for another cause (the database lost mid-request) may have been committed.
    const lost = (await http.post('/busy/1/db/1', { amount: 1000 }).catch((e: unknown) => e)) as ApiError;
    expect(lost.statusCode).toBe(503);
    expect(calls['/busy/1/db/1']).toBe(1);
    expect(pauses).toHaveLength(2);
  });

  it('a 503 without Retry-After, a huge Retry-After and a cancelled call', async () => {
    const pauses: number[] = [];
    const http = client(pauses);
    const bare = (await http.get('/busy/1/overloaded/none').catch((e: unknown) => e)) as ApiError;
    expect(bare.statusCode).toBe(503);
    expect(calls['/busy/1/overloaded/none']).toBe(1);
    await http.get('/busy/1/overloaded/3600');
    expect(pauses).toEqual([expect.any(Number)]);
    expect(pauses[0]).toBeLessThanOrEqual(BUSY_WAIT_MAX_MS + BUSY_JITTER_MS);
    expect(pauses[0]).toBeGreaterThanOrEqual(BUSY_WAIT_MAX_MS);

    const controller = new AbortController();
    const cancelling = createHttpClient({
      baseURL: url,
      session: signedIn(memoryStore()),
      navigate: () => {},
      locks: null,
      tenant: () => 'demo',
      wait: async () => controller.abort(),
    }).http;
    const cancelled = (await cancelling.get('/busy/1/overloaded/1', { signal: controller.signal }).catch((e: unknown) => e)) as ApiError;
    expect(cancelled.statusCode).toBe(503);
    expect(calls['/busy/1/overloaded/1']).toBe(1);
  });
});
