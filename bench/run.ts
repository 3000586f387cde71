/**
 * npm run bench: speed targets measured with autocannon against a real
 * server on loopback. For each database (PGlite, then PostgreSQL at TEST_DATABASE_URL):
 *  - seeds one tenant with 10,000 students (and another tenant with 3,000, so isolation is
 *    part of the work) through the import API;
 *  - measures the students list (a page of 25 with a filter, a sort and the count) through
 *    Frontis, and a bare Fastify route that replays the very SQL Frontis ran for that page
 *    (captured from the driver), with no framework around it;
 *  - prints req/s, p50 and p99 and the ratio to the bare route;
 *  - seeds a school year of about 50,000 lessons through the series API and measures the
 *    calendar's week query the same way (the week is cached until the calendar changes), the
 *    week right after a change, then the time to create one weekly series for a year;
 *  - on PGlite, times in Chromium how long a week of those lessons takes to render.
 *  - defines a 10-field custom entity, imports 10,000 records, and measures a filtered,
 *    sorted, counted page of them beside the students list (bench/entities.ts).
 *  - seeds contracts and payments for every student and measures the money screens beside the
 *    students list (bench/money.ts).
 * Options: --only pglite|postgres, --students N, --seconds N, --series N, --browser false,
 * --part entities (the students list and custom records only), --money false, --explain.
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { parseArgs } from 'node:util';
import { captureStatements, replay, type Statement } from './capture';
import { sql } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import { timeCalendarRender } from './calendar-render';
import { rss, timeSignInToWeek, timeStarts } from './client';
import { benchEntities } from './entities';
import { BENCH_WEEK, seedLessons, timeSeriesCreation, timeWeekAfterChange, WEEK_ANSWER_LIMIT_KB, weekAnswerSize } from './lessons';
import { benchMoney } from './money';
import { startSeededServer, type SeededServer } from './server';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    students: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '10' },
    series: { type: 'string', default: '40' },
    browser: { type: 'string', default: 'true' },
    // 'entities': only the students list beside the custom entity records (no lessons, no browser).
    part: { type: 'string', default: 'all' },
    money: { type: 'string', default: 'true' },
    explain: { type: 'boolean', default: false },
  },
});
const STUDENTS = Number(args.students);
const SECONDS = Number(args.seconds);
const SERIES = Number(args.series);
const WEEK_URL = `/api/lessons/calendar?from=${BENCH_WEEK.from}&to=${BENCH_WEEK.to}`;
type Kind = 'pglite' | 'postgres';
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

/** Frontis against a bare Fastify route replaying the SQL Frontis ran for `url`. */
async function compare(label: string, kind: Kind, database: SeededServer['database'], address: string, url: string, headers: Record<string, string>) {
  const connections = kind === 'postgres' ? 50 : 10;
  const target = kind === 'postgres' ? 50 : 100;
  // The SQL Frontis runs for one request (session check, tenant, page, labels).
  const statements: Statement[] = await captureStatements(database, async () => {
    const res = await fetch(address + url, { headers });
    if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  });
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => replay(database, statements));
  const bareAddress = await bare.listen({ port: 0, host: '127.0.0.1' });
  try {
    // Warm both up, then measure.
    await measure('warm-up', address + url, headers, connections);
    const framework = await measure(`frontis ${label} (${kind})`, address + url, headers, connections);
    const raw = await measure(`bare route, same ${statements.length} statements (${kind})`, `${bareAddress}/bare`, {}, connections);
    for (const m of [framework, raw]) {
      console.log(
        `  ${m.name.padEnd(48)} ${m.rps.toFixed(0).padStart(6)} req/s  p50 ${String(m.p50).padStart(4)} ms  p99 ${String(m.p99).padStart(4)} ms` +
          (m.errors ? `  (${m.errors} errors)` : ''),
      );
    }
    const ratio = framework.rps / raw.rps;
    console.log(`  ratio to bare: ${(ratio * 100).toFixed(0)}% (target ≥ 70%); p99 ${framework.p99} ms with ${connections} clients (target < ${target} ms)`);
  } finally {
    await bare.close();
  }
}

