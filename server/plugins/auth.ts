/**
 * Authentication and the role check. Every route declares `config.access` (enforced when the
 * route is registered); a route that is not public needs a valid access token (cookie for
 * the web client, Bearer for API clients) whose session is still live in the database, in
 * the tenant the request addresses. Then can(role, area, action) decides.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { can, DomainError } from '../../domain/index';
import type { Actor } from '../context';
import type { Database } from '../db/types';
import type { FirstStatement } from '../db/read-batch';
import { checkSession, sessionCheckOf, sessionCheckStatement, type SessionRow } from '../modules/auth/sessions';
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
    /**
     * A route that only reads, through readsConfirmingSession(): once a session has been found
     * live, its next requests here check it in the handler's first message to the database
     * instead of in a round trip of their own.
     */
    sessionInReads?: boolean;
  }
  interface FastifyRequest {
    /** The rows of the route's readWithSession statements, read after the session was found live. */
    readWithSession: Record<string, unknown>[][] | null;
    /** A session taken as live as it was last seen, still to be confirmed (see sessionInReads). */
    sessionToConfirm: PendingSession | null;
  }
}

/** A session whose check travels with the handler's first reads (see readsConfirmingSession). */
export interface PendingSession {
  first: FirstStatement;
  /** Whether the database has answered the check sent as `first`. */
  judged: boolean;
  /** The full check, as on any other route: the actor, or 401 / 403. */
  confirm(): Promise<void>;
}

/** The session was not as last seen (ended, or its account changed): the request is checked afresh. */
class SessionMoved extends Error {}

/** SessionMoved, also as the cause of the query error the database layer wraps it in. */
const sessionMoved = (error: unknown): boolean =>
  error instanceof SessionMoved || (error instanceof Error && error.cause !== undefined && error.cause !== error && sessionMoved(error.cause));

/**
 * A read-only handler's reads, with the session check of a sessionInReads route in their first
 * message. Nothing read is used before the check is judged; if the session is not as last seen,
 * it is checked in full (401, 403, or the actor as it now is) and the reads run again. An error
 * before the check was judged is answered only after the full check.
 */
export async function readsConfirmingSession<T>(request: FastifyRequest, read: (first?: FirstStatement) => Promise<T>): Promise<T> {
  const pending = request.sessionToConfirm;
  if (!pending) return read();
  request.sessionToConfirm = null;
  try {
    const out = await read(pending.first);
    if (!pending.judged) await pending.confirm();
    return out;
  } catch (error) {
    const moved = sessionMoved(error);
    if (moved || !pending.judged) await pending.confirm();
    if (moved) return read();
    throw error;
  }
}

/** The session of a request that failed before its handler read (a refused query string): checked now. */
export async function confirmPendingSession(request: FastifyRequest): Promise<void> {
  const pending = request.sessionToConfirm;
  if (!pending) return;
  request.sessionToConfirm = null;
  await pending.confirm();
}

const sameActor = (a: Actor, b: Actor) =>
  a.kind === b.kind &&
  a.id === b.id &&
  a.role === b.role &&
  a.username === b.username &&
  a.firstName === b.firstName &&
  a.lastName === b.lastName &&
  a.tenantId === b.tenantId &&
  a.sessionId === b.sessionId;

const LAST_LIVE_MAX = 10_000;

const exempt = (url: string) => url === '/healthz' || url === '/api/docs' || url.startsWith('/api/docs/');

export const authPlugin = fp(async (app: FastifyInstance, opts: { database: Database; jwtKey: Uint8Array }) => {
  app.decorateRequest('actor', null);
  app.decorateRequest('readWithSession', null);
  app.decorateRequest('sessionToConfirm', null);
  /** Sessions last found live, by `<tenant>.<session>`, with their actor (see sessionInReads). */
  const lastLive = new Map<string, Actor>();

  /** What a live session's role may do here: 403 outside its areas, and a GUARDIAN outside hers. */
  const admit = (request: FastifyRequest, actor: Actor) => {
    const access = request.routeOptions.config?.access;
    if (access === undefined || access === 'public') return;
    if (access !== 'signed-in' && !can(actor.role, access.area, access.action)) {
      throw new DomainError('forbidden');
    }
    // A family's sign-in is walled off from the centre's routes: an area must name GUARDIAN
    // (portal, notifications, own account), or a route open to any sign-in must say so.
    if (access === 'signed-in' && actor.role === 'GUARDIAN' && request.routeOptions.config?.guardians !== true) {
      throw new DomainError('forbidden');
    }
  };

  const check = async (request: FastifyRequest, tid: number, sid: number) => {
    const key = `${tid}.${sid}`;
    const along = request.routeOptions.config?.readWithSession?.(tid) ?? [];
    const session = await checkSession(opts.database, tid, sid, along);
    if (session.status !== 'live') lastLive.delete(key);
    if (session.status === 'unknown') throw new DomainError('unauthorized');
    if (session.status === 'revoked') throw new DomainError('session-revoked');
    request.actor = session.actor;
    if (lastLive.size >= LAST_LIVE_MAX) lastLive.clear();
    lastLive.set(key, session.actor);
    if (along.length) request.readWithSession = session.along ?? null;
    admit(request, session.actor);
  };

  /** The check of a session taken as last seen, to travel as the first statement of the handler's reads. */
  const pending = (request: FastifyRequest, tid: number, sid: number, guess: Actor): PendingSession => {
    const self: PendingSession = {
      judged: false,
      first: {
        ...sessionCheckStatement(tid, sid),
        judge: (rows) => {
          self.judged = true;
          const found = sessionCheckOf(tid, sid, rows[0] as unknown as SessionRow | undefined);
          return found.status === 'live' && sameActor(found.actor, guess) ? undefined : new SessionMoved();
        },
      },
      confirm: () => check(request, tid, sid),
    };
    return self;
  };

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

    const config = request.routeOptions.config;
    const guess = config?.sessionInReads && !config.readWithSession ? lastLive.get(`${tid}.${sid}`) : undefined;
    if (guess) {
      try {
        admit(request, guess);
        // Taken as last seen; the handler's first reads confirm it before anything is answered.
        request.actor = guess;
        request.sessionToConfirm = pending(request, tid, sid, guess);
        return;
      } catch {
        // Refused as last seen: the full check below decides, on the session as it is now.
      }
    }
    await check(request, tid, sid);
  });
});
