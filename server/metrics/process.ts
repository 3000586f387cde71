/**
 * What this process counts as it serves (docs/deploy.md, Metrics and health): requests by
 * route pattern and status, their latency, and the requests it refused and why. One set per
 * process, whatever number of apps it builds (tests build many): each process exposes its
 * own figures at /metrics, and a scraper sums them over processes.
 */
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export const processRegistry = new Registry();
collectDefaultMetrics({ register: processRegistry, prefix: 'frontis_process_' });

export const requests = new Counter({
  name: 'frontis_http_requests_total',
  help: 'Requests answered, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [processRegistry],
});

export const latency = new Histogram({
  name: 'frontis_http_request_duration_seconds',
  help: 'Time from a request arriving to its answer sent, by method and route pattern.',
  labelNames: ['method', 'route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [processRegistry],
});

/**
 * Why a request was refused before it was served: `overloaded` (503 from the shedder),
 * `rate-limited` (429: sign-in attempts, connections per address), `body-timeout` (408: the
 * request did not arrive in time).
 */
export type RefusalCause = 'overloaded' | 'rate-limited' | 'body-timeout';

export const refusals = new Counter({
  name: 'frontis_refusals_total',
  help: 'Requests refused before being served, by cause (overloaded, rate-limited, body-timeout).',
  labelNames: ['cause'] as const,
  registers: [processRegistry],
});
for (const cause of ['overloaded', 'rate-limited', 'body-timeout'] satisfies RefusalCause[]) refusals.inc({ cause }, 0);

/** One refusal of `cause` (called where the refusal is made). */
export const countRefusal = (cause: RefusalCause) => refusals.inc({ cause });
