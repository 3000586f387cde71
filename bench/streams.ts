/**
 * Open notification streams under load: N streams (STREAMS, default 1,000, at most 3,000; all
 * over loopback) held by 20 office users, then notifications to all of them created one after
 * another. Measured: how long one notification takes to reach every stream (fan-out), and the
 * p99 of other requests (GET /me) while nothing happens and while notifications fan out.
 * `npx tsx bench/streams.ts [pglite|postgres]`; prints one JSON line with the machine's load.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { loadavg, cpus } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app';
import { bootstrap } from '../server/bootstrap';
import { loadConfig, type Config } from '../server/config';
import { openDatabase } from '../server/db/open';
import { withTenant } from '../server/db/doors';
import { migrate } from '../server/db/migrate';
import { notify, officeStaff } from '../server/modules/notifications/create';
import { scratchDatabase } from './scratch';

const kind = (process.argv[2] ?? 'postgres') as 'pglite' | 'postgres';
const STREAMS = Math.min(3000, Number(process.env.STREAMS ?? 1000));
const USERS = 20;
const NOTIFICATIONS = 10;

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const round = (n: number) => Math.round(n * 10) / 10;

async function main() {
  const scratch = kind === 'postgres' ? await scratchDatabase() : undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'frontis-bench-streams-'));
  const config = {
    ...loadConfig({}),
    dataDir,
    rootUsername: 'root',
    rootPassword: 'root-password-1',
    logLevel: 'silent',
    databaseUrl: scratch?.url,
    loginRateLimit: { perUser: 1000, perAddress: 100_000, windowSeconds: 900 },
    // Every stream comes from loopback, and 50 per user.
    streamsPerUser: 1000,
    connections: { headersTimeoutSeconds: 20, requestTimeoutSeconds: 300, maxPerAddress: 0 },
  } as Config;
  const database = await openDatabase({ url: scratch?.url, dataDir: kind === 'pglite' ? dataDir : undefined, maxConnections: 20 });
  await migrate(database);
  await bootstrap(database, config);
  const app = await buildApp({ database, config, serveClient: false });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(address).port);
  const base = { 'x-client-type': 'api', 'x-tenant-id': 'demo', host: 'demo.localhost', 'content-type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await fetch(`${address}${path}`, {
      method,
      headers: { ...base, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, any> };
  };

  const root = (await call('POST', '/login', { username: 'root', password: 'root-password-1', tenant: 'demo' })).body.token as string;
  const tokens: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const username = `office${i}`;
    const made = await call(
      'POST',
      '/api/users',
      { username, password: 'user-password-1', role: 'SECRETARY', first_name: 'Bench', last_name: `User${i}` },
      root,
    );
    if (made.status !== 201) throw new Error(`user: ${made.status} ${JSON.stringify(made.body)}`);
    tokens.push((await call('POST', '/login', { username, password: 'user-password-1', tenant: 'demo' })).body.token as string);
  }
  const tenantId = Number((await call('GET', '/api/tenants?slug=demo', undefined, root)).body.data[0].id);

  // The streams: each counts the events it has received.
  let received = 0;
  const responses: IncomingMessage[] = [];
  const opened: Promise<void>[] = [];
  for (let i = 0; i < STREAMS; i++) {
    opened.push(
      new Promise((resolve, reject) => {
        const req = httpRequest(
          { port, host: '127.0.0.1', path: '/api/notifications/stream', agent: false, headers: { ...base, authorization: `Bearer ${tokens[i % USERS]}` } },
          (res) => {
            responses.push(res);
            let first = true;
            res.on('data', (chunk: Buffer) => {
              const events = chunk.toString().split('event: unread').length - 1;
              if (first && events) {
                first = false;
                resolve();
                if (events > 1) received += events - 1;
              } else received += events;
            });
          },
        );
        req.on('error', reject);
        req.end();
      }),
    );
    if (i % 200 === 199) await Promise.all(opened.slice(-200));
  }
  await Promise.all(opened);

  // Others' requests: GET /me four at a time, for `ms`.
  const others = async (ms: number) => {
    const times: number[] = [];
    const until = Date.now() + ms;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (Date.now() < until) {
          const t0 = performance.now();
          await call('GET', '/me', undefined, tokens[0]);
          times.push(performance.now() - t0);
        }
      }),
    );
    return times;
  };

  const idle = await others(3000);
  const fanouts: number[] = [];
  const busy = others(NOTIFICATIONS * 1500);
  for (let n = 0; n < NOTIFICATIONS; n++) {
    const target = received + STREAMS;
    const t0 = performance.now();
    await withTenant(database, tenantId, (tx) =>
      notify(tx, tenantId, [{ kind: 'lesson-created', params: { date: '01/09/2027', time: '10:00' }, link: '/', recipients: officeStaff(tenantId) }]),
    );
    while (received < target && performance.now() - t0 < 30_000) await new Promise((r) => setTimeout(r, 2));
    fanouts.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 500));
  }
  const during = await busy;

  console.log(
    JSON.stringify({
      engine: kind,
      streams: STREAMS,
      users: USERS,
      notifications: NOTIFICATIONS,
      fanout_ms: { p50: round(pct(fanouts, 50)), max: round(Math.max(...fanouts)) },
      others_me_ms: { idle_p99: round(pct(idle, 99)), during_p99: round(pct(during, 99)), idle_n: idle.length, during_n: during.length },
      load: { loadavg_1m: round(loadavg()[0]!), cores: cpus().length },
    }),
  );
  for (const res of responses) res.destroy();
  await app.close();
  await database.close();
  await scratch?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
