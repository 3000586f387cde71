/**
 * Slow and numerous clients cannot hold the server's sockets: headers and whole requests have
 * time limits (Node's headersTimeout and requestTimeout, which Fastify leaves off), a request
 * the parser refuses or cuts still gets an answer in the API's error format, and one address
 * may hold only so many connections at once (a trickling client opening hundreds is refused
 * at the door), and new connections are accepted several per turn of the event loop, however
 * busy it is (listen). A body must also keep arriving at a minimum rate once a short grace is
 * over (limitBodyRate), so a trickle is cut long before the whole-request limit, which is sized
 * for a large upload on a slow line. Settings: HEADERS_TIMEOUT_SECONDS, REQUEST_TIMEOUT_SECONDS,
 * MAX_CONNECTIONS_PER_ADDRESS, LISTEN_SOCKETS, MIN_BODY_BYTES_PER_SECOND, BODY_GRACE_SECONDS
 * (see server/config.ts).
 */
import type { FastifyInstance, FastifyListenOptions, FastifyServerOptions } from 'fastify';
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import { type Server as NetServer, createServer } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Config } from '../config';
import { countRefusal } from '../metrics/process';

type Limits = Config['connections'];

/**
 * The kernel's queue of connections not yet accepted (Linux caps it at net.core.somaxconn).
 * With Node's default of 511 it overflowed under bursts of new connections (the overload
 * bench: thousands dropped in 10 s), and a connection that does not fit is not refused but
 * dropped: its client sends again only after 1 s, 3 s, 7 s…, and waits that long for any
 * answer. One that fits waits there until the server accepts it (see listen), and is then
 * answered (a 503 at once when the server is too busy).
 */
export const LISTEN_BACKLOG = 4096;

/** Node lets several sockets listen on one port (SO_REUSEPORT) from 22.12 and 23.1, on Linux. */
export function canSharePort(version = process.versions.node, platform = process.platform) {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return platform === 'linux' && (major >= 24 || (major === 23 && minor >= 1) || (major === 22 && minor >= 12));
}

/** Fails with EADDRINUSE, as a plain listen does, when anything already listens on the port. */
function refuseIfTaken(port: number, host: string) {
  return new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

const extraSockets = new WeakMap<Server, NetServer[]>();

/**
 * Starts listening. Node accepts at most one new connection per listening socket in each turn
 * of its event loop (libuv), and under load a turn lasts 15–20 ms: one socket accepted only
 * 50–70 connections a second, however many waited. Offered twice what it serves by clients
 * opening new connections, the server left hundreds in the kernel's queue, and a request on
 * one waited seconds before it could even be refused (docs/performance.md). Where the port can
 * be shared, the process listens on `limits.listenSockets` sockets at once; the kernel spreads
 * new connections over them and each accepts one per turn. Every connection is served by the
 * app's one HTTP server, with its limits and timers. A port another process holds is still
 * refused (a shared port would otherwise split its traffic silently).
 */
export async function listen(app: FastifyInstance, limits: Limits, where: { port: number; host: string }): Promise<string> {
  const sockets = canSharePort() ? limits.listenSockets : 1;
  if (sockets <= 1) return app.listen({ ...where, backlog: LISTEN_BACKLOG });
  if (where.port !== 0) await refuseIfTaken(where.port, where.host);
  const shared: FastifyListenOptions & { reusePort: boolean } = { ...where, backlog: LISTEN_BACKLOG, reusePort: true };
  const address = await app.listen(shared);
  const server = app.server;
  const { port } = server.address() as { port: number };
  const extra: NetServer[] = [];
  extraSockets.set(server, extra);
  for (let i = 1; i < sockets; i++) {
    // The options http.createServer gives its own sockets; the HTTP server takes it from there.
    const socket = createServer({ allowHalfOpen: true, noDelay: true }, (connection) => server.emit('connection', connection));
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.listen({ ...shared, port }, resolve);
    });
    extra.push(socket);
  }
  return address;
}

