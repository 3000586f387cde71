/**
 * HAProxy's configuration for the cluster (cluster.ts writes it): one port in front of the
 * Frontis processes. A stopping process drains (server/plugins/drain.ts): its /healthz answers
 * 503 at once, and it keeps answering (503 `draining` to anything new) for at least a couple of
 * seconds, so the health checks below take it out before it stops listening. Requests it refuses
 * meanwhile, and those whose connection was refused, are sent to another process (every retry
 * to another one: `option redispatch 1`). No `on-marked-down shutdown-sessions`: it would cut
 * the requests the process is still answering; the process closes its own connections and
 * tells its notification streams to reconnect.
 *
 * A request is sent again only where that is safe (docs/rules.md, "Exactly once"): after a
 * connection that failed before the request was sent, any request; after it reached a process
 * (an empty answer, a 503), only a read or a write that carries an Idempotency-Key, which the
 * server answers once however often it arrives. A write without a key is never resent.
 */

/** How often each process is checked, and after a failed check (until it is marked down). */
export const CHECK = { interMs: 1000, fastinterMs: 250, fall: 2, rise: 1 } as const;

/** The longest from a process's first 503 on /healthz until HAProxy sends it nothing new. */
export const markedDownWithinMs = () => CHECK.interMs + (CHECK.fall - 1) * CHECK.fastinterMs;

/**
 * haproxy.cfg: `front` is the TLS front (front.ts: HTTPS, HTTP redirected, X-Forwarded-Proto,
 * HSTS, the stats page); without it, plain HTTP on 127.0.0.1:`listenPort`.
 */
export function haproxyConfig(listenPort: number, frontisPorts: readonly number[], front?: readonly string[]): string {
  const check = `check inter ${CHECK.interMs}ms fastinter ${CHECK.fastinterMs}ms downinter ${CHECK.interMs}ms fall ${CHECK.fall} rise ${CHECK.rise}`;
  return [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout check 2s',
    // Notification streams stay open for as long as the token lives.
    '  timeout tunnel 1h',
    '  option forwardfor',
    ...(front ?? ['frontend web', `  bind 127.0.0.1:${listenPort}`, '  default_backend frontis']),
    'backend frontis',
    '  balance leastconn',
    // A draining process answers 503 `draining` here: out after `fall` failed checks.
    '  option httpchk GET /healthz',
    '  http-check expect status 200',
    // A 503 from one process (draining, shed or database away: nothing was done) is tried on
    // another, as is a request whose connection was refused or closed before any answer.
    '  retry-on 503 conn-failure empty-response',
    '  retries 2',
    '  option redispatch 1',
    '  acl safe_method method GET HEAD OPTIONS',
    '  acl keyed req.hdr(idempotency-key) -m found',
    // Beyond a failed connection, a write without a key may have been done: never sent twice.
    '  http-request disable-l7-retry if !safe_method !keyed',
    ...frontisPorts.map((port, i) => `  server f${i + 1} 127.0.0.1:${port} ${check}`),
    '',
  ].join('\n');
}
