/**
 * The open-loop load generator: requests sent at a fixed rate whatever the server does, each
 * request's latency counted from when it was due. It runs in a process of its own, started
 * afresh for each run: in the bench's own process, the heap left by the closed-loop runs
 * (autocannon's) made garbage collection pauses of 15–30 ms there, and every response that
 * arrived during one was counted that much late, as if the server had been slow.
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { ServerStalls } from './server';

interface OpenLoop {
  sent: number;
  p50: number;
  p99: number;
  errors: number;
  /** Answered 200, and the p50 and p99 of those alone (counted from when each was due), in ms. */
  answered: number;
  answeredP50: number;
  answeredP99: number;
  /** Of those refused with 503, how many came without a Retry-After. */
  refusedWithoutRetryAfter: number;
  /** What the others got instead of a 200: a status (503: refused), a socket error's code, or "unanswered" (10 s after the last was due). */
  failures: Record<string, number>;
  /** How late the generator sent its requests (its own event loop busy), longest and 99th percentile, in ms. */
  sendLateMaxMs: number;
  sendLateP99Ms: number;
  /** The generator's own longest garbage collection pause, in ms. */
  generatorGcMaxMs: number;
  /**
   * When the slowest 1% were due: in how many of the run's 100-ms windows, and the window with
   * most of them (its start, in s from the run's start). Few windows mean the tail is one
   * hold-up (something stopped everything at once); many mean it is spread over the run.
   */
  slowest: { count: number; windows: number; busiestAtS: number; busiestCount: number };
  /** When the first request was due, in ms since the epoch (to place the server's collections in the run). */
  startedAt: number;
  /** CPU time the host took from this machine meanwhile (steal, all cores), in ms; undefined where /proc/stat is not there. */
  stealMs: number | undefined;
}

type Loop = Omit<OpenLoop, 'stealMs'>;

/** CPU time taken by the host so far (the `steal` of /proc/stat's first line, all cores), in ms. */
function stealMs(): number | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
    return Number(fields[8]) * 10; // USER_HZ
  } catch {
    return undefined;
  }
}

