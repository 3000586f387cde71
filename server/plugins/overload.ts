/**
 * Overload is shed, not queued. Offered more than it can serve, a process answers what it can
 * within its latency target and refuses the rest at once: 503 `unavailable` with Retry-After
 * and details.reason `overloaded`, before any hook or handler has done anything (no session
 * check, no database work), so a client may safely send that same request again, writes
 * included (src/providers/http.ts does, after the pause the server asks for).
 *
 * Three things are watched, each with its setting (server/config.ts; 0 turns one off):
 *  - requests in flight in this process (OVERLOAD_MAX_IN_FLIGHT): the bound of the queue;
 *  - the event loop's mean delay over the last sample (OVERLOAD_MAX_EVENT_LOOP_DELAY_MS), by
 *    as @fastify/under-pressure samples it, while other requests are in flight: a process whose
 *    CPU is saturated answers everything late;
 *  - requests waiting for a PostgreSQL pool connection (OVERLOAD_MAX_POOL_WAITING): the
 *    database is the bottleneck and a new request would only wait in the pool's queue.
 * `/healthz` is never refused (a load balancer must tell "busy" from "down"), nor is a file of
 * the web client (a GET no route answers outside the API): each is a file sent as it lies on
 * disk, and a page whose script was refused stays blank, where the client's own API calls
 * are sent again after the pause. An open notification stream does not count as in flight
 * once it has its answer (it lasts hours).
 */
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type pg from 'pg';
import { DomainError } from '../../domain/index';
import type { OverloadConfig } from '../config';
import { isApiPath, pathOf } from '../context';
import { countRefusal } from '../metrics/process';
import { sendError } from './errors';

/** Requests never refused: the load balancer's health check. */
const EXEMPT = new Set(['/healthz']);
/** Long-lived answers: counted while they start, not for their whole life. */
const STREAMS = new Set(['/api/notifications/stream']);

/** A file of the web client (or its page): a GET or HEAD that no route answers, outside the API (plugins/client.ts). */
const clientFile = (request: FastifyRequest, path: string) =>
  (request.method === 'GET' || request.method === 'HEAD') && request.is404 && !isApiPath(request.method, path);

export type OverloadCause = 'in-flight' | 'event-loop-delay' | 'pool-waiting';

export interface OverloadOptions {
  config: OverloadConfig;
  /** The PostgreSQL pool whose waiting requests are watched (none with PGlite). */
  pool?: pg.Pool;
}

export const overloadPlugin = fp(async (app: FastifyInstance, { config, pool }: OverloadOptions) => {
  let inFlight = 0;
  const releases = new WeakMap<FastifyRequest, () => void>();
  const refuse = (request: FastifyRequest, reply: FastifyReply, cause: OverloadCause) => {
    request.log.warn({ cause, inFlight }, 'overloaded: request refused');
    countRefusal('overloaded');
    sendError(
      reply,
      new DomainError('unavailable', 'The server is busy. Nothing was saved. Please try again in a moment.', undefined, {
        details: { reason: 'overloaded', retry_after: config.retryAfterSeconds },
      }),
    );
  };

  // Measurement only (no limits of its own): the refusal is ours, in the API's error format.
  await app.register(underPressure, { sampleInterval: config.sampleIntervalMs });
  // Starting (loading modules, building routes) holds the loop for longer than a sample: the
  // delay counts only from two samples after the app is ready, not against the first requests.
  let measuredFrom = Number.POSITIVE_INFINITY;
  app.addHook('onReady', async () => {
    measuredFrom = Date.now() + 2 * config.sampleIntervalMs;
  });

  /** Why this request cannot be served in time, if it cannot. */
  const pressure = (): OverloadCause | undefined => {
    if (config.maxInFlight > 0 && inFlight >= config.maxInFlight) return 'in-flight';
    // A late loop with nothing else in flight was one long request (a large import on PGlite),
    // not overload: the next request of that same client is served.
    if (config.maxEventLoopDelayMs > 0 && inFlight > 0 && Date.now() >= measuredFrom && app.memoryUsage().eventLoopDelay > config.maxEventLoopDelayMs) {
      return 'event-loop-delay';
    }
    if (pool && config.maxPoolWaiting > 0 && pool.waitingCount >= config.maxPoolWaiting) return 'pool-waiting';
    return undefined;
  };

  app.addHook('onRequest', (request, reply, done) => {
    const path = pathOf(request.url);
    if (EXEMPT.has(path) || reply.sent || clientFile(request, path)) return done();
    const cause = pressure();
    if (cause) {
      // Answered here; not calling done() ends the request's hooks.
      refuse(request, reply, cause);
      return;
    }
    inFlight++;
    let counted = true;
    const leave = () => {
      if (!counted) return;
      counted = false;
      inFlight--;
    };
    releases.set(request, leave);
    // The connection closing covers a client gone before its answer (onResponse does not run then).
    reply.raw.once('close', leave);
    done();
  });
  const release = (request: FastifyRequest) => releases.get(request)?.();
  app.addHook('onResponse', (request, _reply, done) => {
    release(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    release(request);
    done();
  });
  // A stream past its checks waits for news from then on, not for this process: no longer in flight.
  app.addHook('preHandler', (request, _reply, done) => {
    if (STREAMS.has(pathOf(request.url))) release(request);
    done();
  });
});
