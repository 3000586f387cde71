/**
 * HAProxy's front: TLS on the HTTPS port with the operator's certificate (CLUSTER_TLS_CERT, a
 * PEM holding the certificate chain and its key) or, without one, a self-signed one made here
 * with openssl; plain HTTP answered with a redirect to HTTPS; `X-Forwarded-Proto` set for
 * Frontis (TRUST_PROXY=true) and HSTS on every answer; the stats page on loopback only.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';

/** The PEM HAProxy serves: the operator's, or one made (once) in `dir` for 127.0.0.1 and localhost. */
export function certificate(dir: string, operator = process.env.CLUSTER_TLS_CERT): string {
  if (operator) {
    if (!existsSync(operator)) throw new Error(`CLUSTER_TLS_CERT=${operator}: no such file (a PEM with the certificate chain and its private key)`);
    return operator;
  }
  const pem = join(dir, 'tls.pem');
  if (existsSync(pem)) return pem;
  const key = join(dir, 'tls.key');
  const crt = join(dir, 'tls.crt');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '365',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      crt,
    ],
    { stdio: 'ignore' },
  );
  execFileSync('sh', ['-c', `cat "${crt}" "${key}" > "${pem}"`]);
  for (const file of [key, pem]) chmodSync(file, 0o600);
  return pem;
}

export interface FrontOptions {
  /** The address the public ports are bound to (loopback on the trial machine; the operator's in production). */
  host: string;
  https: number;
  http: number;
  /** The stats page: always on 127.0.0.1. */
  stats: number;
  pem: string;
  backend: string;
}

/** The `frontend` and `listen stats` sections of haproxy.cfg. */
export function frontLines(o: FrontOptions): string[] {
  return [
    'frontend web',
    `  bind ${o.host}:${o.https} ssl crt ${o.pem} alpn h2,http/1.1`,
    `  bind ${o.host}:${o.http}`,
    // To the HTTPS port (named when it is not 443), keeping the host name, path and query.
    o.https === 443
      ? '  http-request redirect scheme https code 301 unless { ssl_fc }'
      : `  http-request redirect location https://%[req.hdr(host),field(1,:)]:${o.https}%[capture.req.uri] code 301 unless { ssl_fc }`,
    '  http-request set-header X-Forwarded-Proto https if { ssl_fc }',
    '  http-after-response set-header Strict-Transport-Security "max-age=31536000" if { ssl_fc }',
    `  default_backend ${o.backend}`,
    'listen stats',
    `  bind 127.0.0.1:${o.stats}`,
    '  stats enable',
    '  stats uri /stats',
    '  stats refresh 5s',
  ];
}

export interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTPS request to 127.0.0.1:`port`, trusting `ca` (the cluster's own certificate) for the name localhost. */
export function httpsRequest(
  port: number,
  path: string,
  ca: Buffer,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: opts.headers, ca, servername: 'localhost', timeout: 15_000 },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.once('timeout', () => req.destroy(new Error('timed out')));
    req.once('error', reject);
    req.end(opts.body);
  });
}
