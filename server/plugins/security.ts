/**
 * Security headers on every answer (helmet's choice of them), and the Origin check that (with
 * SameSite cookies and the custom x-client-type header) keeps other sites from calling the
 * API with our cookies. No CORS headers are ever sent: the client is served from the same origin.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { DomainError } from '../../domain/index';
import type { Config } from '../config';
import { isApiPath, pathOf } from '../context';

function sentryOrigin(dsn: string | undefined): string {
  if (!dsn) return '';
  try {
    return ` ${new URL(dsn).origin}`;
  } catch {
    return '';
  }
}

const isDocs = (url: string | undefined) => {
  const path = pathOf(url ?? '');
  return path === '/api/docs' || path.startsWith('/api/docs/');
};

/**
 * The policy as the header writes it; the OpenAPI UI runs inline scripts, so only its pages
 * (`docs`) get that relaxation. Written once at start-up, not per answer.
 */
export function contentSecurityPolicy(config: Config, docs: boolean): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': docs ? ["'self'", "'unsafe-inline'"] : ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': [`'self'${sentryOrigin(config.sentryDsn)}`],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join(';');
}

const isHttps = (request: FastifyRequest) => request.protocol === 'https';

/**
 * The headers helmet sets with these options, asked of it once. Every one of them is the same
 * on every answer, so each answer gets them as one fixed set (helmet's Fastify plugin builds
 * the middleware again and runs its dozen steps on every request).
 */
export function helmetHeaders(options: Parameters<typeof helmet>[0]): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

export const securityPlugin = fp(async (app: FastifyInstance, opts: { config: Config }) => {
  const fixed = helmetHeaders({
    // The policy is written by contentSecurityPolicy above: the API docs' pages get their own.
    contentSecurityPolicy: false,
    referrerPolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
    // Only an answer that came over HTTPS may pin the browser to HTTPS (see below).
    strictTransportSecurity: false,
  });
  const headers = { ...fixed, 'content-security-policy': contentSecurityPolicy(opts.config, false) };
  const docsHeaders = { ...fixed, 'content-security-policy': contentSecurityPolicy(opts.config, true) };

  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isDocs(request.url) ? docsHeaders : headers);
    const origin = request.headers.origin;
    if (origin === undefined) return done();
    const own = `${request.protocol}://${request.host}`.toLowerCase();
    if (origin.toLowerCase() !== own) return done(new DomainError('forbidden', 'Cross-origin requests are not allowed.'));
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    // API answers are per user and per moment: never cached by browsers or proxies.
    if (isApiPath(request.method, pathOf(request.url)) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    if (isHttps(request)) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    done(null, payload);
  });
});

export { isHttps };
