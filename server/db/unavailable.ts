/**
 * Errors that mean "the database is away for now", not "this request is wrong": the server
 * restarting or refusing connections, a connection cut in the middle of a query, a network
 * fault, an embedded database that failed. Requests meeting one are answered 503 with a
 * Retry-After instead of 500, and the process keeps running until the database is back.
 */

/** Seconds a client is asked to wait before trying again. */
export const RETRY_AFTER_SECONDS = 5;

/** SQLSTATE classes and codes of a server that is shutting down, starting or unreachable. */
const UNAVAILABLE_CODES = new Set([
  '57P01', // admin_shutdown (also pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, or recovering)
  '57014', // query_canceled (statement timeout, cancelled by an operator)
  '53300', // too_many_connections
  '58000', // system_error
  '58030', // io_error
]);

const NODE_NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

const UNAVAILABLE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /is not queryable/i,
  /not currently accepting connections/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /PGlite is closed/,
  /^Aborted\(/,
];

/** True when error (or what it wraps, as drizzle does) says the database cannot be reached. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message, name } = e as { code?: unknown; message?: unknown; name?: unknown };
    if (typeof code === 'string') {
      if (UNAVAILABLE_CODES.has(code) || code.startsWith('08') || NODE_NETWORK_CODES.has(code)) return true;
    }
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(message))) return true;
    // PGlite's WebAssembly aborting leaves it unusable: every later query fails the same way.
    if (name === 'RuntimeError' && typeof message === 'string' && message.includes('Aborted')) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
