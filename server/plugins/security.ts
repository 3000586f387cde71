/**
 * Security headers on every answer, and the Origin check that (with SameSite cookies and the
 * custom x-client-type header) keeps other sites from calling the API with our cookies.
 * No CORS headers are ever sent: the client is served from the same origin.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
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

export function contentSecurityPolicy(config: Config, docs: boolean): string {
  return [
    "default-src 'self'",
    // The OpenAPI UI runs inline scripts; only its pages get this relaxation.
    docs ? "script-src 'self' 'unsafe-inline'" : "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${sentryOrigin(config.sentryDsn)}`,
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

const isHttps = (request: FastifyRequest) => request.protocol === 'https';

export const securityPlugin = fp(async (app: FastifyInstance, opts: { config: Config }) => {
  const strict = contentSecurityPolicy(opts.config, false);
  const relaxed = contentSecurityPolicy(opts.config, true);

  app.addHook('onRequest', async (request) => {
    const origin = request.headers.origin;
    if (origin === undefined) return;
    const own = `${request.protocol}://${request.host}`.toLowerCase();
    if (origin.toLowerCase() !== own) throw new DomainError('forbidden', 'Cross-origin requests are not allowed.');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const path = pathOf(request.url);
    const docs = path === '/api/docs' || path.startsWith('/api/docs/');
    reply.header('content-security-policy', docs ? relaxed : strict);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin');
    // API answers are per user and per moment: never cached by browsers or proxies.
    if (isApiPath(request.method, path) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    if (isHttps(request)) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    return payload;
  });
});

export { isHttps };
