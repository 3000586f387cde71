/**
 * npm run bench: speed targets measured against a real server on loopback, the server in a
 * process of its own (this process only generates load). For each database (PGlite, then
 * PostgreSQL at TEST_DATABASE_URL):
 *  - seeds one tenant with 10,000 students (and another tenant with 3,000, so isolation is
 *    part of the work) through the import API;
 *  - measures the students list (a page of 25 with a filter, a sort and the count): the
 *    round trips and statements one request costs (the server counts them), saturated
 *    throughput (autocannon, closed loop) against a bare Fastify route in the server's process
 *    running the minimal hand-written SQL for the same answer (one statement), then p50/p99 of
 *    both offered open loop at 60% of the bare route's saturated rate (each request's latency
 *    counted from the moment it was due); prints each gap to its target;
 *  - seeds a school year of about 50,000 lessons through the series API and measures the
 *    calendar's week the same way (the week is cached until the calendar changes; the bare
 *    route keeps it too and checks the session and the revision in one statement), the week
 *    right after a change, then the time to create one weekly series for a year;
 *  - reports the server's memory (RSS);
 *  - seeds guardians, receipts and attendance marks (with the money behind them) and measures
 *    their lists the same way, beside the students list, then the analytics range and the
 *    account year one at a time and at 10 clients (bench/lists.ts);
 *  - on PGlite, times in Chromium how long a week of those lessons takes to render, and a first
 *    visit from "sign in" to the painted week;
 *  - then, with a server in the bench's own process (their seeding writes to its database
 *    directly): a 10-field custom entity with 10,000 records beside the students list
 *    (bench/entities.ts), and contracts and payments for every student with the money screens
 *    beside the students list (bench/money.ts);
 *  - before all that, the compiled server from start to a healthy /healthz (bench/client.ts).
 * Options: --only pglite|postgres, --students N, --seconds N, --series N, --browser false,
 * --rate N (open-loop rate, instead of 60% of the bare route's), --part lists (the lists of
 * bench/lists.ts and the reports only; --list names some of them), --part entities (only the custom records
 * beside the students list), --part money (only the money screens), --money false, --explain
 * (plans of the contracts list), --part overload (the students list offered beyond saturation:
 * bench/overload.ts).
 */
import autocannon from 'autocannon';
import { readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest, Agent } from 'node:http';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { timeCalendarRender } from './calendar-render';
import { timeSignInToWeek, timeStarts } from './client';
import { benchEntities, seedEntity } from './entities';
import { benchExport } from './export';
import { BENCH_WEEK, seedLessons, timeSeriesCreation, timeWeekAfterChange, WEEK_ANSWER_LIMIT_KB, weekAnswerSize } from './lessons';
import { LIST_URLS, REPORT_URLS } from './lists';
import { benchMoney } from './money';
import { benchOverload } from './overload';
import { spawnSeededServer, startSeededServer, type ServerProcess, type ServerStalls } from './server';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    students: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '10' },
    series: { type: 'string', default: '40' },
    browser: { type: 'string', default: 'true' },
    rate: { type: 'string' },
    // 'entities': only the custom entity records beside the students list; 'money': only the money screens.
    part: { type: 'string', default: 'all' },
    money: { type: 'string', default: 'true' },
    explain: { type: 'boolean', default: false },
    // With --part lists: only these lists (students,guardians,receipts,attendance,contracts,records).
    list: { type: 'string' },
  },
});
// Capacity is measured with the overload guard off (50 clients are more than it lets in at
// once, and a loaded machine's event-loop delay would refuse more); --part overload measures
// the guard itself. OVERLOAD_* set in the environment still win.
if (args.part !== 'overload') {
  for (const name of ['OVERLOAD_MAX_IN_FLIGHT', 'OVERLOAD_MAX_EVENT_LOOP_DELAY_MS', 'OVERLOAD_MAX_POOL_WAITING']) process.env[name] ??= '0';
}
const STUDENTS = Number(args.students);
const SECONDS = Number(args.seconds);
const SERIES = Number(args.series);
const WEEK_URL = `/api/lessons/calendar?from=${BENCH_WEEK.from}&to=${BENCH_WEEK.to}`;
type Kind = 'pglite' | 'postgres';
const LIST_URL = '/api/students?_start=0&_end=25&_sort=last_name,first_name&_order=asc,asc&status=ACTIVE';

