/**
 * npm run bench -- --part overload: the students list offered beyond saturation. First its
 * closed-loop saturated rate (autocannon), then an open loop at OVERLOAD_FACTOR times that
 * rate for the bench's seconds (loopback only, bounded in count and time): the share answered
 * (200), the share refused at once (503 with Retry-After, server/plugins/overload.ts), other
 * failures, and the answered p50/p99 counted from when each request was due. Run once with the
 * defaults and once with OVERLOAD_MAX_IN_FLIGHT=0 OVERLOAD_MAX_EVENT_LOOP_DELAY_MS=0
 * OVERLOAD_MAX_POOL_WAITING=0 (no shedding: everything queues) to compare.
 */
import autocannon from 'autocannon';
import { Agent, request as httpRequest } from 'node:http';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { ServerProcess } from './server';

export const OVERLOAD_FACTOR = 2;
/** Whatever is unanswered this long after the last request was due counts as failed. */
const GRACE_MS = 10_000;

interface Offered {
  sent: number;
  answered: number;
  refused: number;
  retryAfter: boolean;
  failed: number;
  p50: number;
  p99: number;
}

async function offer(url: string, headers: Record<string, string>, rate: number, seconds: number): Promise<Offered> {
  const agent = new Agent({ keepAlive: true, maxSockets: 2048 });
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  const out = { answered: 0, refused: 0, failed: 0, retryAfter: true };
  let settled = 0;
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    let sent = 0;
    const finish = (due: number, status: number, retryAfter: boolean) => {
      if (settled >= total) return;
      settled++;
      if (status === 200) {
        out.answered++;
        latencies.push(performance.now() - due);
      } else if (status === 503) {
        out.refused++;
        out.retryAfter &&= retryAfter;
      } else out.failed++;
      if (settled === total) {
        clearTimeout(deadline);
        resolve();
      }
    };
    const deadline = setTimeout(
      () => {
        out.failed += total - settled;
        settled = total;
        resolve();
      },
      seconds * 1000 + GRACE_MS,
    );
    const tick = () => {
      const dueNow = Math.min(total, Math.floor(((performance.now() - t0) * rate) / 1000) + 1);
      while (sent < dueNow) {
        const due = t0 + (sent * 1000) / rate;
        sent++;
        const req = httpRequest(url, { agent, headers }, (res) => {
          res.resume();
          res.on('end', () => finish(due, res.statusCode ?? 0, res.headers['retry-after'] !== undefined));
        });
        req.on('error', () => finish(due, 0, false));
        req.end();
      }
      if (sent < total && settled < total) setTimeout(tick, 1);
    };
    tick();
  });
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { sent: total, ...out, p50: at(0.5), p99: at(0.99) };
}

export async function benchOverload(server: ServerProcess, url: string, seconds: number, connections: number) {
  const { address, headers } = server;
  const shedding = process.env.OVERLOAD_MAX_IN_FLIGHT === '0' ? 'off (OVERLOAD_MAX_IN_FLIGHT=0 …)' : 'on (defaults or OVERLOAD_* settings)';
  await autocannon({ url: address + url, headers, connections, duration: Math.min(seconds, 5) }); // warm-up
  const closed = await autocannon({ url: address + url, headers, connections, duration: seconds });
  // What it serves, not what it refuses: with shedding on, some of the closed loop's answers are 503s.
  const served = closed['2xx'] / seconds;
  const rate = Math.round(served * OVERLOAD_FACTOR);
  const load = loadavg()[0]!.toFixed(1);
  const r = await offer(address + url, headers, rate, seconds);
  const pct = (n: number) => `${((n / r.sent) * 100).toFixed(1)}%`;
  console.log(`  students list beyond saturation, shedding ${shedding}; machine load average ${load} (shared: a relative figure)`);
  console.log(`    closed loop, ${connections} clients: ${served.toFixed(0)} answers 200 per second (${closed.non2xx} other answers in ${seconds} s)`);
  console.log(
    `    open loop at ${OVERLOAD_FACTOR}x that (${rate}/s) for ${seconds} s, ${r.sent} requests: answered ${pct(r.answered)}, refused 503 ${pct(r.refused)}` +
      `${r.refused ? (r.retryAfter ? ' (all with Retry-After)' : ' (SOME WITHOUT Retry-After)') : ''}, failed or unanswered ${pct(r.failed)}; ` +
      `answered p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms`,
  );
}
