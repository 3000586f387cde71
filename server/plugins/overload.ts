/**
 * Admission: what a process can serve it serves, and the excess is refused at once. A request
 * starts while the requests in flight are under a bound LEARNED from their measured latency;
 * beyond it, it waits in a queue. A queue that drains (a burst) is served whole; a queue that
 * stands (more keeps arriving than is served) serves its newest first and refuses what has waited
 * a short target, so the excess is refused at once (server/plugins/admission.ts says how). A refusal is 503 `unavailable`
 * with Retry-After and details.reason `overloaded`, given before any hook or handler has done
 * anything (no session check, no database work), so a client may safely send that same request
 * again, writes included (src/providers/http.ts does, after the pause the server asks for).
 *
 * Watched (server/config.ts, OVERLOAD_*): the latency of the requests this process answers,
 * this process's own event-loop utilisation (never the machine's: other processes' work does
 * not refuse anything here), and requests waiting for a PostgreSQL pool connection (beyond
 * OVERLOAD_MAX_POOL_WAITING a new request waits in our queue rather than in the pool's).
 * `/healthz` is never refused nor queued (a load balancer must tell "busy" from "down"), nor is
 * a file of the web client (a GET no route answers outside the API): each is a file sent as it
 * lies on disk, and a page whose script was refused stays blank, where the client's own API
 * calls are sent again after the pause. An open notification stream does not count as in
 * flight once it has its answer (it lasts hours).
 */
import { performance } from 'node:perf_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type pg from 'pg';
import { DomainError } from '../../domain/index';
import type { OverloadConfig } from '../config';
import { isApiPath, pathOf } from '../context';
import { countRefusal } from '../metrics/process';
import { Admission, type Refusal } from './admission';
import { sendError } from './errors';

/** Requests never refused: the load balancer's health check, and the operator's metrics (a scrape must see the overload). */
const EXEMPT = new Set(['/healthz', '/metrics']);
/** Long-lived answers: counted while they start, not for their whole life. */
const STREAMS = new Set(['/api/notifications/stream']);

/** A file of the web client (or its page): a GET or HEAD that no route answers, outside the API (plugins/client.ts). */
const clientFile = (request: FastifyRequest, path: string) =>
  (request.method === 'GET' || request.method === 'HEAD') && request.is404 && !isApiPath(request.method, path);

export type OverloadCause = Refusal;

export interface OverloadOptions {
  config: OverloadConfig;
  /** The PostgreSQL pool whose waiting requests are watched (none with PGlite). */
  pool?: pg.Pool;
}

export const overloadPlugin = fp(async (app: FastifyInstance, { config, pool }: OverloadOptions) => {
  if (config.maxInFlight <= 0) return;
  const admission = new Admission(
    {
      minInFlight: Math.min(config.minInFlight, config.maxInFlight),
      maxInFlight: config.maxInFlight,
      queueTargetMs: config.queueTargetMs,
      queueIntervalMs: config.queueIntervalMs,
      maxQueueWaitMs: config.maxQueueWaitMs,
      maxQueue: config.maxQueue,
      maxEventLoopUtilization: config.maxEventLoopUtilization > 0 ? config.maxEventLoopUtilization / 100 : 1,
    },
    () => performance.now(),
    () => pool !== undefined && config.maxPoolWaiting > 0 && pool.waitingCount >= config.maxPoolWaiting,
  );
  /** The request's release, set once it has started (its latency counts from then). */
  const releases = new WeakMap<FastifyRequest, (measured: boolean) => void>();

  const refuse = (request: FastifyRequest, reply: FastifyReply, cause: OverloadCause) => {
    request.log.warn(
      { cause, inFlight: admission.inFlight, limit: Math.floor(admission.limit), waiting: admission.waiting, standing: admission.standing },
      'overloaded: request refused',
    );
    countRefusal('overloaded');
    sendError(
      reply,
      new DomainError('unavailable', 'The server is busy. Nothing was saved. Please try again in a moment.', undefined, {
        details: { reason: 'overloaded', retry_after: config.retryAfterSeconds },
      }),
    );
  };

  // The bound is learned again every sample, with this process's event-loop utilisation over it.
  let elu = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    admission.sample(performance.eventLoopUtilization(now, elu).utilization);
    elu = now;
  }, config.sampleIntervalMs);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));

  app.addHook('onRequest', (request, reply, done) => {
    const path = pathOf(request.url);
    if (EXEMPT.has(path) || reply.sent || clientFile(request, path)) return done();
    let gone = false;
    const start = () => {
      if (gone) return admission.finish();
      const started = performance.now();
      let counted = true;
      const release = (measured: boolean) => {
        if (!counted) return;
        counted = false;
        admission.finish(measured ? performance.now() - started : undefined);
      };
      releases.set(request, release);
      // The connection closing covers a client gone before its answer (onResponse does not run then).
      reply.raw.once('close', () => release(false));
      done();
    };
    // Answered here; not calling done() ends the request's hooks.
    const waiting = admission.arrive(start, (cause) => {
      if (gone) return;
      refuse(request, reply, cause);
    });
    if (waiting) {
      // A client gone while it waits leaves the queue.
      reply.raw.once('close', () => {
        if (releases.has(request)) return;
        gone = true;
        admission.leave(waiting);
      });
    }
  });
  const release = (request: FastifyRequest, measured: boolean) => releases.get(request)?.(measured);
  app.addHook('onResponse', (request, _reply, done) => {
    release(request, true);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    release(request, false);
    done();
  });
  // A stream past its checks waits for news from then on, not for this process: no longer in flight.
  app.addHook('preHandler', (request, _reply, done) => {
    if (STREAMS.has(pathOf(request.url))) release(request, false);
    done();
  });
});