/**
 * The targets: throughput at least 85% of the bare route's saturated rate, p99 under 50 ms at
 * 60% of that rate (offered open loop), at most two round trips; reports p99 under 250 ms one
 * at a time and under 1 s at 10 clients.
 */
const TARGET = {
  p99Ms: 50,
  ratio: 0.85,
  openShare: 0.6,
  roundTrips: 2,
  report: { aloneMs: 250, tenClientsMs: 1000 },
};

interface OpenLoop {
  sent: number;
  p50: number;
  p99: number;
  errors: number;
  /** How late this process sent its requests (its own event loop busy), longest and 99th percentile, in ms. */
  sendLateMaxMs: number;
  sendLateP99Ms: number;
  /** CPU time the host took from this machine meanwhile (steal, all cores), in ms; undefined where /proc/stat is not there. */
  stealMs: number | undefined;
}

/** CPU time taken by the host so far (the `steal` of /proc/stat's first line, all cores), in ms. */
function stealMs(): number | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
    return Number(fields[8]) * 10; // USER_HZ
  } catch {
    return undefined;
  }
}

/**
 * Open-loop load: request i is due at start + i / rate whatever happened to the others, and
 * its latency runs from when it was due (so a server that falls behind shows it, instead of
 * the generator slowing down with it).
 */
async function openLoop(url: string, headers: Record<string, string>, rate: number, seconds: number): Promise<OpenLoop> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  const late: number[] = [];
  let errors = 0;
  const stealBefore = stealMs();
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    let sent = 0;
    let done = 0;
    const finish = (due: number, ok: boolean) => {
      if (done >= total) return;
      latencies.push(performance.now() - due);
      if (!ok) errors++;
      if (++done === total) {
        clearTimeout(deadline);
        resolve();
      }
    };
    // A server far behind would keep the run going for minutes: what is unanswered 10 s after
    // the last request was due counts as an error, with its wait so far as its latency.
    const deadline = setTimeout(
      () => {
        const now = performance.now();
        for (let i = done; i < total; i++) {
          latencies.push(now - (t0 + (Math.min(i, sent - 1) * 1000) / rate));
          errors++;
        }
        done = total;
        resolve();
      },
      seconds * 1000 + 10_000,
    );
    const tick = () => {
      const dueNow = Math.min(total, Math.floor(((performance.now() - t0) * rate) / 1000) + 1);
      while (sent < dueNow) {
        const due = t0 + (sent * 1000) / rate;
        late.push(performance.now() - due);
        sent++;
        const req = httpRequest(url, { agent, headers }, (res) => {
          res.resume();
          res.on('end', () => finish(due, res.statusCode === 200));
        });
        req.on('error', () => finish(due, false));
        req.end();
      }
      if (sent < total && done < total) setTimeout(tick, 1);
    };
    tick();
  });
  agent.destroy();
  const stealAfter = stealMs();
  latencies.sort((a, b) => a - b);
  late.sort((a, b) => a - b);
  const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return {
    sent: total,
    p50: at(latencies, 0.5),
    p99: at(latencies, 0.99),
    errors,
    sendLateMaxMs: late.at(-1) ?? 0,
    sendLateP99Ms: at(late, 0.99),
    stealMs: stealBefore !== undefined && stealAfter !== undefined ? stealAfter - stealBefore : undefined,
  };
}

/** Waits (at most a minute) until the server, maybe still behind after an open-loop run, answers within a second again. */
async function drained(url: string, headers: Record<string, string>) {
  const until = performance.now() + 60_000;
  while (performance.now() < until) {
    const t = performance.now();
    await fetch(url, { headers }).then(
      (r) => r.arrayBuffer(),
      () => undefined,
    );
    if (performance.now() - t < 1000) return;
  }
}

/**
 * Closed loop: requests per second answered 200 (a 503 refused at once by the overload guard is
 * not served work, so it is counted apart, with the other failures).
 */
/**
 * CPU time used so far by every PostgreSQL process of this machine, in microseconds (Linux's
 * /proc; the bench's server is local), or undefined where it cannot be read.
 */
function postgresCpuMicros(): number | undefined {
  try {
    let ticks = 0;
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue; // gone meanwhile
      }
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    }
    return (ticks * 1_000_000) / 100; // USER_HZ
  } catch {
    return undefined;
  }
}

