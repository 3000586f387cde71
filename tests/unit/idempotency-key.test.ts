// The web client's side of "Exactly once" (docs/rules.md): every write carries an
// Idempotency-Key, the same one on every try of it (after the shared refresh, after a busy
// pause, and when the same write is sent again after no answer), a new one for a new write.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DomainError } from '../../domain/errors';
import el from '../../src/locales/el/errors.json';
import en from '../../src/locales/en/errors.json';
import { ApiError, createHttpClient } from '../../src/providers/http';
import { createSession, memoryStore } from '../../src/providers/session';

interface Seen {
  method: string;
  url: string;
  key: string | undefined;
}

/** A stand-in API: each path answers from its own queue of outcomes (then 201). */
function startFake(plan: Record<string, Array<'401' | 'busy' | 'drop' | '500' | 'progress'>>) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const key = (req.headers as IncomingHttpHeaders)['idempotency-key'] as string | undefined;
    seen.push({ method: req.method!, url: req.url!, key });
    req.resume();
    req.on('end', () => {
      if (req.url === '/refresh-token') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ user: { id: 1, username: 'maria', role: 'ADMIN', firstName: 'M', lastName: 'P' }, token: 't2', exp: 2_000_000_000 }));
      }
      const next = plan[req.url!]?.shift();
      if (next === 'drop') return req.socket.destroy();
      const [status, body, headers] =
        next === '401'
          ? [401, { error: { code: 'unauthorized', message: 'sign in' } }, {}]
          : next === 'busy'
            ? [503, { error: { code: 'unavailable', message: 'busy', details: { reason: 'overloaded', retry_after: 1 } } }, { 'retry-after': '1' }]
            : next === '500'
              ? [500, { error: { code: 'internal', message: 'oops' } }, {}]
              : next === 'progress'
                ? [409, { error: { code: 'in-progress', message: 'still running' } }, {}]
                : [req.method === 'GET' ? 200 : 201, { data: { id: 1 } }, {}];
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    });
  });
  return { seen, server };
}

describe('Idempotency-Key of the web client', () => {
  let fake: ReturnType<typeof startFake>;
  let plan: Record<string, Array<'401' | 'busy' | 'drop' | '500' | 'progress'>>;
  let http: ReturnType<typeof createHttpClient>['http'];

  beforeEach(async () => {
    plan = {};
    fake = startFake(plan);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    const session = createSession(() => memoryStore());
    session.set({ id: 1, username: 'maria', role: 'ADMIN', firstName: 'M', lastName: 'P' }, 't1', 1_000_000_000);
    const url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    http = createHttpClient({ baseURL: url, session, navigate: () => undefined, locks: null, tenant: () => 'demo', wait: async () => undefined }).http;
  });
  afterEach(async () => {
    await new Promise((resolve) => fake.server.close(resolve));
  });

  const keysOf = (url: string) => fake.seen.filter((s) => s.url === url).map((s) => s.key);

  it('sends one key per write, the same after the shared refresh, a busy pause and an in-progress answer; none on reads and sign-in', async () => {
    plan['/api/payments'] = ['401', 'busy', 'progress'];
    await http.post('/api/payments', { amount: 1000 });
    const keys = keysOf('/api/payments');
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(keys).size).toBe(1);
    await http.post('/api/payments', { amount: 1000 });
    expect(keysOf('/api/payments')[4]).not.toBe(keys[0]);
    await http.get('/api/payments');
    await http.post('/login', { username: 'maria' });
    expect(fake.seen.filter((s) => s.method === 'GET' || s.url === '/login' || s.url === '/refresh-token').map((s) => s.key)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    await http.put('/api/payments/1', { a: 1 });
    await http.patch('/api/payments/1', { a: 2 });
    await http.delete('/api/payments/1');
    expect(keysOf('/api/payments/1').every((k) => typeof k === 'string')).toBe(true);
  });

  it('sends the same key again when the same write is retried after no answer or a server error, a new one once answered', async () => {
    plan['/api/receipts/7/cancel'] = ['drop', '500'];
    const cancel = () => http.post('/api/receipts/7/cancel', { reason: 'λάθος' });
    const dropped = await cancel().catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(ApiError);
    expect((dropped as ApiError).code).toBe('network');
    await expect(cancel()).rejects.toMatchObject({ statusCode: 500 });
    expect((await cancel()).status).toBe(201);
    const [first, second, third] = keysOf('/api/receipts/7/cancel');
    expect(second).toBe(first);
    expect(third).toBe(first);
    // Answered: the next such write is a new one.
    await cancel();
    expect(keysOf('/api/receipts/7/cancel')[3]).not.toBe(first);
    // Another body is another write, with a key of its own.
    plan['/api/receipts/7/cancel'] = ['drop'];
    await http.post('/api/receipts/7/cancel', { reason: 'άλλο' }).catch(() => undefined);
    expect(keysOf('/api/receipts/7/cancel')[4]).not.toBe(first);
  });
});

describe('a 503 says nothing was saved', () => {
  it('in the API message and in both languages of the client, for the database away and for overload', () => {
    expect(new DomainError('unavailable').message).toContain('Nothing was saved.');
    for (const [errors, words] of [
      [en, 'Nothing was saved.'],
      [el, 'Δεν αποθηκεύτηκε τίποτα.'],
    ] as const) {
      expect(errors.errors.unavailable).toContain(words);
      expect(errors.errors.reasons.overloaded).toContain(words);
    }
  });
});
