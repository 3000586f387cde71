// SIGTERM under load (server/plugins/drain.ts): two compiled Frontis processes on one PostgreSQL
// database, as behind a proxy; four clients each send a steady stream of writes and reads over one
// kept-alive connection to the first. Mid-stream the first gets SIGTERM. Every request it had
// taken is answered; everything after is refused cleanly (503 `draining` with Connection: close
// and Retry-After, or the connection refused), never cut mid-request, and a refused request is
// sent again to the second process, as a proxy or client would: every logical request succeeds
// and every write is there once. Meanwhile /healthz says draining, an open notification stream is
// told to reconnect and ends, and the process exits 0. Last, the second process is stopped with
// an upload still arriving: at DRAIN_SECONDS it is cut and the process exits 0 all the same.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allNames, endFrontis, type FrontisProcess, ROOT, scratchDatabase, signIn, sleep, startFrontis } from '../../../bench/frontis-process';

const CLIENTS = 4;

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** The network error's code when there was no answer. */
  error?: string;
}

/** One request over `agent` (kept alive); a network failure is an answer with status 0 and its code. */
function send(agent: http.Agent, port: number, method: string, path: string, token: string, body?: unknown): Promise<Reply> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          'x-tenant-id': 'demo',
          'x-client-type': 'api',
          authorization: `Bearer ${token}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
        timeout: 10_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : null }));
        res.on('error', (error: NodeJS.ErrnoException) => resolve({ status: 0, headers: {}, body: null, error: error.code ?? error.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: 0, headers: {}, body: null, error: error.code ?? error.message }));
    req.end(payload);
  });
}

/** Refused before anything was done: the request may go to another process. */
const refusedCleanly = (r: Reply) => r.error === 'ECONNREFUSED' || (r.status === 503 && r.body?.error?.details?.reason === 'draining');

describe('SIGTERM under load', () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>>;
  let a: FrontisProcess;
  let b: FrontisProcess;
  let token: string;

  beforeAll(async () => {
    db = await scratchDatabase();
    const env = { DATABASE_URL: db.url, DRAIN_SECONDS: '10' };
    a = await startFrontis(env);
    // The second drains for 1 s only and has no minimum body rate: the last test keeps an
    // upload in flight past its drain.
    b = await startFrontis({ ...env, DRAIN_SECONDS: '1', MIN_BODY_BYTES_PER_SECOND: '0' });
    token = (await signIn(a.base, ROOT.username, ROOT.password)).token;
  }, 120_000);

  afterAll(async () => {
    await endFrontis(a, b);
    await db?.drop();
  });

  it('SIGTERM under load: zero failed requests', async () => {
    let termAt = Number.POSITIVE_INFINITY;
    let stopAt = Number.POSITIVE_INFINITY;
    const broken: string[] = [];
    const refusals: Reply[] = [];
    const written = new Set<string>();
    /** Requests the first process took before SIGTERM and answered after it. */
    let heldAcross = 0;
    let answeredByA = 0;

    const client = async (n: number) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      let port = a.port;
      try {
        for (let i = 0; Date.now() < stopAt; i++) {
          const name = `c${n}-${i}`;
          const write = i % 2 === 0;
          // One logical request: sent again to the other process when refused cleanly.
          for (let attempt = 0; ; attempt++) {
            const sentAt = Date.now();
            const r = write
              ? await send(agent, port, 'POST', '/api/folders', token, { name, parent_id: null })
              : await send(agent, port, 'GET', '/api/folders?_start=0&_end=5', token);
            if (r.status === (write ? 201 : 200)) {
              if (write) written.add(name);
              if (port === a.port) {
                answeredByA++;
                if (sentAt < termAt && Date.now() > termAt) heldAcross++;
              }
              break;
            }
            if (refusedCleanly(r) && port === a.port && attempt === 0) {
              refusals.push(r);
              port = b.port;
              continue;
            }
            broken.push(`${name} on ${port === a.port ? 'the first' : 'the second'}: ${r.status} ${r.error ?? JSON.stringify(r.body)}`);
            break;
          }
        }
      } finally {
        agent.destroy();
      }
    };

    // A notification stream open on the first process.
    const stream = new Promise<string>((resolve, reject) => {
      http
        .get(
          {
            host: '127.0.0.1',
            port: a.port,
            path: '/api/notifications/stream',
            headers: { 'x-tenant-id': 'demo', 'x-client-type': 'api', authorization: `Bearer ${token}` },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => resolve(text));
          },
        )
        .on('error', reject);
    });

    // A kept-alive connection with nothing on it (a proxy's pooled one): the drain gives it its
    // moment, then closes it without a byte.
    const idle = net.connect(a.port, '127.0.0.1');
    let idleGot = '';
    idle.on('data', (chunk) => (idleGot += chunk.toString()));
    const idleClosed = new Promise<void>((resolve) => idle.once('close', () => resolve()));
    idle.on('error', () => undefined);

    const clients = Array.from({ length: CLIENTS }, (_, n) => client(n));
    await sleep(1500);
    termAt = Date.now();
    a.child.kill('SIGTERM');
    // What the proxy's health check sees from now on (until the process is gone).
    let health: Reply | undefined;
    for (const until = Date.now() + 1500; Date.now() < until && (!health || health.status === 200); await sleep(50)) {
      health = await send(new http.Agent(), a.port, 'GET', '/healthz', token);
    }
    await sleep(1500);
    stopAt = Date.now();
    await Promise.all(clients);

    expect(broken).toEqual([]);
    // The drain was exercised: requests were in flight at the signal and answered, and later
    // ones refused cleanly (a 503 says so, closes its connection and says when to retry).
    expect(heldAcross).toBeGreaterThan(0);
    expect(refusals.length).toBeGreaterThanOrEqual(CLIENTS);
    for (const r of refusals.filter((x) => x.status === 503)) {
      expect(r.headers.connection).toBe('close');
      expect(r.headers['retry-after']).toBe('1');
      expect(r.body.error.code).toBe('unavailable');
    }
    expect(answeredByA).toBeGreaterThan(0);
    expect({ status: health?.status, body: health?.body, connection: health?.headers.connection }).toEqual({
      status: 503,
      body: { status: 'draining' },
      connection: 'close',
    });
    // Every write answered is there, once.
    const names = await allNames(b.base, token, 'folders');
    expect([...written].filter((name) => !names.has(name))).toEqual([]);
    expect([...names].filter((name) => /^c\d+-\d+$/.test(name)).sort()).toEqual([...written].sort());

    const said = await stream;
    expect(said).toContain('event: reconnect');
    expect(said).toContain('retry: 1000');
    await idleClosed;
    expect(idleGot).toBe('');
    expect(await a.exited).toBe(0);
  }, 60_000);
  it('the second, its drain reaching DRAIN_SECONDS, cuts what it still holds and exits 0', async () => {
    const token = (await signIn(b.base, ROOT.username, ROOT.password)).token;
    const boundary = '----frontis-drain';
    const upload = net.connect(b.port, '127.0.0.1');
    let got = '';
    upload.on('data', (chunk) => (got += chunk.toString()));
    upload.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => upload.once('close', () => resolve()));
    upload.write(
      `POST /api/files HTTP/1.1\r\nHost: demo.localhost\r\nx-tenant-id: demo\r\nx-client-type: api\r\nauthorization: Bearer ${token}\r\n` +
        `content-type: multipart/form-data; boundary=${boundary}\r\ncontent-length: 100000\r\n\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="never.txt"\r\nContent-Type: text/plain\r\n\r\nthe first bytes`,
    );
    await sleep(300);
    const termAt = Date.now();
    b.child.kill('SIGTERM');
    await closed;
    expect(Date.now() - termAt).toBeGreaterThanOrEqual(900);
    // Cut, not answered: the upload never finished arriving.
    expect(got).toBe('');
    expect(await b.exited).toBe(0);
    expect(Date.now() - termAt).toBeLessThan(8000);
    expect(b.output()).toContain('drain deadline reached');
  }, 30_000);
});
