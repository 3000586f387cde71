import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, createHttpClient, type Locks } from '../../src/providers/http';
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

async function startFake(): Promise<Fake> {
  const fake = { refreshCalls: 0, apiCalls: 0, refreshed: false, refreshAnswer: 200, seenHeaders: [] } as unknown as Fake;
  fake.server = createServer((req, res) => {
    fake.seenHeaders.push(req.headers);
    const send = (status: number, body?: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    req.resume();
    req.on('end', () => {
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
  });
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
});
