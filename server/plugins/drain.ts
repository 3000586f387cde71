/**
 * A stopping process drains, so that a rolling restart fails no request (docs/deploy.md,
 * "Restarts"). From the moment it begins:
 * - `/healthz` answers 503 `{status: 'draining'}`, so the proxy takes the process out;
 * - every new request, on a new connection or a kept-alive one, is answered 503 `unavailable`
 *   (reason `draining`) with Retry-After and `Connection: close`: nothing of it was done, so a
 *   client or the proxy sends it again elsewhere;
 * - the answers to the requests it holds carry `Connection: close`;
 * - open streams are told to reconnect (the `onDrain` listeners) and end.
 * It is over once nothing is in flight and no kept-alive connection is left (or they had
 * DRAIN_LINGER_MS to send their next request and be told), or at the deadline, when whatever
 * is left is cut. Fastify's own 503 while closing is turned off
 * (buildApp), so every refusal is in the API's error format.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Socket } from 'node:net';
import { DomainError } from '../../domain/index';
import { sendError } from './errors';

/** Another process can take the request at once. */
export const DRAIN_RETRY_AFTER_SECONDS = 1;

/**
 * How long a drain waits, once nothing is in flight, while kept-alive connections are still
 * open: long enough for the proxy's health checks (every second, then faster once one fails)
 * to see `draining` and for kept-alive clients to get their 503 and `Connection: close`, rather
 * than an idle connection closed under a request just sent. With no connection open, nobody
 * is left to tell and the drain ends at once.
 */
export const DRAIN_LINGER_MS = 2000;

export interface Drain {
  readonly draining: boolean;
  /** Called once when draining begins (streams tell their readers to reconnect). */
  onDrain(listener: () => void): void;
  /** Begins draining; resolves when nothing is left in flight, or at the deadline, having cut what was. */
  begin(seconds: number): Promise<{ cut: number }>;
}

declare module 'fastify' {
  interface FastifyInstance {
    drain: Drain;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const drainPlugin = fp(async (app: FastifyInstance) => {
  let draining = false;
  let begun: Promise<{ cut: number }> | undefined;
  const listeners = new Set<() => void>();
  let inFlight = 0;
  const connections = new Set<Socket>();

  app.server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  app.server.on('request', (_req, res) => {
    inFlight++;
    res.once('close', () => inFlight--);
  });

  app.addHook('onRequest', (request, reply, done) => {
    if (!draining) return done();
    reply.header('connection', 'close');
    if (request.url.split('?', 1)[0] === '/healthz') {
      reply.code(503).header('retry-after', String(DRAIN_RETRY_AFTER_SECONDS)).send({ status: 'draining' });
      return;
    }
    const error = new DomainError('unavailable', 'This server is restarting; send the request again.', undefined, {
      details: { reason: 'draining', retry_after: DRAIN_RETRY_AFTER_SECONDS },
    });
    sendError(reply, error);
  });

  // Answers to the requests taken before the drain began close their connection.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });

  const run = async (seconds: number) => {
    const deadline = seconds * 1000;
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        app.log.warn({ err: error }, 'a drain listener failed');
      }
    }
    const started = Date.now();
    for (;;) {
      const elapsed = Date.now() - started;
      if (elapsed >= deadline) break;
      // Nothing in flight, and no kept-alive connection left that a request may still come on.
      if (inFlight === 0 && (connections.size === 0 || elapsed >= Math.min(DRAIN_LINGER_MS, deadline))) break;
      await sleep(25);
    }
    const cut = inFlight;
    if (cut) app.log.warn({ cut }, 'drain deadline reached: cutting the requests still in flight');
    // Every connection left is closed here, those that never sent a request too (Node's
    // server.close() leaves them open until its headers timeout).
    for (const socket of connections) socket.destroy();
    return { cut };
  };

  app.decorate('drain', {
    get draining() {
      return draining;
    },
    onDrain(listener: () => void) {
      listeners.add(listener);
    },
    begin(seconds: number) {
      if (!begun) {
        draining = true;
        begun = run(seconds);
      }
      return begun;
    },
  } satisfies Drain);
});