async function saturated(url: string, headers: Record<string, string>, connections: number, server?: ServerProcess) {
  const databaseBefore = server ? postgresCpuMicros() : undefined;
  const cpuBefore = await server?.cpuMicros();
  const result = await autocannon({ url, headers, connections, duration: SECONDS });
  const cpu = server && cpuBefore !== undefined ? (await server.cpuMicros()) - cpuBefore : undefined;
  const databaseAfter = databaseBefore === undefined ? undefined : postgresCpuMicros();
  const answered = result['2xx'];
  const databaseCpu = databaseBefore !== undefined && databaseAfter !== undefined ? databaseAfter - databaseBefore : undefined;
  // Per answer: the server process's CPU (on PostgreSQL, Node's share alone) and the database's.
  return {
    rps: answered / SECONDS,
    errors: result.errors + result.timeouts + result.non2xx,
    cpuPerAnswer: cpu !== undefined && answered ? cpu / answered : undefined,
    databaseCpuPerAnswer: databaseCpu !== undefined && answered ? databaseCpu / answered : undefined,
  };
}

const gap = (ok: boolean, text: string) => (ok ? 'met' : `MISSED: ${text}`);

/**
 * One measured request of Frontis against its bare route: cost, saturated throughput of both,
 * then both offered open loop at 60% of the bare route's saturated rate (or --rate).
 */
async function compare(label: string, kind: Kind, server: ServerProcess, url: string, bareUrl: string) {
  const { address, bareAddress, headers } = server;
  const probe = await fetch(address + url, { headers });
  if (!probe.ok) throw new Error(`${url} answered ${probe.status}: ${await probe.text()}`);
  const total = probe.headers.get('x-total-count');
  const answer = (await probe.json()) as Page;
  const again = await fetch(address + url, { headers });
  await again.arrayBuffer();
  const roundTrips = Number(again.headers.get('x-db-round-trips'));
  const statements = Number(again.headers.get('x-db-statements'));
  const bareProbe = await fetch(bareAddress + bareUrl);
  if (!bareProbe.ok) throw new Error(`bare ${bareUrl} answered ${bareProbe.status}`);
  const sameness = sameAnswer(answer, (await bareProbe.json()) as Page);
  const connections = kind === 'postgres' ? 50 : 10;

  await saturated(address + url, headers, connections); // warm-up
  const frontis = await saturated(address + url, headers, connections, server);
  const bare = await saturated(bareAddress + bareUrl, {}, connections, server);
  const ratio = frontis.rps / bare.rps;
  const rate = Number(args.rate ?? Math.max(1, Math.round(bare.rps * TARGET.openShare)));
  await drained(address + url, headers);
  await server.stalls();
  const open = await openLoop(address + url, headers, rate, SECONDS);
  const openStalls = await server.stalls();
  await drained(address + url, headers);
  await server.stalls();
  const bareOpen = await openLoop(bareAddress + bareUrl, {}, rate, SECONDS);
  const bareStalls = await server.stalls();
  await drained(bareAddress + bareUrl, {});
  console.log(
    `  ${label}${total ? ` (${total} rows match)` : ''}: ${roundTrips} round trips, ${statements} statements per request (bare route: 1 statement); load average ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log(
    `    saturated, ${connections} clients: Frontis ${frontis.rps.toFixed(0)} answers/s${frontis.errors ? ` (${frontis.errors} refused or failed)` : ''}, ` +
      `bare route ${bare.rps.toFixed(0)} answers/s, ratio ${(ratio * 100).toFixed(0)}%`,
  );
  if (frontis.cpuPerAnswer !== undefined && bare.cpuPerAnswer !== undefined) {
    const database =
      kind === 'postgres' && frontis.databaseCpuPerAnswer !== undefined && bare.databaseCpuPerAnswer !== undefined
        ? `; PostgreSQL's processes: Frontis ${frontis.databaseCpuPerAnswer.toFixed(0)} µs, bare route ${bare.databaseCpuPerAnswer.toFixed(0)} µs`
        : '';
    console.log(`    CPU per answer, server process: Frontis ${frontis.cpuPerAnswer.toFixed(0)} µs, bare route ${bare.cpuPerAnswer.toFixed(0)} µs${database}`);
  }
  console.log(
    `    open loop ${rate}/s (${args.rate ? '--rate' : `${TARGET.openShare * 100}% of the bare route's`}) for ${SECONDS} s: Frontis p50 ${open.p50.toFixed(1)} ms, p99 ${open.p99.toFixed(1)} ms` +
      `${open.errors ? ` (${open.errors} errors)` : ''}; bare route p50 ${bareOpen.p50.toFixed(1)} ms, p99 ${bareOpen.p99.toFixed(1)} ms`,
  );
  console.log(`    hold-ups in those open loops: Frontis ${holdUps(open, openStalls)}; bare route ${holdUps(bareOpen, bareStalls)}`);
  const checks = [
    `round trips ≤ ${TARGET.roundTrips} (${gap(roundTrips <= TARGET.roundTrips, `${roundTrips - TARGET.roundTrips} too many`)})`,
    `ratio ≥ ${TARGET.ratio * 100}% (${gap(ratio >= TARGET.ratio, `${((TARGET.ratio - ratio) * 100).toFixed(0)} points short`)})`,
    `p99 < ${TARGET.p99Ms} ms at ${rate}/s (${gap(open.p99 < TARGET.p99Ms && !open.errors, `${(open.p99 - TARGET.p99Ms).toFixed(1)} ms over`)})`,
  ];
  console.log(`    the bare route's answer: ${sameness}`);
  console.log(`    targets: ${checks.join('; ')}`);
  return { label, ratio, p99: open.p99, rate, frontis: frontis.rps, bare: bare.rps };
}