/** Offers `rate` requests per second to `url` for `seconds`, from a generator process of its own. */
export async function openLoop(url: string, headers: Record<string, string>, rate: number, seconds: number): Promise<OpenLoop> {
  const child = fork(fileURLToPath(import.meta.url), ['--generate'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const stealBefore = stealMs();
  const result = await new Promise<Loop>((resolve, reject) => {
    child.once('message', (message: Loop | { error: string }) => ('error' in message ? reject(new Error(message.error)) : resolve(message)));
    child.once('exit', (code) => reject(new Error(`the load generator exited with ${code}`)));
    child.send({ url, headers, rate, seconds });
  });
  const stealAfter = stealMs();
  child.disconnect();
  return { ...result, stealMs: stealBefore !== undefined && stealAfter !== undefined ? stealAfter - stealBefore : undefined };
}

/**
 * Where an open loop's tail may come from besides the route itself: the load generator sending
 * late, the server's event loop held up (and how much of that was garbage collection), the host
 * taking the machine's CPU.
 */
export function holdUps(open: OpenLoop, stalls: ServerStalls): string {
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  return (
    `sent late by up to ${ms(open.sendLateMaxMs)} (p99 ${ms(open.sendLateP99Ms)}; the generator's GC pauses up to ${ms(open.generatorGcMaxMs)}), server's loop held up to ${ms(stalls.loopMaxMs)} ` +
    `(p99 ${ms(stalls.loopP99Ms)}; GC pauses up to ${ms(stalls.gcMaxMs)}, ${ms(stalls.gcTotalMs)} in all; ${fullCollections(open, stalls)})` +
    (open.stealMs !== undefined ? `, host steal ${ms(open.stealMs)}` : '') +
    `; the slowest 1% (${open.slowest.count}) due in ${open.slowest.windows} of its 100-ms windows, ${open.slowest.busiestCount} from ${open.slowest.busiestAtS.toFixed(1)} s`
  );
}

/** The server's full collections during the run, by when they ended (s from the run's start). */
function fullCollections(open: OpenLoop, stalls: ServerStalls): string {
  const during = stalls.majorGcAt.map((at) => (at - open.startedAt) / 1000).filter((s) => s >= 0);
  return during.length ? `full collections ended at ${during.map((s) => `${s.toFixed(1)} s`).join(', ')}` : 'no full collection';
}

/**
 * Request i is due at start + i / rate whatever happened to the others, and its latency runs
 * from when it was due (so a server that falls behind shows it, instead of the generator
 * slowing down with it).
 */
async function generate(url: string, headers: Record<string, string>, rate: number, seconds: number): Promise<Loop> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
  const total = Math.round(rate * seconds);
  const latencies = new Float64Array(total);
  const answeredLatencies = new Float64Array(total);
  const late = new Float64Array(total);
  const dueAt = new Float64Array(total); // when each request was due, in ms from the start, in the order of latencies
  let errors = 0;
  let answered = 0;
  let refusedWithoutRetryAfter = 0;
  const failures: Record<string, number> = {};
  const fail = (why: string) => {
    errors++;
    failures[why] = (failures[why] ?? 0) + 1;
  };
  let gcMax = 0;
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMax = Math.max(gcMax, entry.duration);
  });
  gc.observe({ entryTypes: ['gc'] });
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    let sent = 0;
    let done = 0;
    const finish = (due: number, status: number | string, retryAfter = false) => {
      if (done >= total) return;
      const latency = performance.now() - due;
      latencies[done] = latency;
      dueAt[done] = due - t0;
      if (status === 200) answeredLatencies[answered++] = latency;
      else {
        fail(String(status));
        if (status === 503 && !retryAfter) refusedWithoutRetryAfter++;
      }
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
          dueAt[i] = (Math.min(i, sent - 1) * 1000) / rate;
          latencies[i] = now - (t0 + dueAt[i]!);
          fail('unanswered');
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
        late[sent] = performance.now() - due;
        sent++;
        const req = httpRequest(url, { agent, headers }, (res) => {
          res.resume();
          res.on('end', () => finish(due, res.statusCode ?? 0, res.headers['retry-after'] !== undefined));
        });
        req.on('error', (error: NodeJS.ErrnoException) => finish(due, error.code ?? error.message));
        req.end();
      }
      if (sent < total && done < total) setTimeout(tick, 1);
    };
    tick();
  });
  gc.disconnect();
  agent.destroy();
  const slowest = whenSlowest(latencies, dueAt);
  latencies.sort();
  late.sort();
  const answeredSorted = answeredLatencies.subarray(0, answered).sort();
  const at = (sorted: Float64Array, q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return {
    sent: total,
    p50: at(latencies, 0.5),
    p99: at(latencies, 0.99),
    errors,
    answered,
    answeredP50: at(answeredSorted, 0.5),
    answeredP99: at(answeredSorted, 0.99),
    refusedWithoutRetryAfter,
    failures,
    sendLateMaxMs: late.at(-1) ?? 0,
    sendLateP99Ms: at(late, 0.99),
    generatorGcMaxMs: gcMax,
    slowest,
    startedAt: performance.timeOrigin + t0,
  };
}

/** Where the slowest 1% of `latencies` were due (`dueAt`, the same order), by 100-ms window. */
function whenSlowest(latencies: Float64Array, dueAt: Float64Array): OpenLoop['slowest'] {
  const order = [...latencies.keys()].sort((a, b) => latencies[b]! - latencies[a]!);
  const count = Math.max(1, Math.floor(latencies.length / 100));
  const byWindow = new Map<number, number>();
  for (const i of order.slice(0, count)) {
    const window = Math.floor(dueAt[i]! / 100);
    byWindow.set(window, (byWindow.get(window) ?? 0) + 1);
  }
  const [busiest, busiestCount] = [...byWindow].reduce((a, b) => (b[1] > a[1] ? b : a), [0, 0]);
  return { count, windows: byWindow.size, busiestAtS: busiest / 10, busiestCount };
}

// The generator process itself (forked by openLoop).
if (process.argv[2] === '--generate' && process.send) {
  process.once('message', (job: { url: string; headers: Record<string, string>; rate: number; seconds: number }) => {
    generate(job.url, job.headers, job.rate, job.seconds).then(
      (result) => process.send!(result, () => process.exit(0)),
      (error: unknown) => process.send!({ error: String(error) }, () => process.exit(1)),
    );
  });
}
