// Admission that adapts (server/plugins/admission.ts), with the settings a process runs with:
// what a process can serve it serves (a burst of users opening a screen at once, 50 keep-alive
// clients), and a flood beyond what it serves is refused at once while what it answers stays
// fast. Real servers on loopback; every load is bounded in count and time.
import { Agent, request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';

const defaults = loadConfig({}).overload;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  retryAfter?: string;
  reason?: string;
  ms: number;
}

/** One GET over an HTTP agent of the test's (its sockets are the clients' connections). */
function get(agent: Agent, port: number, path: string, token: string): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { agent, host: '127.0.0.1', port, path, headers: { 'x-tenant-id': 'demo', 'x-client-type': 'api', authorization: `Bearer ${token}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const ms = performance.now() - started;
          const status = res.statusCode ?? 0;
          const retryAfter = res.headers['retry-after'] as string | undefined;
          const reason =
            status === 503 ? (JSON.parse(Buffer.concat(chunks).toString()) as { error: { details?: { reason?: string } } }).error.details?.reason : undefined;
          resolve({ status, retryAfter, reason, ms });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/** The three lists a screen asks for when it opens. */
const SCREEN = ['/api/students?_start=0&_end=25', '/api/subjects?_start=0&_end=25', '/api/teachers?_start=0&_end=25'];

describe.each(DATABASE_KINDS)('admission with its default settings on %s', (kind) => {
  let t: TestApp;
  let port: number;
  let token: string;

  beforeAll(async () => {
    t = await startApp(kind, { overload: defaults });
    token = (await t.signIn(t.root.username, t.root.password)).token;
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('40 users opening a screen at the same moment (3 requests each), five times: every request is served, none refused', async () => {
    const statuses: number[] = [];
    for (let burst = 0; burst < 5; burst++) {
      // Each user is a browser of its own: its own connections, opened at that moment.
      const users = Array.from({ length: 40 }, () => new Agent({ keepAlive: true }));
      try {
        const answers = await Promise.all(users.flatMap((agent) => SCREEN.map((path) => get(agent, port, path, token))));
        statuses.push(...answers.map((a) => a.status));
      } finally {
        for (const agent of users) agent.destroy();
      }
      await sleep(200);
    }
    expect(statuses).toHaveLength(600);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });

  it('20 payments recorded at the same moment: every one served (none refused), each once, with its own receipt', async () => {
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: { 'x-tenant-id': 'demo', 'x-client-type': 'api', authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const month = new Date().toISOString().slice(0, 7);
    const student = (await (await api('POST', '/api/students', { first_name: 'Είκοσι', last_name: 'Πληρωμές' })).json()) as { id: number };
    const contract = (await (
      await api('POST', '/api/contracts', {
        student_id: student.id,
        start_date: `${month}-01`,
        end_date: `${month}-28`,
        register_cost: 0,
        month_cost: 100_000,
        with_receipt: true,
      })
    ).json()) as { id: number };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        api('POST', '/api/payments', { contract_id: contract.id, kind: 'MONTHLY', month, amount: 100, method: 'CASH', paid_on: `${month}-01` }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 20 }, () => 201));
    const bills = await Promise.all(answers.map(async (a) => ((await a.json()) as { data: { bill_number: string } }).data.bill_number));
    expect(new Set(bills).size).toBe(20);
    const read = (await (await api('GET', `/api/contracts/${contract.id}`)).json()) as { data: { total_paid: number } };
    expect(read.data.total_paid).toBe(2000);
  });

  it('50 keep-alive clients asking one after another get no 503', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 50 });
    try {
      // The clients connect first (/healthz: never queued), as a load generator's do.
      await Promise.all(Array.from({ length: 50 }, () => get(agent, port, '/healthz', token)));
      const statuses: number[] = [];
      await Promise.all(
        Array.from({ length: 50 }, async () => {
          for (let i = 0; i < 12; i++) statuses.push((await get(agent, port, SCREEN[0]!, token)).status);
        }),
      );
      expect(statuses).toHaveLength(600);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
    } finally {
      agent.destroy();
    }
  });
});

// On the embedded database, whose work is done on this process's own loop, what a process
// serves is surely less than what its own client sends, however busy the machine; on a
// PostgreSQL server a loaded machine slowed the client more than the server, and the queue never
// stood (the burst, keep-alive and payments cases above run on both).
describe.each(DATABASE_KINDS.filter((kind) => kind === 'pglite'))('a sustained flood on %s', (kind) => {
  let t: TestApp;
  let port: number;
  let token: string;
  // A short queue target and interval, so that a flood of a second stands the queue for many
  // intervals, and at most two requests at once, so that what this process serves is less than
  // what its own client can send (the client shares its event loop).
  const config = { ...defaults, maxInFlight: 2, queueTargetMs: 10, queueIntervalMs: 50, retryAfterSeconds: 2 };

  beforeAll(async () => {
    t = await startApp(kind, { overload: config });
    token = (await t.signIn(t.root.username, t.root.password)).token;
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('offered beyond what it serves: some refused at once with 503, Retry-After and reason overloaded; what it answers waits little; then a burst is served whole', async () => {
    // The server's own time for each answer, from the request's arrival to its end (the client
    // shares this process's event loop, so its own clock counts its own waits too).
    const served: { status: number; ms: number }[] = [];
    const time = (_req: unknown, res: ServerResponse) => {
      const started = performance.now();
      res.once('finish', () => served.push({ status: res.statusCode, ms: performance.now() - started }));
    };
    const agent = new Agent({ keepAlive: true, maxSockets: 150 });
    try {
      // A process that has served before: the latency of one request at a time is known.
      for (let i = 0; i < 30; i++) expect((await get(agent, port, SCREEN[0]!, token)).status).toBe(200);
      await sleep(150);
      t.app.server.on('request', time);
      // Open loop: 15 requests every 10 ms for 1.5 s, whatever the answers.
      const sent: Promise<Answer>[] = [];
      const until = performance.now() + 1500;
      while (performance.now() < until) {
        for (let i = 0; i < 15; i++) sent.push(get(agent, port, SCREEN[0]!, token));
        await sleep(10);
      }
      const answers = await Promise.all(sent);
      const refused = answers.filter((a) => a.status === 503);
      expect(answers.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([]);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused.length).toBeLessThan(answers.length);
      for (const r of refused) expect(r).toMatchObject({ retryAfter: '2', reason: 'overloaded' });
      const ms = (status: number) => served.filter((s) => s.status === status).map((s) => s.ms);
      // Refused at once; answered within a short wait, the newest first (everything queued
      // first come first served, the last would wait seconds: 1.5 s of requests at several
      // times what is served).
      expect(percentile(ms(503), 50)).toBeLessThan(100);
      expect(percentile(ms(200), 50)).toBeLessThan(400);
      expect(percentile(ms(200), 90)).toBeLessThan(1000);
      // And the queue drains again once the flood is over: a burst a moment later is served whole.
      await sleep(200);
      const burst = await Promise.all(Array.from({ length: 30 }, () => get(agent, port, SCREEN[0]!, token)));
      expect(burst.map((a) => a.status)).toEqual(burst.map(() => 200));
    } finally {
      agent.destroy();
      t.app.server.off('request', time);
    }
  });
});