type Page = { data: Array<Record<string, unknown>>; total: number };

/**
 * Where an open loop's tail may come from besides the route itself: the load generator sending
 * late, the server's event loop held up (and how much of that was garbage collection), the host
 * taking the machine's CPU.
 */
function holdUps(open: OpenLoop, stalls: ServerStalls): string {
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  return (
    `sent late by up to ${ms(open.sendLateMaxMs)} (p99 ${ms(open.sendLateP99Ms)}), server's loop held up to ${ms(stalls.loopMaxMs)} ` +
    `(p99 ${ms(stalls.loopP99Ms)}; GC pauses up to ${ms(stalls.gcMaxMs)}, ${ms(stalls.gcTotalMs)} in all)` +
    (open.stealMs !== undefined ? `, host steal ${ms(open.stealMs)}` : '')
  );
}

/**
 * Whether the bare route answers what Frontis answers (the comparison is only fair if it
 * does): the same total, the same rows in the same order, and the same fields in each.
 */
function sameAnswer(frontis: Page, bare: Page): string {
  const ids = (p: Page) => p.data.map((r) => r.id).join(',');
  const keys = (p: Page) => new Set(p.data.flatMap((r) => Object.keys(r)));
  const missing = [...keys(frontis)].filter((k) => !keys(bare).has(k));
  const extra = [...keys(bare)].filter((k) => !keys(frontis).has(k));
  const faults = [
    frontis.total !== bare.total && `total ${bare.total} where Frontis says ${frontis.total}`,
    ids(frontis) !== ids(bare) && 'other rows or another order',
    missing.length > 0 && `without ${missing.join(', ')}`,
    extra.length > 0 && `with ${extra.join(', ')} too`,
  ].filter(Boolean);
  return faults.length ? `NOT the same (${faults.join('; ')})` : 'the same total, rows, order and fields';
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/** The reports one request at a time (count of them), then at 10 clients for the bench's seconds. */
async function reports(server: ServerProcess) {
  const { address, headers } = server;
  const runs: Array<[string, string]> = [
    ['analytics September to June', REPORT_URLS.analytics],
    ['account year', REPORT_URLS.accountYear],
  ];
  const timed = async (url: string) => {
    const t0 = performance.now();
    const res = await fetch(address + url, { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    return performance.now() - t0;
  };
  for (const [label, url] of runs) {
    const ms: number[] = [];
    for (let k = 0; k < 30; k++) ms.push(await timed(url));
    ms.sort((a, b) => a - b);
    // A report is kept until the centre's money changes: made afresh after each of 10 expenses written.
    const afresh: number[] = [];
    for (let k = 0; k < 10; k++) {
      const res = await fetch(`${address}/api/expenses`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ date: '2026-10-05', amount: 1000 + k, description: `bench ${k}` }),
      });
      if (!res.ok) throw new Error(`an expense answered ${res.status}: ${await res.text()}`);
      afresh.push(await timed(url));
    }
    afresh.sort((a, b) => a - b);
    await autocannon({ url: address + url, headers, connections: 10, duration: Math.max(2, Math.round(SECONDS / 3)) }); // warm-up
    const ten = await autocannon({ url: address + url, headers, connections: 10, duration: SECONDS });
    const errors = ten.errors + ten.timeouts + ten.non2xx;
    const alone = Math.max(percentile(ms, 99), percentile(afresh, 99));
    console.log(
      `  ${label}: one at a time (30, the first after seeding among them) p50 ${percentile(ms, 50).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms; ` +
        `made afresh after a change (10) p50 ${percentile(afresh, 50).toFixed(0)} ms, p99 ${percentile(afresh, 99).toFixed(0)} ms; ` +
        `10 clients ${ten.requests.average.toFixed(0)} req/s, p50 ${ten.latency.p50} ms, p99 ${ten.latency.p99} ms${errors ? ` (${errors} errors)` : ''}; load average ${loadavg()[0]!.toFixed(1)}`,
    );
    console.log(
      `    targets: p99 < ${TARGET.report.aloneMs} ms alone (${gap(alone < TARGET.report.aloneMs, `${(alone - TARGET.report.aloneMs).toFixed(0)} ms over`)}); ` +
        `p99 < ${TARGET.report.tenClientsMs} ms at 10 clients (${gap(ten.latency.p99 < TARGET.report.tenClientsMs && !errors, `${(ten.latency.p99 - TARGET.report.tenClientsMs).toFixed(0)} ms over`)})`,
    );
  }
}

