/**
 * The session protocol: /login, /me, /refresh-token, /sign-out.
 * Web clients get httpOnly cookies and a session public id; API clients get the tokens in
 * the body and send `Authorization: Bearer`.
 */
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError } from '../../../domain/index';
import type { Config } from '../../config';
import { actorOf, type Actor } from '../../context';
import type { Database } from '../../db/types';
import { platform, withTenant } from '../../db/doors';
import { rootUsers, users } from '../../db/schema/index';
import { accessTokenOf, ACCESS_COOKIE, REFRESH_COOKIE } from '../../plugins/auth';
import { isHttps } from '../../plugins/security';
import { DEVICE_COOKIE_DAYS, DEVICE_COOKIE_PATH, deviceKeyOf, newDeviceCookie } from './device-cookies';
import { attemptKeyOf, reserveLoginAttempt, settleLoginAttempt } from './login-attempts';
import { verifyPassword } from './passwords';
import { createSession, issueRefreshToken, revokeSession, rotateRefreshToken, sessionOfRefreshToken, subjectOf, type SessionUser } from './sessions';
import { readSignedClaims, refreshTokenTenant, signAccessToken } from './tokens';

const LoginBody = z.strictObject({
  username: z.string().trim().min(1).max(200),
  password: z.string().min(1).max(1024),
  tenant: z.string().trim().max(100).optional(),
});

const REFRESH_PATHS = ['/sign-out', '/refresh-token'] as const;

/** Bodies are optional on refresh and sign-out: no body, an empty body or a JSON object. */
const optionalBody = (body: unknown) => (body === undefined || body === null || body === '' ? {} : body);
const RefreshBody = z.preprocess(optionalBody, z.strictObject({ refresh_token: z.string().max(200).optional() }));
const SignOutBody = z.preprocess(optionalBody, z.strictObject({ data: z.unknown().optional(), refresh_token: z.string().max(200).optional() }));

/** The session's user, camelCase as the web client stores it. */
const SessionUserSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    username: { type: 'string' },
    role: { type: 'string' },
    firstName: { type: 'string' },
    lastName: { type: 'string' },
    // The centre's display name, for what the client prints (receipts).
    tenantName: { type: 'string' },
  },
};
const SessionAnswer = {
  type: 'object',
  properties: { user: SessionUserSchema, token: { type: 'string' }, refresh_token: { type: 'string' }, exp: { type: 'integer' } },
};

export const sessionUser = (actor: Actor, tenant?: { name: string } | null): SessionUser => ({
  id: actor.id,
  username: actor.username,
  role: actor.role,
  firstName: actor.firstName,
  lastName: actor.lastName,
  ...(tenant ? { tenantName: tenant.name } : {}),
});

interface Deps {
  database: Database;
  config: Config;
  jwtKey: Uint8Array;
}

type Candidate = { kind: 'user' | 'root'; id: number; hash: string; status: string; username: string; role: string; first: string; last: string };

async function findCandidates(database: Database, tenantId: number, username: string): Promise<Candidate[]> {
  const key = username.toLowerCase();
  const tenantUser = await withTenant(database, tenantId, (tx) =>
    tx
      .select({
        id: users.id,
        hash: users.passwordHash,
        status: users.status,
        username: users.username,
        role: users.role,
        first: users.firstName,
        last: users.lastName,
      })
      .from(users)
      .where(sql`${users.tenantId} = ${tenantId} and lower(${users.username}) = ${key}`)
      .limit(1),
  );
  const root = await platform(database)
    .select({
      id: rootUsers.id,
      hash: rootUsers.passwordHash,
      status: rootUsers.status,
      username: rootUsers.username,
      first: rootUsers.firstName,
      last: rootUsers.lastName,
    })
    .from(rootUsers)
    .where(sql`lower(${rootUsers.username}) = ${key}`)
    .limit(1);
  return [...tenantUser.map((u) => ({ ...u, kind: 'user' as const })), ...root.map((r) => ({ ...r, kind: 'root' as const, role: 'ROOT' }))];
}