/** The extra listening sockets stop accepting when the app closes, before its server does. */
export function closeExtraSocketsOnClose(app: FastifyInstance) {
  app.addHook('preClose', (done) => {
    for (const socket of extraSockets.get(app.server) ?? []) socket.close();
    done();
  });
}

/** Node checks the request timers every this often; a quarter of the limit keeps the cut close to it. */
const checkEvery = (limits: Limits) => Math.max(250, Math.min(30_000, Math.floor((limits.requestTimeoutSeconds * 1000) / 4)));

function answer(socket: Duplex, status: string, code: string, message: string) {
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

const answerTimeout = (socket: Duplex) => {
  countRefusal('body-timeout');
  answer(socket, '408 Request Timeout', 'timeout', 'The request took too long to arrive.');
};

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
      if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return answerTimeout(socket);
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
      countRefusal('rate-limited');
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

interface BodyWatch {
  req: IncomingMessage;
  res: ServerResponse;
  /** The socket's bytes read when the request's headers were in. */
  from: number;
  /** Time spent waiting on the client for the body (ms). */
  waited: number;
  last: number;
  forget(): void;
}

/**
 * True while the server itself holds the body back: nobody reads it yet and its buffer is full,
 * or whoever reads it paused (an upload waiting on storage). That time is not the client's.
 */
const heldByServer = (req: IncomingMessage) => req.readableFlowing === false || req.readableLength >= req.readableHighWaterMark;

const hasBody = (req: IncomingMessage) => !req.complete && (Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined);

/**
 * A minimum body rate, as Kestrel's MinRequestBodyDataRate (and Apache's mod_reqtimeout
 * MinRate) have: once `bodyGraceSeconds` are over, a body whose bytes so far average less than
 * `minBodyBytesPerSecond` since it began (one byte every few seconds, or a steady crawl below
 * the rate) is cut with 408 `timeout` at the next check (or, when an answer has begun, its
 * connection is closed); the upload's own clean-up runs as for a client gone away. A burst
 * counts towards the average, so a pause after it is forgiven for as long as the average holds.
 * Uploads at ordinary speeds never come near it; time the server holds the body back does not
 * count.
 */
export function limitBodyRate(server: Server, limits: Limits) {
  const rate = limits.minBodyBytesPerSecond;
  if (!rate) return;
  const graceMs = limits.bodyGraceSeconds * 1000;
  const everyMs = Math.max(100, Math.min(1000, Math.floor(graceMs / 4)));
  const watched = new Set<BodyWatch>();
  let timer: NodeJS.Timeout | undefined;

  const cut = (w: BodyWatch) => {
    w.forget();
    const socket = w.req.socket;
    if (!w.res.headersSent && socket.writable) {
      answerTimeout(socket);
      socket.destroySoon();
    } else socket.destroy();
  };
  const check = () => {
    const now = Date.now();
    for (const w of watched) {
      const socket = w.req.socket;
      if (w.req.complete || socket.destroyed) {
        w.forget();
        continue;
      }
      const elapsed = now - w.last;
      w.last = now;
      if (heldByServer(w.req)) continue;
      w.waited += elapsed;
      const received = socket.bytesRead - w.from;
      if (w.waited > graceMs && received < (rate * w.waited) / 1000) cut(w);
    }
    if (!watched.size) {
      clearInterval(timer);
      timer = undefined;
    }
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!hasBody(req)) return;
    const socket = req.socket;
    const forget = () => {
      watched.delete(w);
      socket.off('close', forget);
      req.off('end', forget);
    };
    const w: BodyWatch = { req, res, from: socket.bytesRead, waited: 0, last: Date.now(), forget };
    watched.add(w);
    req.once('end', forget);
    socket.once('close', forget);
    timer ??= setInterval(check, everyMs).unref();
  });
}
