/**
 * npm run soak: a long mixed load against Frontis as a real child process on loopback, to see
 * whether it stays fast, answers without errors and keeps its memory flat over time.
 * A fixed number of clients (bounded) loop over what an office does all day: lists, the
 * calendar's week, reading and editing records, booking lessons, history, the signed-in user,
 * the odd refresh of a session. Reports throughput, p50/p99 per kind of request, every answer
 * that was not the expected one, and the server's RSS at the start and end (sampled between).
 * Options: --seconds N (600), --clients N (8), --engine pglite|postgres (pglite; postgres uses
 * a scratch database on TEST_DATABASE_URL).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { addDays } from '../domain/lessons';
import { type Answer, call, type FrontisProcess, ROOT, signIn, startFrontis } from './frontis-process';
import { scratchDatabase } from './scratch';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '600' },
    clients: { type: 'string', default: '8' },
    engine: { type: 'string', default: 'pglite' },
  },
});
const SECONDS = Number(args.seconds);
const CLIENTS = Number(args.clients);
const ENGINE = args.engine === 'postgres' ? 'postgres' : 'pglite';
if (!(SECONDS > 0) || !(CLIENTS > 0 && CLIENTS <= 64)) throw new Error('--seconds must be > 0 and --clients between 1 and 64');

type Row = Record<string, any>;

/** Resident memory of a process in MB (Linux /proc). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return line ? Math.round(Number(line.replace(/\D+/g, '')) / 1024) : Number.NaN;
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : 0);

interface World {
  base: string;
  token: string;
  refresh: string;
  teacher: number;
  room: number;
  klass: number;
  subject: number;
  type: number;
}

async function setUp(frontis: FrontisProcess): Promise<World> {
  const session = await signIn(frontis.base, ROOT.username, ROOT.password);
  const make = async (resource: string, body: Row) => {
    const res = await call(frontis.base, 'POST', `/api/${resource}`, { token: session.token, body });
    if (res.status !== 201) throw new Error(`creating ${resource}: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { data: Row }).data.id as number;
  };
  const password = 'soak-password-1';
  return {
    base: frontis.base,
    token: session.token,
    refresh: session.refresh_token,
    teacher: await make('teachers', { username: 'soak', password, confirm_password: password, first_name: 'Μαρία', last_name: 'Σταθοπούλου' }),
    room: await make('rooms', { name: 'Αίθουσα Α', capacity: 12 }),
    klass: await make('classes', { name: 'Τμήμα Α' }),
    subject: await make('subjects', { name: 'Μαθηματικά' }),
    type: await make('lesson-types', { name: 'Κανονικό', color: '#336699', entity: 'NORMAL' }),
  };
}

/** One kind of request: its share of the load and what it does (returns the answer and the status it expects). */
interface Op {
  name: string;
  weight: number;
  run(w: World, i: number): Promise<[Answer, number]>;
}

const FIRST_DAY = '2027-01-04';
let lessonsMade = 0;
const subjects: { id: number; version: number }[] = [];

const OPS: Op[] = [
  {
    name: 'list subjects',
    weight: 25,
    run: async (w) => [await call(w.base, 'GET', '/api/subjects?_start=0&_end=25&_sort=name&_order=asc', { token: w.token }), 200],
  },
  { name: 'list lessons', weight: 10, run: async (w) => [await call(w.base, 'GET', '/api/lessons?_start=0&_end=25', { token: w.token }), 200] },
  {
    name: 'calendar week',
    weight: 15,
    run: async (w) => {
      const from = addDays(FIRST_DAY, Math.floor(lessonsMade / 6) - (Math.floor(lessonsMade / 6) % 7));
      return [await call(w.base, 'GET', `/api/lessons/calendar?from=${from}&to=${addDays(from, 6)}`, { token: w.token }), 200];
    },
  },
  {
    name: 'create subject',
    weight: 10,
    run: async (w, i) => {
      const res = await call(w.base, 'POST', '/api/subjects', { token: w.token, body: { name: `Μάθημα ${i}` } });
      if (res.status === 201) subjects.push({ id: res.body.data.id, version: res.body.data.version });
      return [res, 201];
    },
  },
  {
    name: 'edit subject',
    weight: 8,
    run: async (w, i) => {
      const s = subjects[i % Math.max(1, subjects.length)];
      if (!s) return [await call(w.base, 'GET', `/api/subjects/${w.subject}`, { token: w.token }), 200];
      // Remove it from the list while in flight, so no other client edits the same version.
      subjects.splice(subjects.indexOf(s), 1);
      const res = await call(w.base, 'PATCH', `/api/subjects/${s.id}`, { token: w.token, body: { name: `Μάθημα ${i} (αλλαγή)`, version: s.version } });
      if (res.status === 200) subjects.push({ id: s.id, version: res.body.data.version });
      return [res, 200];
    },
  },
  {
    name: 'delete subject',
    weight: 3,
    run: async (w) => {
      const s = subjects.shift();
      if (!s) return [await call(w.base, 'GET', `/api/subjects/${w.subject}`, { token: w.token }), 200];
      return [await call(w.base, 'DELETE', `/api/subjects/${s.id}`, { token: w.token }), 204];
    },
  },
  {
    name: 'book lesson',
    weight: 6,
    run: async (w) => {
      const n = lessonsMade++;
      const hour = 9 + (n % 6) * 2;
      const body = {
        date: addDays(FIRST_DAY, Math.floor(n / 6)),
        start_time: `${String(hour).padStart(2, '0')}:00`,
        end_time: `${String(hour + 1).padStart(2, '0')}:30`,
        teacher_id: w.teacher,
        room_id: w.room,
        class_id: w.klass,
        subject_id: w.subject,
        lesson_type_id: w.type,
      };
      return [await call(w.base, 'POST', '/api/lessons', { token: w.token, body }), 201];
    },
  },
  { name: 'history', weight: 5, run: async (w) => [await call(w.base, 'GET', `/api/history?entity=subjects&entity_id=${w.subject}`, { token: w.token }), 200] },
  { name: 'me', weight: 17, run: async (w) => [await call(w.base, 'GET', '/me', { token: w.token }), 200] },
  {
    name: 'refresh session',
    weight: 1,
    run: async (w) => {
      const res = await call(w.base, 'POST', '/refresh-token', { body: { refresh_token: w.refresh } });
      if (res.status === 200) {
        w.refresh = res.body.refresh_token;
        w.token = res.body.token;
      }
      return [res, 200];
    },
  },
];

