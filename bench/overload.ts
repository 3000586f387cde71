/**
 * npm run bench -- --part overload: the students list offered beyond saturation. First its
 * closed-loop saturated rate (autocannon), then an open loop at OVERLOAD_FACTOR times that
 * rate for the bench's seconds (`--seconds 30`: the targets' 30 s flood; loopback only, bounded in
 * count and time; `--only postgres` on a scratch database of TEST_DATABASE_URL): the share answered
 * (200), the share refused at once (503 with Retry-After, server/plugins/overload.ts), other
 * failures, and the answered p50/p99 counted from when each request was due. Run once with the
 * defaults and once with OVERLOAD_MAX_IN_FLIGHT=0 (admission off: everything is let in at once)
 * to compare. The closed loop's 50 keep-alive clients should get no 503 (bench/burst.ts runs
 * first: a burst of users opening a screen). The open loop is
 * the lists' (bench/open-loop.ts): a generator process of its own. LISTEN_SOCKETS=1 against the
 * default compares one listening socket with several (Node 22.12 and later; run the bench with
 * that Node: `npx -p node@24 -- npx tsx bench/run.ts --part overload`).
 */
import autocannon from 'autocannon';
import { loadavg } from 'node:os';
import { loadConfig } from '../server/config';
import { canSharePort } from '../server/plugins/connections';
import { holdUps, openLoop } from './open-loop';
import type { ServerProcess } from './server';

export const OVERLOAD_FACTOR = 2;

export async function benchOverload(server: ServerProcess, url: string, seconds: number, connections: number) {
  const { address, headers } = server;
  const shedding = process.env.OVERLOAD_MAX_IN_FLIGHT === '0' ? 'off (OVERLOAD_MAX_IN_FLIGHT=0 …)' : 'on (defaults or OVERLOAD_* settings)';
  // The server runs on this process's Node: one listening socket where that Node cannot share a port (server/plugins/connections.ts).
  const sockets = canSharePort() ? loadConfig(process.env).connections.listenSockets : 1;
  await autocannon({ url: address + url, headers, connections, duration: Math.min(seconds, 5) }); // warm-up
  const closed = await autocannon({ url: address + url, headers, connections, duration: seconds });
  // What it serves, not what it refuses: with shedding on, some of the closed loop's answers are 503s.
  const served = closed['2xx'] / seconds;
  const rate = Math.round(served * OVERLOAD_FACTOR);
  const load = loadavg()[0]!.toFixed(1);
  await server.stalls();
  const r = await openLoop(address + url, headers, rate, seconds);
  const stalls = await server.stalls();
  const refused = r.failures['503'] ?? 0;
  const failures = Object.entries(r.failures).filter(([why]) => why !== '503');
  const failed = failures.reduce((sum, [, n]) => sum + n, 0);
  const pct = (n: number) => `${((n / r.sent) * 100).toFixed(1)}%`;
  console.log(
    `  students list beyond saturation, shedding ${shedding}, ${sockets} listening socket${sockets === 1 ? '' : 's'} (Node ${process.versions.node}); machine load average ${load} (shared: a relative figure)`,
  );
  console.log(`    closed loop, ${connections} clients: ${served.toFixed(0)} answers 200 per second (${closed.non2xx} other answers in ${seconds} s)`);
  console.log(
    `    open loop at ${OVERLOAD_FACTOR}x that (${rate}/s) for ${seconds} s, ${r.sent} requests: answered ${pct(r.answered)}, refused 503 ${pct(refused)}` +
      `${refused ? (r.refusedWithoutRetryAfter ? ` (${r.refusedWithoutRetryAfter} WITHOUT Retry-After)` : ' (all with Retry-After)') : ''}, ` +
      `failed or unanswered ${pct(failed)}${failed ? ` (${failures.map(([why, n]) => `${why}: ${n}`).join(', ')})` : ''}; ` +
      `answered p50 ${r.answeredP50.toFixed(1)} ms, p99 ${r.answeredP99.toFixed(1)} ms`,
  );
  console.log(`    hold-ups: ${holdUps(r, stalls)}`);
}
