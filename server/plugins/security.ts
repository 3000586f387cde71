/**
 * Security headers on every answer (by @fastify/helmet), and the Origin check that (with
 * SameSite cookies and the custom x-client-type header) keeps other sites from calling the
 * API with our cookies. No CORS headers are ever sent: the client is served from the same origin.
 */
import helmet from '@fastify/helmet';
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

export const securityPlugin = fp(async (app: FastifyInstance, opts: { config: Config }) => {
  const policy = contentSecurityPolicy(opts.config, false);
  const docsPolicy = contentSecurityPolicy(opts.config, true);
  await app.register(helmet, {
    // Set below from the two policies written once (helmet would write it again for every answer).
    contentSecurityPolicy: false,
    referrerPolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
    // Only an answer that came over HTTPS may pin the browser to HTTPS (see below).
    strictTransportSecurity: false,
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('content-security-policy', isDocs(request.url) ? docsPolicy : policy);
    const origin = request.headers.origin;
    if (origin === undefined) return;
    const own = `${request.protocol}://${request.host}`.toLowerCase();
    if (origin.toLowerCase() !== own) throw new DomainError('forbidden', 'Cross-origin requests are not allowed.');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    // API answers are per user and per moment: never cached by browsers or proxies.
    if (isApiPath(request.method, pathOf(request.url)) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    if (isHttps(request)) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    return payload;
  });
});

export { isHttps };
