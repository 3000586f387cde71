/**
 * Authentication and the role check. Every route declares `config.access` (enforced when the
 * route is registered); a route that is not public needs a valid access token (cookie for
 * the web client, Bearer for API clients) whose session is still live in the database, in
 * the tenant the request addresses. Then can(role, area, action) decides.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { can, DomainError } from '../../domain/index';
import type { Database } from '../db/client';
import { checkSession } from '../modules/auth/sessions';
import { verifyAccessToken } from '../modules/auth/tokens';

export const ACCESS_COOKIE = 'access_token';
export const REFRESH_COOKIE = 'refresh_token';

/** The presented access token: Authorization: Bearer first, then the cookie. */
export function accessTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header && /^Bearer\s+/i.test(header)) return header.replace(/^Bearer\s+/i, '').trim() || undefined;
  return request.cookies[ACCESS_COOKIE] || undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Read-only statements the handler needs on every request (the tenant id is the only value
     * they may write in), sent with the session check: the same message, the same tenant view.
     */
    readWithSession?: (tenantId: number) => string[];
  }
  interface FastifyRequest {
    /** The rows of the route's readWithSession statements, read after the session was found live. */
    readWithSession: Record<string, unknown>[][] | null;
  }
}

const exempt = (url: string) => url === '/healthz' || url === '/api/docs' || url.startsWith('/api/docs/');

export const authPlugin = fp(async (app: FastifyInstance, opts: { database: Database; jwtKey: Uint8Array }) => {
  app.decorateRequest('actor', null);
  app.decorateRequest('readWithSession', null);

  // A route without a declared access rule is a programming error: refuse to start.
  app.addHook('onRoute', (route) => {
    if (route.config?.access === undefined && !exempt(route.url)) {
      throw new Error(`route ${route.method} ${route.url} declares no config.access`);
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (request.is404 || access === undefined || access === 'public') return;

    const token = accessTokenOf(request);
    if (!token) throw new DomainError('unauthorized');
    const verified = await verifyAccessToken(opts.jwtKey, token);
    if (!verified.ok) throw new DomainError('unauthorized', verified.reason === 'expired' ? 'The access token has expired.' : undefined);
    const { tid, sid } = verified.claims;
    if (!request.tenant || request.tenant.id !== tid) throw new DomainError('tenant-mismatch');

    const along = request.routeOptions.config?.readWithSession?.(tid) ?? [];
    const session = await checkSession(opts.database, tid, sid, along);
    if (session.status === 'unknown') throw new DomainError('unauthorized');
    if (session.status === 'revoked') throw new DomainError('session-revoked');
    request.actor = session.actor;
    if (along.length) request.readWithSession = session.along ?? null;

    if (access !== 'signed-in' && !can(session.actor.role, access.area, access.action)) {
      throw new DomainError('forbidden');
    }
    // A family's sign-in is walled off from the centre's routes: an area must name GUARDIAN
    // (portal, notifications, own account), or a route open to any sign-in must say so.
    if (access === 'signed-in' && session.actor.role === 'GUARDIAN' && request.routeOptions.config?.guardians !== true) {
      throw new DomainError('forbidden');
    }
  });
});