/** Records of the custom entity in the lists part. */
const RECORDS = 10_000;

/** Guardians, receipts, attendance, contracts and custom records beside their bare routes (and the students list as the reference), then the reports. */
async function lists(kind: Kind, server: ServerProcess) {
  const seeded = await server.seedLists();
  console.log(
    `  seeded with bulk SQL in ${seeded.seconds.toFixed(1)} s: ${seeded.payments} payments, ${seeded.receipts} receipts, ${seeded.guardians} guardians, ` +
      `${seeded.marks} attendance marks over ${seeded.lessons} lessons`,
  );
  const recordsSeconds = await seedEntity(server, RECORDS);
  console.log(`  seeded ${RECORDS} records of a 10-field custom entity through the import API in ${recordsSeconds.toFixed(1)} s`);
  const all: Array<[string, string, string, string]> = [
    ['students', 'students list', LIST_URL, '/students'],
    ['guardians', 'guardians page (by name, counted, with their students)', LIST_URLS.guardians, '/guardians'],
    ['receipts', "receipts (a month's, newest first, counted)", LIST_URLS.receipts, '/receipts'],
    ['attendance', 'attendance (absences, latest lesson first, counted)', LIST_URLS.attendance, '/attendance'],
    ['contracts', "contracts (this month's unpaid, owing most first, counted, summed)", LIST_URLS.contracts, '/contracts'],
    ['records', 'custom records (one subject, by title, counted)', LIST_URLS.records, '/records'],
  ];
  const chosen = args.list?.split(',');
  const results = [];
  for (const [name, label, url, bare] of all) if (!chosen || chosen.includes(name)) results.push(await compare(label, kind, server, url, bare));
  console.log(`  lists against their bare routes (${kind}):`);
  for (const r of results) {
    console.log(
      `    ${r.label.padEnd(58)} ${(r.ratio * 100).toFixed(0).padStart(3)}% (${r.frontis.toFixed(0)} / ${r.bare.toFixed(0)} req/s); p99 ${r.p99.toFixed(1)} ms at ${r.rate}/s`,
    );
  }
  await reports(server);
}

/** Custom records and money: their seeding writes to the database, so the server runs in this process. */
async function benchInProcess(kind: Kind) {
  if (args.part !== 'entities' && args.money === 'false') return;
  const server = await startSeededServer(kind, STUDENTS, { serveClient: false });
  try {
    console.log(`  (server in the bench's process) seeded ${STUDENTS} + 3000 students in ${server.seedSeconds.toFixed(1)} s`);
    if (args.part !== 'money') await benchEntities(kind, server, SECONDS);
    if (args.part !== 'entities' && args.money !== 'false') await benchMoney(kind, server, { seconds: SECONDS, explain: args.explain });
    if (!args.part) await benchExport(kind, server);
  } finally {
    await server.close();
  }
}