export const authRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  const { database, config, jwtKey } = deps;
  const deviceKey = deviceKeyOf(jwtKey);

  const cookieBase = (request: FastifyRequest) => ({ httpOnly: true, secure: isHttps(request) });

  function setSessionCookies(request: FastifyRequest, reply: FastifyReply, access: string, refresh: string) {
    reply.setCookie(ACCESS_COOKIE, access, { ...cookieBase(request), sameSite: 'lax', path: '/', maxAge: config.accessTtlSeconds });
    // The same token on both paths it is needed at, and nowhere else: /sign-out must end
    // the session even after the access cookie has expired and gone.
    for (const path of REFRESH_PATHS) {
      reply.setCookie(REFRESH_COOKIE, refresh, { ...cookieBase(request), sameSite: 'strict', path, maxAge: config.refreshTtlSeconds });
    }
  }

  function clearSessionCookies(request: FastifyRequest, reply: FastifyReply) {
    reply.clearCookie(ACCESS_COOKIE, { ...cookieBase(request), sameSite: 'lax', path: '/' });
    for (const path of REFRESH_PATHS) reply.clearCookie(REFRESH_COOKIE, { ...cookieBase(request), sameSite: 'strict', path });
  }

  async function answerSession(request: FastifyRequest, reply: FastifyReply, actor: Actor, publicId: string, refreshToken: string) {
    const { token, exp } = await signAccessToken(jwtKey, { tid: actor.tenantId, sid: actor.sessionId, sub: subjectOf(actor) }, config.accessTtlSeconds);
    const user = sessionUser(actor, request.tenant);
    reply.header('cache-control', 'no-store');
    if (request.clientType === 'api') return { user, token, refresh_token: refreshToken, exp };
    setSessionCookies(request, reply, token, refreshToken);
    return { user, token: publicId, exp };
  }

  app.post(
    '/login',
    {
      config: { access: 'public' },
      schema: { tags: ['session'], summary: 'Sign in', body: LoginBody, response: { 200: SessionAnswer } },
    },
    async (request, reply) => {
      const { body } = request;
      const tenant = request.tenant;
      const slug = String(request.headers['x-tenant-id'] ?? '')
        .trim()
        .toLowerCase();
      if (body.tenant !== undefined && body.tenant.toLowerCase() !== slug) {
        throw new DomainError('tenant-mismatch', 'The tenant in the body does not match x-tenant-id.');
      }
      const {
        key: attempt,
        cookieName,
        budgetKey,
      } = await attemptKeyOf(database, deviceKey, {
        tenantId: tenant?.id ?? null,
        username: body.username,
        address: request.ip,
        cookies: request.cookies,
      });
      // Reserved before the password check: parallel attempts cannot all slip under the limit.
      const attemptId = await reserveLoginAttempt(database, config.loginRateLimit, attempt);

      if (!tenant) {
        await verifyPassword(null, body.password);
        throw new DomainError('bad-credentials');
      }
      if (tenant.status !== 'ACTIVE') throw new DomainError('tenant-inactive');

      const candidates = await findCandidates(database, tenant.id, body.username);
      let match: Candidate | null = null;
      for (const c of candidates) {
        if (await verifyPassword(c.hash, body.password)) {
          match = c;
          break;
        }
      }
      if (candidates.length === 0) await verifyPassword(null, body.password);
      if (match?.status !== 'ACTIVE') throw new DomainError('bad-credentials');
      await settleLoginAttempt(database, attemptId, attempt);
      if (request.clientType !== 'api') {
        const cookie = newDeviceCookie(deviceKey, budgetKey, attempt.device ?? undefined);
        reply.setCookie(cookieName, cookie.value, {
          ...cookieBase(request),
          sameSite: 'strict',
          path: DEVICE_COOKIE_PATH,
          maxAge: DEVICE_COOKIE_DAYS * 24 * 3600,
        });
      }

      const found = match;
      const { session, refreshToken } = await withTenant(database, tenant.id, async (tx) => {
        const session = await createSession(
          tx,
          tenant.id,
          { kind: found.kind, id: found.id },
          {
            userAgent: request.headers['user-agent'],
            address: request.ip,
          },
        );
        const refreshToken = await issueRefreshToken(tx, tenant.id, session.id, config.refreshTtlSeconds);
        return { session, refreshToken };
      });
      const actor: Actor = {
        kind: found.kind,
        id: found.id,
        username: found.username,
        role: found.role as Actor['role'],
        firstName: found.first,
        lastName: found.last,
        tenantId: tenant.id,
        sessionId: session.id,
      };
      return answerSession(request, reply, actor, session.publicId, refreshToken);
    },
  );

  app.get(
    '/me',
    {
      config: { access: 'signed-in', guardians: true },
      schema: {
        tags: ['session'],
        summary: 'The signed-in user',
        response: { 200: { type: 'object', properties: { data: { type: 'object', properties: { user: SessionUserSchema } } } } },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: { user: sessionUser(actorOf(request), request.tenant) } };
    },
  );

  app.post(
    '/refresh-token',
    {
      config: { access: 'public' },
      schema: { tags: ['session'], summary: 'Rotate the refresh token and get a new access token', body: RefreshBody, response: { 200: SessionAnswer } },
    },
    async (request, reply) => {
      const { body } = request;
      const token = body.refresh_token ?? request.cookies[REFRESH_COOKIE];
      if (!token) throw new DomainError('session-expired');
      const tenantId = refreshTokenTenant(token);
      if (tenantId === null) throw new DomainError('session-expired');
      if (!request.tenant || request.tenant.id !== tenantId) throw new DomainError('tenant-mismatch');
      if (request.tenant.status !== 'ACTIVE') throw new DomainError('session-revoked');
      // The transaction commits even when reuse is detected, so the family stays revoked.
      const outcome = await withTenant(database, tenantId, (tx) => rotateRefreshToken(tx, tenantId, token, config.refreshTtlSeconds));
      if (outcome.status !== 'rotated') {
        if (request.clientType !== 'api') clearSessionCookies(request, reply);
        throw new DomainError(outcome.status === 'revoked' ? 'session-revoked' : 'session-expired');
      }
      return answerSession(request, reply, outcome.actor, outcome.publicId, outcome.refreshToken);
    },
  );

  app.post(
    '/sign-out',
    {
      config: { access: 'public' },
      schema: {
        tags: ['session'],
        summary: 'End the session (its whole refresh family)',
        body: SignOutBody,
        response: { 204: { description: 'Signed out: no body', type: 'null' } },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const tenant = request.tenant;
      if (tenant) {
        // Works with an expired access token: the signature still proves which session it was.
        const access = accessTokenOf(request);
        const claims = access ? await readSignedClaims(jwtKey, access) : null;
        const refresh = body.refresh_token ?? request.cookies[REFRESH_COOKIE];
        await withTenant(database, tenant.id, async (tx) => {
          if (claims && claims.tid === tenant.id) await revokeSession(tx, tenant.id, claims.sid, 'sign-out');
          if (refresh && refreshTokenTenant(refresh) === tenant.id) {
            const sessionId = await sessionOfRefreshToken(tx, tenant.id, refresh);
            if (sessionId) await revokeSession(tx, tenant.id, sessionId, 'sign-out');
          }
        });
      }
      clearSessionCookies(request, reply);
      return reply.code(204).send();
    },
  );
};
