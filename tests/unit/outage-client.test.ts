import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changedFields } from '../../src/engine/form/stale';
import { outageDelay } from '../../src/providers/connectivity';
import { ApiError, createHttpClient, type OutageWatch } from '../../src/providers/http';
import { createSession, memoryStore } from '../../src/providers/session';

// The HTTP client through an outage, against a real local server that answers 502 (or nothing)
// a few times before it answers: a read waits and goes again, a write goes to the caller with
// a translatable code, and the watcher hears "down" then "up".
let server: Server;
let base = '';
let failuresLeft = 0;
let calls = 0;

beforeEach(async () => {
  calls = 0;
  server = createServer((req, res) => {
    calls++;
    if (failuresLeft > 0) {
      failuresLeft--;
      res.writeHead(502, { 'content-type': 'text/html' });
      return res.end('<html>Bad Gateway</html>');
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: req.method }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await new Promise((r) => server.close(r));
});

function watched(baseURL = base) {
  const heard: string[] = [];
  const pauses: number[] = [];
  const outage: OutageWatch = {
    down: () => heard.push('down'),
    up: () => heard.push('up'),
    pause: async (tries) => {
      pauses.push(outageDelay(tries));
    },
  };
  const client = createHttpClient({ baseURL, session: createSession(() => memoryStore()), locks: null, tenant: () => 'demo', outage });
  return { http: client.http, heard, pauses };
}

describe('an outage', () => {
  it('a read waits through 502s with a doubling pause and answers once the server does', async () => {
    failuresLeft = 3;
    const { http, heard, pauses } = watched();
    const answer = await http.get<{ data: string }>('/api/students');
    expect(answer.data.data).toBe('GET');
    expect(calls).toBe(4);
    expect(pauses).toEqual([1000, 2000, 4000]);
    expect(heard).toEqual(['down', 'down', 'down', 'up']);
  });

  it('a write is not sent again: it fails with the "network" code, which has a translated text', async () => {
    failuresLeft = 1;
    const { http, heard } = watched();
    const failure = await http.post('/api/students', { first_name: 'Ζωή' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).code).toBe('network');
    expect(calls).toBe(1);
    expect(heard).toEqual(['down']);
  });

  it('no answer at all: a read keeps trying, a write fails with "network"', async () => {
    // a port that was just free: nothing listens there
    const gone = createServer();
    await new Promise<void>((r) => gone.listen(0, '127.0.0.1', r));
    const port = (gone.address() as AddressInfo).port;
    await new Promise((r) => gone.close(r));
    const { http: closedHttp, heard } = watched(`http://127.0.0.1:${port}`);
    const write = await closedHttp.post('/api/students', {}).catch((e: unknown) => e);
    expect((write as ApiError).code).toBe('network');
    expect((write as ApiError).statusCode).toBe(0);
    expect(heard).toEqual(['down']);
    const controller = new AbortController();
    const read = closedHttp.get('/api/students', { signal: controller.signal }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    expect(((await read) as ApiError).message).toBe('canceled');
  });

  it('the back-off doubles from 1 s and stops growing at 8 s', () => {
    expect([0, 1, 2, 3, 4, 10].map(outageDelay)).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
  });
});

describe('a stale save compared', () => {
  it('names only the fields where the typed value differs from the saved one', () => {
    const mine = { id: 4, version: 2, first_name: 'Ζωή', last_name: 'Παππά', phone: '2610 123456', subject_ids: [1, 2], email: '' };
    const theirs = { id: 4, version: 3, first_name: 'Ζωίτσα', last_name: 'Παππά', phone: null, subject_ids: [1, 2], email: null };
    expect(changedFields(mine, theirs)).toEqual(['first_name', 'phone']);
  });
});