async function benchKind(kind: Kind) {
  if (args.part === 'entities' || args.part === 'money') return;
  if (args.part === 'lists') {
    const server = await spawnSeededServer(kind, STUDENTS);
    try {
      console.log(`  seeded ${STUDENTS} + 3000 students in ${server.seedSeconds.toFixed(1)} s`);
      await lists(kind, server);
    } finally {
      await server.close();
    }
    return;
  }
  if (args.part === 'overload') {
    const server = await spawnSeededServer(kind, STUDENTS);
    try {
      // As many clients on both engines: the closed loop must find the server's limit, not the clients'.
      await benchOverload(server, LIST_URL, SECONDS, 50);
    } finally {
      await server.close();
    }
    return;
  }
  const browser = kind === 'pglite' && args.browser !== 'false';
  const server = await spawnSeededServer(kind, STUDENTS, { serveClient: browser });
  const { address, headers, seedSeconds } = server;
  try {
    console.log(`  seeded ${STUDENTS} + 3000 students in ${seedSeconds.toFixed(1)} s`);
    await compare('students list', kind, server, LIST_URL, '/students');

    const t0 = performance.now();
    const table = await seedLessons(address, headers);
    await server.vacuum();
    console.log(`  seeded ${table.lessons} lessons through the series API in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const size = await weekAnswerSize(address, headers, WEEK_URL);
    console.log(
      `  calendar week ${BENCH_WEEK.from} to ${BENCH_WEEK.to}: ${size.total} lessons, answer ${size.kb.toFixed(1)} KB of JSON (${size.gzippedKb.toFixed(1)} KB gzipped; limit ${WEEK_ANSWER_LIMIT_KB} KB${size.kb > WEEK_ANSWER_LIMIT_KB ? `, ${(size.kb - WEEK_ANSWER_LIMIT_KB).toFixed(1)} KB over` : ''})`,
    );
    const week = await fetch(address + WEEK_URL, { headers }).then((r) => r.text());
    // The bare route keeps the same week, as Frontis keeps it.
    await fetch(`${server.bareAddress}/week`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: week });
    await compare('calendar week', kind, server, WEEK_URL, '/week');
    const memory = await server.memoryMb();
    console.log(
      `  server memory: ${memory.rss.toFixed(0)} MB RSS (target < 600 MB on PGlite${kind === 'pglite' && memory.rss >= 600 ? `, ${(memory.rss - 600).toFixed(0)} MB over` : ''}); ` +
        `V8 heap ${memory.heap.toFixed(0)} MB, outside it ${memory.external.toFixed(0)} MB (${kind === 'pglite' ? "PGlite's WebAssembly memory, buffers" : 'buffers'})`,
    );
    const rebuilt = await timeWeekAfterChange(address, headers, table, WEEK_URL, 20);
    console.log(
      `  calendar week right after a change (built, not cached), ${rebuilt.count} in a row: p50 ${rebuilt.p50.toFixed(0)} ms, p99 ${rebuilt.p99.toFixed(0)} ms`,
    );

    const series = await timeSeriesCreation(address, headers, table, SERIES);
    console.log(
      `  creating a weekly series for the school year (${series.lessonsEach} lessons), ${series.count} in a row: p50 ${series.p50.toFixed(0)} ms, p99 ${series.p99.toFixed(0)} ms`,
    );
    await lists(kind, server);
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
    }
  } finally {
    await server.close();
  }
}

if (args.part !== 'money' && args.part !== 'overload' && args.part !== 'lists') {
  const starts = await timeStarts();
  console.log(
    `\nstart to a healthy /healthz (embedded database): compiled ${starts.compiledFresh.toFixed(0)} ms on a new data directory, ${starts.compiledRestart.toFixed(0)} ms on a restart; through tsx ${starts.tsxRestart.toFixed(0)} ms on a restart`,
  );
}

const kinds = (args.only ? [args.only] : ['pglite', 'postgres']) as Kind[];
for (const kind of kinds) {
  console.log(`\n${kind}: ${STUDENTS} students, ${SECONDS} s per run`);
  await benchKind(kind);
  if (args.part !== 'overload' && args.part !== 'lists') await benchInProcess(kind);
}
