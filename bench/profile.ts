/**
 * Where one students-list request spends its time: seeds like npm run bench, then times
 * sequential requests (wall time against the time the driver spent waiting on SQL), then
 * loads the server with autocannon in a child process so that `node --cpu-prof` sees only the
 * server. Run: node --import tsx --cpu-prof --cpu-prof-dir=/tmp/prof bench/profile.ts
 * Options: --only pglite|postgres, --students N, --seconds N, --connections N, --url U, --records N
 * (seeds N records of the bench's custom entity first: --url with RECORDS_URL of bench/entities.ts),
 * --lists (seeds the guardians, receipts, attendance and money of bench/lists.ts first).
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { inProcess, seedEntity } from './entities';
import { seedLists } from './lists';
import { startSeededServer } from './server';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string', default: 'postgres' },
    students: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string' },
    records: { type: 'string', default: '0' },
    lists: { type: 'boolean', default: false },
    url: { type: 'string', default: '/api/students?_start=0&_end=25&_sort=last_name,first_name&_order=asc,asc&status=ACTIVE' },
  },
});
const kind = args.only as 'pglite' | 'postgres';
const server = await startSeededServer(kind, Number(args.students));
const { address, headers, close } = server;
try {
  if (args.lists) await seedLists(server.database);
  if (Number(args.records)) await seedEntity(inProcess(server), Number(args.records));
  // Time spent waiting on the driver (PostgreSQL only: pg.Client.prototype.query).
  let sqlMs = 0;
  let statements = 0;
  if (kind === 'postgres') {
    const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
    const query = proto.query;
    proto.query = function (this: unknown, ...a: unknown[]) {
      const t = performance.now();
      statements++;
      const out = query.apply(this, a);
      if (out && typeof (out as Promise<unknown>).then === 'function') {
        return (out as Promise<unknown>).finally(() => (sqlMs += performance.now() - t));
      }
      return out;
    };
  }
  for (const [path, h] of [
    [args.url, headers],
    ['/api/mydata', headers],
    ['/healthz', {}],
  ] as const) {
    for (let i = 0; i < 50; i++) await fetch(address + path, { headers: h }).then((r) => r.arrayBuffer());
    sqlMs = 0;
    statements = 0;
    const n = 200;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const r = await fetch(address + path, { headers: h });
      await r.arrayBuffer();
      if (!r.ok) throw new Error(`${path}: ${r.status}`);
    }
    const wall = (performance.now() - t0) / n;
    console.log(`${path.slice(0, 40).padEnd(40)} ${wall.toFixed(2)} ms/request, ${(sqlMs / n).toFixed(2)} ms in ${(statements / n).toFixed(1)} statements`);
  }

  const connections = args.connections ?? (kind === 'postgres' ? '50' : '10');
  const hflags = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]);
  await new Promise<void>((resolve, reject) => {
    const child = spawn('node_modules/.bin/autocannon', ['-c', connections, '-d', args.seconds!, ...hflags, address + args.url], { stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`autocannon ${code}`))));
  });
} finally {
  await close();
}