const TOTAL_WEIGHT = OPS.reduce((s, o) => s + o.weight, 0);
function pick(i: number): Op {
  // A fixed, evenly spread sequence (no randomness), so runs repeat.
  let x = (i * 7919) % TOTAL_WEIGHT;
  for (const op of OPS) {
    if (x < op.weight) return op;
    x -= op.weight;
  }
  return OPS[0]!;
}

async function main() {
  const dataDir = ENGINE === 'pglite' ? mkdtempSync(join(tmpdir(), 'frontis-soak-')) : undefined;
  const scratch = ENGINE === 'postgres' ? await scratchDatabase() : undefined;
  const frontis = await startFrontis(dataDir ? { DATA_DIR: dataDir } : { DATABASE_URL: scratch!.url });
  const pid = frontis.child.pid!;
  try {
    const world = await setUp(frontis);
    // The refresh op swaps the token for everyone: one refresh in flight at a time is enough.
    let refreshing = false;
    const latencies = new Map<string, number[]>(OPS.map((o) => [o.name, []]));
    const errors = new Map<string, number>();
    const rss: { at: number; mb: number }[] = [];
    const started = performance.now();
    const end = started + SECONDS * 1000;
    rss.push({ at: 0, mb: rssMb(pid) });
    const sampler = setInterval(() => rss.push({ at: Math.round((performance.now() - started) / 1000), mb: rssMb(pid) }), 15_000);
    let i = 0;
    const client = async () => {
      while (performance.now() < end) {
        let op = pick(i++);
        if (op.name === 'refresh session') {
          if (refreshing) op = OPS[0]!;
          else refreshing = true;
        }
        const t0 = performance.now();
        try {
          const [res, expected] = await op.run(world, i);
          latencies.get(op.name)!.push(performance.now() - t0);
          if (res.status !== expected) {
            const key = `${op.name}: ${res.status} ${res.body?.error?.code ?? ''}`.trim();
            errors.set(key, (errors.get(key) ?? 0) + 1);
          }
        } finally {
          if (op.name === 'refresh session') refreshing = false;
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    clearInterval(sampler);
    const elapsed = (performance.now() - started) / 1000;
    rss.push({ at: Math.round(elapsed), mb: rssMb(pid) });
    if (!frontis.alive()) throw new Error(`Frontis died during the soak:\n${frontis.output()}`);

    const all = [...latencies.values()].flat().sort((a, b) => a - b);
    const errorCount = [...errors.values()].reduce((s, n) => s + n, 0);
    console.log(`\nSoak: ${ENGINE}, ${CLIENTS} clients, ${Math.round(elapsed)} s`);
    console.log(`| Requests | Throughput | p50 | p99 | Errors | RSS at start | RSS at end | RSS min–max |`);
    console.log(`|---|---|---|---|---|---|---|---|`);
    const mbs = rss.map((r) => r.mb);
    console.log(
      `| ${all.length.toLocaleString('en')} | ${Math.round(all.length / elapsed)} req/s | ${Math.round(percentile(all, 50))} ms | ${Math.round(percentile(all, 99))} ms | ${errorCount} | ${rss[0]!.mb} MB | ${rss.at(-1)!.mb} MB | ${Math.min(...mbs)}–${Math.max(...mbs)} MB |`,
    );
    console.log('\n| Request | Count | p50 | p99 |\n|---|---|---|---|');
    for (const [name, list] of latencies) {
      const sorted = list.sort((a, b) => a - b);
      console.log(`| ${name} | ${sorted.length} | ${Math.round(percentile(sorted, 50))} ms | ${Math.round(percentile(sorted, 99))} ms |`);
    }
    if (errorCount) console.log('\nUnexpected answers:', Object.fromEntries(errors));
    console.log('\nRSS over time (s: MB):', rss.map((r) => `${r.at}: ${r.mb}`).join(', '));
    process.exitCode = errorCount ? 1 : 0;
  } finally {
    await frontis.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
