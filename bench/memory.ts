/**
 * Where the server's memory goes on PGlite: seeds like npm run bench (10,000 + 3,000 students,
 * then a school year of lessons through the series API, then VACUUM ANALYZE, then the week
 * asked 200 times) with the server in this process, and after each step prints the RSS, V8's
 * heap, the memory outside it, PGlite's WebAssembly memory and the size of its in-memory files
 * (and of the WAL among them). Run: node --expose-gc --import tsx bench/memory.ts [--students N]
 */
import { sql } from 'drizzle-orm';
import { parseArgs } from 'node:util';
import { queryRows } from '../server/db/statements';
import { BENCH_WEEK, seedLessons } from './lessons';
import { startSeededServer } from './server';
import type { SeededServer } from './targets';

const { values: args } = parseArgs({ options: { students: { type: 'string', default: '10000' } } });

type Stat = { mode: number; size: number };
interface EmscriptenFs {
  readdir(path: string): string[];
  stat(path: string): Stat;
  isDir(mode: number): boolean;
  lookupPath(path: string): { node: { contents?: { length: number } } };
}
interface PgliteModule {
  FS: EmscriptenFs;
  HEAPU8: Uint8Array;
  ENV: Record<string, string>;
}

const mb = (n: number) => (n / 1024 / 1024).toFixed(0);

/** Bytes the in-memory files hold (their allocated capacity), and the WAL's share. */
function filesBytes(fs: EmscriptenFs, dir: string) {
  let total = 0;
  let wal = 0;
  const walk = (path: string) => {
    for (const name of fs.readdir(path)) {
      if (name === '.' || name === '..') continue;
      const full = `${path}/${name}`;
      const stat = fs.stat(full);
      if (fs.isDir(stat.mode)) walk(full);
      else {
        const bytes = fs.lookupPath(full).node.contents?.length ?? stat.size;
        total += bytes;
        if (full.includes('/pg_wal/')) wal += bytes;
      }
    }
  };
  walk(dir);
  return { total, wal };
}

function report(label: string, server: SeededServer) {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  const mod = (server.database.pglite as unknown as { Module: PgliteModule }).Module;
  const files = filesBytes(mod.FS, mod.ENV.PGDATA!);
  console.log(
    `${label}: RSS ${mb(m.rss)} MB; V8 heap ${mb(m.heapTotal)} MB; outside it ${mb(m.external)} MB: ` +
      `WebAssembly memory ${mb(mod.HEAPU8.length)} MB, files ${mb(files.total)} MB (WAL ${mb(files.wal)} MB)`,
  );
}

const server = await startSeededServer('pglite', Number(args.students));
try {
  report('students seeded', server);
  await seedLessons(server.address, server.headers);
  report('lessons seeded', server);
  await queryRows(server.database.db, sql`vacuum analyze`);
  report('after VACUUM ANALYZE', server);
  const url = `${server.address}/api/lessons/calendar?from=${BENCH_WEEK.from}&to=${BENCH_WEEK.to}`;
  for (let i = 0; i < 200; i++) await fetch(url, { headers: server.headers }).then((r) => r.arrayBuffer());
  report('the week asked 200 times', server);
} finally {
  await server.close();
}