async function benchKind(kind: Kind) {
  const browser = kind === 'pglite' && args.browser !== 'false' && args.part !== 'entities';
  const server = await startSeededServer(kind, STUDENTS, { serveClient: browser });
  const { database, address, headers, seedSeconds, close } = server;
  try {
    console.log(`  seeded ${STUDENTS} + 3000 students in ${seedSeconds.toFixed(1)} s`);
    if (args.part !== 'entities') await compare('students list', kind, database, address, LIST_URL, headers);
    // A filtered, sorted, counted page of 10,000 custom records against the students list.
    await benchEntities(kind, server, SECONDS);
    if (args.part === 'entities') return;

    const t0 = performance.now();
    const table = await seedLessons(address, headers);
    await database.db.execute(sql`vacuum analyze`);
    console.log(`  seeded ${table.lessons} lessons through the series API in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const week = await weekAnswerSize(address, headers, WEEK_URL);
    console.log(
      `  calendar week ${BENCH_WEEK.from} to ${BENCH_WEEK.to}: ${week.total} lessons, answer ${week.kb.toFixed(1)} KB of JSON (${week.gzippedKb.toFixed(1)} KB gzipped; limit ${WEEK_ANSWER_LIMIT_KB} KB${week.kb > WEEK_ANSWER_LIMIT_KB ? `, ${(week.kb - WEEK_ANSWER_LIMIT_KB).toFixed(1)} KB over` : ''})`,
    );
    console.log(
      `  RSS of the server's process with ${STUDENTS} + 3000 students and ${table.lessons} lessons: ${rss()}${kind === 'pglite' ? ' (target < 600 MB)' : ''}`,
    );
    await compare('calendar week', kind, database, address, WEEK_URL, headers);
    const rebuilt = await timeWeekAfterChange(address, headers, table, WEEK_URL, 20);
    console.log(
      `  calendar week right after a change (built, not cached), ${rebuilt.count} in a row: p50 ${rebuilt.p50.toFixed(0)} ms, p99 ${rebuilt.p99.toFixed(0)} ms`,
    );

    const series = await timeSeriesCreation(address, headers, table, SERIES);
    console.log(
      `  creating a weekly series for the school year (${series.lessonsEach} lessons), ${series.count} in a row: p50 ${series.p50.toFixed(0)} ms, p99 ${series.p99.toFixed(0)} ms`,
    );
    // Contracts, payments, the account and analytics beside the students list (bench/money.ts).
    if (args.money !== 'false') await benchMoney(kind, server, { seconds: SECONDS, explain: args.explain });
    if (browser) {
      const render = await timeCalendarRender(
        address.replace('127.0.0.1', 'demo.localhost'),
        { username: 'root', password: 'root-password-1' },
        BENCH_WEEK.from,
      );
      console.log(
        `  Chromium: a week of ${render.events} lessons rendered in p50 ${render.p50.toFixed(0)} ms, max ${render.max.toFixed(0)} ms over ${render.runs} runs (target < 300 ms)`,
      );
      const signIn = await timeSignInToWeek(address.replace('127.0.0.1', 'demo.localhost'), { username: 'root', password: 'root-password-1' }, BENCH_WEEK.from);
      console.log(
        `  Chromium, first visit: "sign in" to a painted week of ${signIn.lessons} lessons p50 ${signIn.p50.toFixed(0)} ms, max ${signIn.max.toFixed(0)} ms over ${signIn.runs} runs (target < 1000 ms); ${(signIn.jsTransferred / 1024).toFixed(0)} KB of JavaScript transferred`,
      );
      console.log(`  RSS of the server's process after the measurements: ${rss()}`);
    }
  } finally {
    await close();
  }
}

const starts = await timeStarts();
console.log(
  `\nstart to a healthy /healthz (embedded database): compiled ${starts.compiledFresh.toFixed(0)} ms on a new data directory, ${starts.compiledRestart.toFixed(0)} ms on a restart; through tsx ${starts.tsxRestart.toFixed(0)} ms on a restart`,
);

const kinds = (args.only ? [args.only] : ['pglite', 'postgres']) as Kind[];
for (const kind of kinds) {
  console.log(`\n${kind}: ${STUDENTS} students, ${SECONDS} s per run`);
  await benchKind(kind);
}
