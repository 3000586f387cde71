/**
 * npm run bench: speed targets of PRODUCT.md section 9, measured with autocannon against a real
 * server on loopback. For each database (PGlite, then PostgreSQL at TEST_DATABASE_URL):
 *  - seeds one tenant with 10,000 students (and another tenant with 3,000, so isolation is
 *    part of the work) through the import API;
 *  - measures the students list (a page of 25 with a filter, a sort and the count) through
 *    Frontis, and a bare Fastify route that replays the very SQL Frontis ran for that page
 *    (captured from the driver), with no framework around it;
 *  - prints req/s, p50 and p99 and the ratio to the bare route.
 * Options: --only pglite|postgres, --students N, --seconds N.
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { parseArgs } from 'node:util';
import { captureStatements, replay, type Statement } from './capture';
import { startSeededServer } from './server';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    students: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '10' },
  },
});
const STUDENTS = Number(args.students);
const SECONDS = Number(args.seconds);
const LIST_URL = '/api/students?_start=0&_end=25&_sort=last_name,first_name&_order=asc,asc&status=ACTIVE';

interface Measured {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(name: string, url: string, headers: Record<string, string>, connections: number): Promise<Measured> {
  const result = await autocannon({ url, headers, connections, duration: SECONDS });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors };
}

async function benchKind(kind: 'pglite' | 'postgres') {
  const connections = kind === 'postgres' ? 50 : 10;
  const target = kind === 'postgres' ? 50 : 100;
  const { database, address, headers, seedSeconds, close } = await startSeededServer(kind, STUDENTS);
  try {
    console.log(`  seeded ${STUDENTS} + 3000 students in ${seedSeconds.toFixed(1)} s`);

    // The SQL Frontis runs for one list page (session check, tenant, page, labels).
    const statements: Statement[] = await captureStatements(database, async () => {
      const res = await fetch(address + LIST_URL, { headers });
      if (!res.ok) throw new Error(`list answered ${res.status}: ${await res.text()}`);
    });

    const bare = Fastify({ logger: false });
    bare.get('/bare', async () => replay(database, statements));
    const bareAddress = await bare.listen({ port: 0, host: '127.0.0.1' });

    // Warm both up, then measure.
    await measure('warm-up', address + LIST_URL, headers, connections);
    const framework = await measure(`frontis students list (${kind})`, address + LIST_URL, headers, connections);
    const raw = await measure(`bare route, same ${statements.length} statements (${kind})`, bareAddress + '/bare', {}, connections);
    for (const m of [framework, raw]) {
      console.log(
        `  ${m.name.padEnd(48)} ${m.rps.toFixed(0).padStart(6)} req/s  p50 ${String(m.p50).padStart(4)} ms  p99 ${String(m.p99).padStart(4)} ms` +
          (m.errors ? `  (${m.errors} errors)` : ''),
      );
    }
    const ratio = framework.rps / raw.rps;
    console.log(
      `  ratio to bare: ${(ratio * 100).toFixed(0)}% (target ≥ 70%); p99 ${framework.p99} ms with ${connections} clients (target < ${target} ms)`,
    );
    await bare.close();
  } finally {
    await close();
  }
}

const kinds = (args.only ? [args.only] : ['pglite', 'postgres']) as Array<'pglite' | 'postgres'>;
for (const kind of kinds) {
  console.log(`\n${kind}: ${STUDENTS} students, ${SECONDS} s per run`);
  await benchKind(kind);
}
