/**
 * Slow and numerous clients cannot hold the server's sockets: headers and whole requests have
 * time limits (Node's headersTimeout and requestTimeout, which Fastify leaves off), a request
 * the parser refuses or cuts still gets an answer in the API's error format, and one address
 * may hold only so many connections at once (a trickling client opening hundreds is refused
 * at the door). Settings: HEADERS_TIMEOUT_SECONDS, REQUEST_TIMEOUT_SECONDS,
 * MAX_CONNECTIONS_PER_ADDRESS (see server/config.ts).
 */
import type { FastifyServerOptions } from 'fastify';
import type { Server, ServerOptions } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Config } from '../config';

type Limits = Config['connections'];

/**
 * The kernel's queue of connections not yet accepted (Linux caps it at net.core.somaxconn).
 * With Node's default of 511 it overflowed under bursts of new connections (the overload
 * bench: thousands dropped in 10 s), and a connection that does not fit is not refused but
 * dropped: its client sends again only after 1 s, 3 s, 7 s…, and waits that long for any
 * answer. One that fits waits there until the server accepts it, and is then answered (a 503
 * at once when the server is too busy); offered twice what it serves on PostgreSQL, the server
 * still accepts too slowly and such a connection can wait seconds (docs/performance.md).
 */
export const LISTEN_BACKLOG = 4096;

/** Node checks the request timers every this often; a quarter of the limit keeps the cut close to it. */
const checkEvery = (limits: Limits) => Math.max(250, Math.min(30_000, Math.floor((limits.requestTimeoutSeconds * 1000) / 4)));

function answer(socket: Duplex, status: string, code: string, message: string) {
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Fastify's options for the limits: passed to Fastify() so they reach the HTTP server it creates. */
export function serverTimeouts(limits: Limits): Pick<FastifyServerOptions, 'requestTimeout' | 'clientErrorHandler'> & { http: ServerOptions } {
  return {
    requestTimeout: limits.requestTimeoutSeconds * 1000,
    http: { headersTimeout: limits.headersTimeoutSeconds * 1000, connectionsCheckingInterval: checkEvery(limits) },
    // Requests Node's HTTP parser refuses (raw non-ASCII in the URL, oversized headers…) or
    // cuts (too slow) still get an answer in the API's error format.
    clientErrorHandler: (error, socket) => {
      if (!socket.writable) return;
      const code = (error as { code?: string }).code;
      if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return answer(socket, '408 Request Timeout', 'timeout', 'The request took too long to arrive.');
      if (code === 'HPE_HEADER_OVERFLOW') return answer(socket, '431 Request Header Fields Too Large', 'too-large', 'The request headers are too large.');
      answer(socket, '400 Bad Request', 'validation', 'The request is malformed.');
    },
  };
}

/** Bounds the connections one address holds at once; 0 means no bound. */
export function limitConnectionsPerAddress(server: Server, limits: Limits) {
  const max = limits.maxPerAddress;
  if (!max) return;
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      answer(socket, '429 Too Many Requests', 'rate-limited', 'Too many connections from this address.');
      socket.destroySoon();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
