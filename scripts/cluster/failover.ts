/**
 * `npm run cluster:failover`: brings the cluster up (cluster.ts), keeps writing payments,
 * lessons and attendance marks through HAProxy from a few clients, kills the PostgreSQL primary
 * (its keeper and its server, SIGKILL) and reports:
 *  - acknowledged writes (201, or 200 for a mark) and how many of them read back afterwards
 *    (none may be lost: the standby is synchronous, so a commit acknowledged was on both nodes;
 *    a mark is found when the lesson's roster shows that student with that status);
 *  - seconds from the kill until writes are answered again;
 *  - whether a teacher's notification stream opened before the kill heard the lessons written
 *    after it (the process's LISTEN connection re-opens by itself; a stream that ended is
 *    opened again, as a browser's EventSource does).
 * Loopback only; bounded: at most MAX_WRITES writes and LOAD_LIMIT_MS of load. Stops
 * everything at the end, also on failure.
 */
import { DEFAULT_BASE_PORT, ensurePackages, ROOT_USER, startCluster } from './cluster';

const CLIENTS = 4;
const MAX_WRITES = 3000;
const LOAD_LIMIT_MS = 120_000;
const BEFORE_KILL_MS = 5000;
const AFTER_RECOVERY_MS = 5000;
const TEACHER_PASSWORD = 'teacher-password-1';
/** Students of the class the written lessons are for: each lesson's roster, each marked once. */
const ROSTER = 6;
const MARKS = ['PRESENT', 'LATE', 'ABSENT', 'EXCUSED'] as const;

// biome-ignore lint/suspicious/noExplicitAny: answers of our own API, read field by field
type Row = Record<string, any>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function call(base: string, method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: Row | null }> {
  const headers: Record<string, string> = { 'x-tenant-id': 'demo', 'x-client-type': 'api' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Row) : null };
  } catch {
    return { status: 0, body: null };
  }
}

async function must(base: string, method: string, path: string, token: string | undefined, body: unknown, status = 201): Promise<Row> {
  const res = await call(base, method, path, token, body);
  if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body!;
}

/** The notification stream of `token`, counting the events it hears; re-opened when it ends. */
function watchStream(base: string, token: string) {
  const state = { events: 0, lastEventAt: 0, reopened: 0, closed: false };
  const controller = new AbortController();
  const loop = async () => {
    while (!state.closed) {
      try {
        const res = await fetch(`${base}/api/notifications/stream`, {
          headers: { 'x-tenant-id': 'demo', 'x-client-type': 'api', authorization: `Bearer ${token}` },
          signal: controller.signal,
        });
        const reader = res.body!.getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const text = new TextDecoder().decode(value);
          const heard = text.split('event: unread').length - 1;
          if (heard) {
            state.events += heard;
            state.lastEventAt = Date.now();
          }
        }
      } catch {
        // cut: open again, as EventSource does
      }
      if (state.closed) return;
      state.reopened++;
      await sleep(1000);
    }
  };
  void loop();
  return {
    state,
    close() {
      state.closed = true;
      controller.abort();
    },
  };
}

