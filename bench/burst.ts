/**
 * npm run bench -- --part overload, first: a burst of users opening a screen at the same moment
 * (BURST_USERS users, 3 requests each, five bursts a second apart; each user a browser of its
 * own connections), each honouring Retry-After as the web client does (src/providers/http.ts:
 * it waits and sends again, at most twice). Printed: requests refused (503), failed (still
 * refused after two tries, or another answer), and how long each user waited for all its data.
 * Bounded in count and time, loopback only. Run once with the defaults and once with
 * OVERLOAD_MAX_IN_FLIGHT=0 (admission off) to compare.
 */
import { Agent, request as httpRequest } from 'node:http';
import type { ServerProcess } from './server';

const BURSTS = 5;
const RETRIES = 2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function get(agent: Agent, url: URL, headers: Record<string, string>): Promise<{ status: number; retryAfter: number }> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: Number(res.headers['retry-after'] ?? 1) }));
    });
    req.on('error', () => resolve({ status: 0, retryAfter: 0 }));
    req.end();
  });
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? 0;

export async function benchBurst(server: ServerProcess, urls: readonly string[], users = Number(process.env.BURST_USERS ?? 40)) {
  const { address, headers } = server;
  let refused = 0;
  let failed = 0;
  const waited: number[] = [];
  for (let burst = 0; burst < BURSTS; burst++) {
    const agents = Array.from({ length: users }, () => new Agent({ keepAlive: true }));
    try {
      await Promise.all(
        agents.map(async (agent) => {
          const started = performance.now();
          await Promise.all(
            urls.map(async (path) => {
              for (let attempt = 0; attempt <= RETRIES; attempt++) {
                const answer = await get(agent, new URL(address + path), headers);
                if (answer.status === 200) return;
                if (answer.status !== 503 || attempt === RETRIES) return void failed++;
                refused++;
                await sleep(answer.retryAfter * 1000);
              }
            }),
          );
          waited.push(performance.now() - started);
        }),
      );
    } finally {
      for (const agent of agents) agent.destroy();
    }
    await sleep(1000);
  }
  const shedding = process.env.OVERLOAD_MAX_IN_FLIGHT === '0' ? 'off (OVERLOAD_MAX_IN_FLIGHT=0)' : 'on (defaults or OVERLOAD_* settings)';
  console.log(
    `  a burst: ${users} users opening a screen at once (${urls.length} requests each), ${BURSTS} times, each honouring Retry-After; admission ${shedding}`,
  );
  console.log(
    `    ${BURSTS * users * urls.length} requests: refused 503 ${refused}, failed ${failed}; ` +
      `each user's data in p50 ${percentile(waited, 50).toFixed(0)} ms, p95 ${percentile(waited, 95).toFixed(0)} ms, max ${Math.max(...waited).toFixed(0)} ms (target: none refused, all within 1 s)`,
  );
}