async function main() {
  const log = (line: string) => console.log(`[failover] ${line}`);
  ensurePackages(log);
  // A throwaway cluster in a folder of its own (not `npm run cluster`'s), removed at the end;
  // refused while another cluster holds the ports.
  const cluster = await startCluster({
    dir: process.env.CLUSTER_FAILOVER_DIR ?? '/tmp/frontis-cluster-failover',
    basePort: Number(process.env.CLUSTER_BASE_PORT ?? DEFAULT_BASE_PORT),
    log,
    fresh: true,
    removeOnStop: true,
  });
  // The clients write through HAProxy's HTTPS, whose certificate the cluster made itself: this
  // loopback drill does not check it (node's fetch takes no CA of its own).
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  let stream: ReturnType<typeof watchStream> | undefined;
  try {
    const base = cluster.base;
    const office = (await must(base, 'POST', '/login', undefined, { ...ROOT_USER, tenant: 'demo' }, 200)).token as string;
    const teacher = (
      await must(base, 'POST', '/api/teachers', office, {
        username: 'maria',
        password: TEACHER_PASSWORD,
        confirm_password: TEACHER_PASSWORD,
        first_name: 'Μαρία',
        last_name: 'Παπαδοπούλου',
      })
    ).data as Row;
    const subject = (await must(base, 'POST', '/api/subjects', office, { name: 'Φυσική', color: '#225588' })).data as Row;
    const klass = (await must(base, 'POST', '/api/classes', office, { name: 'Α΄ Λυκείου' })).data as Row;
    const category = (await must(base, 'POST', '/api/contract-categories', office, { name: 'Ετήσιο' })).data as Row;
    const student = (await must(base, 'POST', '/api/students', office, { first_name: 'Νίκος', last_name: 'Δοκιμής', class_ids: [klass.id] })).data as Row;
    const roster = [student.id as number];
    for (let k = 1; k < ROSTER; k++) {
      roster.push(
        ((await must(base, 'POST', '/api/students', office, { first_name: 'Μαθητής', last_name: `Δοκιμής ${k}`, class_ids: [klass.id] })).data as Row).id,
      );
    }
    const contract = (
      await must(base, 'POST', '/api/contracts', office, {
        student_id: student.id,
        category_id: category.id,
        start_date: '2026-09-15',
        end_date: '2027-06-30',
        register_cost: 5000,
        month_cost: 1_000_000,
        with_receipt: true,
      })
    ).data as Row;
    const maria = (await must(base, 'POST', '/login', undefined, { username: 'maria', password: TEACHER_PASSWORD, tenant: 'demo' }, 200)).token as string;
    stream = watchStream(base, maria);

    const acked: { kind: 'payments' | 'lessons'; id: number }[] = [];
    /** Marks acknowledged (200), and the (lesson, student) pairs still to mark, from lessons acknowledged. */
    const marked: { lesson: number; student: number; status: string }[] = [];
    const toMark: { lesson: number; student: number }[] = [];
    let failed = 0;
    let killedAt = 0;
    let firstFailureAt = 0;
    let recoveredAt = 0;
    let n = 0;
    const started = Date.now();
    const months = ['2026-09', '2026-10', '2026-11', '2026-12', '2027-01', '2027-02', '2027-03', '2027-04', '2027-05', '2027-06'];
    const day = (i: number) => new Date(Date.UTC(2027, 0, 1) + Math.floor(i / 12) * 86_400_000).toISOString().slice(0, 10);
    const acknowledged = () => {
      if (killedAt && firstFailureAt && !recoveredAt) recoveredAt = Date.now();
    };
    const refused = async (res: { status: number; body: Row | null }) => {
      failed++;
      if (killedAt && !firstFailureAt) firstFailureAt = Date.now();
      if (!killedAt) log(`write refused before the kill: ${res.status} ${JSON.stringify(res.body)}`);
      await sleep(200);
    };
    const writer = async () => {
      while (n < MAX_WRITES && Date.now() - started < LOAD_LIMIT_MS && !(recoveredAt && Date.now() - recoveredAt > AFTER_RECOVERY_MS)) {
        const i = n++;
        // In turn a payment, a lesson of the class, an attendance mark on a lesson written before (a payment while none waits).
        const pair = i % 3 === 2 ? toMark.shift() : undefined;
        if (pair) {
          const status = MARKS[i % MARKS.length]!;
          const res = await call(base, 'PUT', `/api/lessons/${pair.lesson}/attendance`, office, { marks: [{ student_id: pair.student, status }] });
          if (res.status === 200) {
            marked.push({ ...pair, status });
            acknowledged();
          } else await refused(res);
          continue;
        }
        const lesson = i % 3 === 1;
        // Four lessons a day at 08, 11, 14 and 17, never overlapping for the teacher or the class.
        const hour = 8 + (Math.floor(i / 3) % 4) * 3;
        const body = lesson
          ? {
              date: day(i),
              start_time: `${String(hour).padStart(2, '0')}:00`,
              end_time: `${String(hour + 1).padStart(2, '0')}:00`,
              teacher_id: teacher.id,
              subject_id: subject.id,
              class_id: klass.id,
            }
          : {
              contract_id: contract.id,
              kind: 'MONTHLY',
              month: months[i % months.length],
              amount: 100,
              method: 'CASH',
              paid_on: '2026-09-20',
            };
        const res = await call(base, 'POST', lesson ? '/api/lessons' : '/api/payments', office, body);
        if (res.status === 201) {
          const id = (res.body!.data as Row).id as number;
          acked.push({ kind: lesson ? 'lessons' : 'payments', id });
          if (lesson) for (const s of roster) toMark.push({ lesson: id, student: s });
          acknowledged();
        } else await refused(res);
      }
    };
    const writers = Array.from({ length: CLIENTS }, writer);
    await sleep(BEFORE_KILL_MS);
    const beforeKill = acked.length + marked.length;
    const eventsBeforeKill = stream.state.events;
    const killed = await cluster.killPrimary();
    killedAt = Date.now();
    log(`killed the primary (${killed}) after ${beforeKill} acknowledged writes`);
    await Promise.all(writers);
    const newPrimary = await cluster.primary();

    // Every acknowledged write, read back through the new primary.
    let found = 0;
    const missing: string[] = [];
    for (const { kind, id } of acked) {
      const res = await call(base, 'GET', `/api/${kind}/${id}`, office);
      if (res.status === 200) found++;
      else missing.push(`${kind}/${id} (${res.status})`);
    }
    // Every acknowledged mark: the lesson's roster shows that student with that status.
    let marksFound = 0;
    const byLesson = new Map<number, typeof marked>();
    for (const m of marked) byLesson.set(m.lesson, [...(byLesson.get(m.lesson) ?? []), m]);
    for (const [lesson, marks] of byLesson) {
      const res = await call(base, 'GET', `/api/lessons/${lesson}/attendance`, office);
      const lines = ((res.body?.data as Row | undefined)?.students ?? []) as Row[];
      for (const m of marks) {
        const line = lines.find((l) => l.student_id === m.student);
        if (line?.mark?.status === m.status) marksFound++;
        else missing.push(`attendance ${lesson}/${m.student} (${res.status}, ${line?.mark?.status ?? 'no mark'})`);
      }
    }
    // Every acknowledged payment has its receipt, and each series is numbered 1..N without a
    // gap or a repeat (a receipt is issued in its payment's transaction, so a write lost or
    // rolled back in the failover leaves no hole either).
    const receipts: Row[] = [];
    for (let start = 0; ; start += 200) {
      const page = ((await call(base, 'GET', `/api/receipts?_start=${start}&_end=${start + 200}`, office)).body?.data ?? []) as Row[];
      receipts.push(...page);
      if (page.length < 200) break;
    }
    const receiptOf = new Set(receipts.flatMap((r) => r.payment_ids as number[]));
    const withoutReceipt = acked.filter((a) => a.kind === 'payments' && !receiptOf.has(a.id)).length;
    const bySeries = new Map<string, number[]>();
    for (const r of receipts) bySeries.set(String(r.series), [...(bySeries.get(String(r.series)) ?? []), Number(r.number)]);
    const gapless = [...bySeries.values()].every((numbers) => numbers.sort((a, b) => a - b).every((number, i) => number === i + 1));

    // One more lesson after everything: the stream must hear of it.
    const eventsBeforeLast = stream.state.events;
    await must(base, 'POST', '/api/lessons', office, {
      date: '2027-12-01',
      start_time: '10:00',
      end_time: '11:00',
      teacher_id: teacher.id,
      subject_id: subject.id,
    });
    const deadline = Date.now() + 10_000;
    while (stream.state.events === eventsBeforeLast && Date.now() < deadline) await sleep(100);

    const seconds = (ms: number) => (ms / 1000).toFixed(1);
    console.log('\n=== failover result ===');
    const payments = acked.filter((a) => a.kind === 'payments').length;
    const all = acked.length + marked.length;
    console.log(
      `writes offered: ${n}; acknowledged: ${all} (${payments} payments, ${acked.length - payments} lessons, ${marked.length} attendance marks; ${beforeKill} before the kill); refused or failed: ${failed}`,
    );
    console.log(
      `acknowledged writes read back afterwards: ${found + marksFound} of ${all} (marks ${marksFound} of ${marked.length}); lost: ${all - found - marksFound}` +
        `${missing.length ? ` (${missing.slice(0, 10).join(', ')})` : ''}`,
    );
    console.log(
      `receipts: ${receipts.length} in ${bySeries.size} series; acknowledged payments without their receipt: ${withoutReceipt}; each series numbered 1..N without a gap or a repeat: ${gapless ? 'yes' : 'NO'}`,
    );
    console.log(`primary killed: ${killed}; new primary: ${newPrimary?.name ?? 'none'}`);
    console.log(
      recoveredAt
        ? `service answering writes again ${seconds(recoveredAt - killedAt)} s after the kill${firstFailureAt ? ` (first failure ${seconds(firstFailureAt - killedAt)} s after it)` : ' (no write failed)'}`
        : 'service did NOT answer writes again within the load window',
    );
    console.log(
      `notification stream: ${eventsBeforeKill} events before the kill, ${stream.state.events} in all; re-opened ${stream.state.reopened} time(s); heard the lesson written after the failover: ${stream.state.events > eventsBeforeLast ? 'yes' : 'NO'}`,
    );
    if (all - found - marksFound > 0 || !recoveredAt || withoutReceipt > 0 || !gapless) process.exitCode = 1;
  } finally {
    stream?.close();
    await cluster.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
