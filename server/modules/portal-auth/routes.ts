/**
 * The portal's doors. Public, on the centre's own host (the tenant comes from it, as for
 * /login): GET /api/invitation?token= tells the invitation page whom the link is for;
 * POST /api/invitation {token, password} chooses her password and makes her sign-in. Both
 * draw on the sign-in rate limits (per address, and per link). For the office:
 * GET /api/guardians/:id/portal (her access as the staff see it) and
 * POST /api/guardians/:id/invitation (a fresh invitation; the older link stops working) and
 * POST /api/guardians/:id/invitation-link (the same, handed by the office rather than e-mailed).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError, USERS, fieldSchema } from '../../../domain/index';
import { GuardianPortalStateAnswer, InvitationLinkAnswer } from '../../../domain/answers/portal';
import type { Config } from '../../config';
import type { TenantRef } from '../../context';
import type { Database, Tx } from '../../db/types';
import { withTenant } from '../../db/doors';
import { queryRows } from '../../db/statements';
import { sql } from 'drizzle-orm';
import { answerSchema } from '../../engine/answers';
import { IdParams } from '../../engine/params';
import { ctxOf } from '../../engine/routes';
import { can } from '../../../domain/access';
import { hashPassword } from '../auth/passwords';
import { reserveLoginAttempt, settleLoginAttempt, type AttemptKey } from '../auth/login-attempts';
import { acceptInvitation, hashToken, inviteGuardian, openInvitation, portalState, type InvitedGuardian } from './invitations';

/** A token is 32 random bytes in base64url (43 characters); anything far from that is no token. */
const Token = z.string().trim().min(1).max(200);
const TokenQuery = z.strictObject({ token: Token });
const AcceptBody = z.strictObject({
  token: Token,
  password: fieldSchema(USERS.fields.find((f) => f.name === 'password')!),
});

const InvitationAnswer = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'object',
      required: ['email', 'first_name', 'expires_at'],
      properties: { email: { type: 'string' }, first_name: { type: 'string' }, expires_at: { type: 'string' } },
    },
  },
} as const;

const noBody = { description: 'Done: no body', type: 'null' } as const;

export const portalAuthRoutes: FastifyPluginAsyncZod<{ database: Database; config: Config }> = async (app, { database, config }) => {
  /** The centre the host names, active; a link of an unknown or closed centre is no link. */
  const centreOf = (tenant: TenantRef | null): TenantRef => {
    if (!tenant) throw new DomainError('invitation-invalid');
    if (tenant.status !== 'ACTIVE') throw new DomainError('tenant-inactive');
    return tenant;
  };

  /** Draws one try on the sign-in limits: the caller's address, and the link itself (by its hash). */
  async function reserve(tenant: TenantRef | null, token: string, address: string) {
    const key: AttemptKey = { tenantId: tenant?.id ?? null, username: `invitation:${hashToken(token).slice(0, 32)}`, address, device: null };
    const id = await reserveLoginAttempt(database, config.loginRateLimit, key);
    return { settle: () => settleLoginAttempt(database, id, key) };
  }

  app.get(
    '/api/invitation',
    {
      config: { access: 'public' },
      schema: { tags: ['portal'], summary: 'Whom a portal invitation link is for', querystring: TokenQuery, response: { 200: InvitationAnswer } },
    },
    async (request, reply) => {
      const { token } = request.query;
      const attempt = await reserve(request.tenant, token, request.ip);
      const tenant = centreOf(request.tenant);
      const invitation = await withTenant(database, tenant.id, (tx) => openInvitation(tx, tenant.id, token));
      await attempt.settle();
      reply.header('cache-control', 'no-store');
      return { data: { email: invitation.email, first_name: invitation.first_name, expires_at: invitation.expires_at } };
    },
  );

  app.post(
    '/api/invitation',
    {
      config: { access: 'public' },
      schema: { tags: ['portal'], summary: 'Accept a portal invitation: choose the password', body: AcceptBody, response: { 204: noBody } },
    },
    async (request, reply) => {
      const { token, password } = request.body;
      const attempt = await reserve(request.tenant, token, request.ip);
      const tenant = centreOf(request.tenant);
      // Checked before the slow hash, and again under lock when it is spent.
      await withTenant(database, tenant.id, (tx) => openInvitation(tx, tenant.id, token));
      const passwordHash = await hashPassword(String(password));
      await withTenant(database, tenant.id, (tx) => acceptInvitation(tx, tenant.id, token, passwordHash));
      await attempt.settle();
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/guardians/:id/portal',
    {
      config: { access: { area: 'guardians', action: 'read' } },
      schema: {
        tags: ['guardians'],
        summary: 'Her portal access: invited, signed up, last signed in',
        params: IdParams,
        response: { 200: answerSchema(GuardianPortalStateAnswer) },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      const opts = { mail: !!config.smtpUrl, showLink: !!ctx.actor && can(ctx.actor.role, 'guardians', 'update') };
      return { data: await withTenant(database, ctx.tenantId, (tx) => portalState(tx, ctx.tenantId, request.params.id, opts)) };
    },
  );

  /** Her row under lock, for a fresh invitation: only while her portal access is on. */
  async function invitedGuardian(tx: Tx, tenantId: number, id: number) {
    const [guardian] = await queryRows<InvitedGuardian & { portal: boolean }>(
      tx,
      sql`select id, first_name, last_name, email, relation, portal from guardians where tenant_id = ${tenantId} and id = ${id} for update`,
    );
    if (!guardian) throw new DomainError('not-found');
    if (!guardian.portal) throw new DomainError('conflict', 'Portal access is off for this guardian.', { portal: 'invalid' });
    return guardian;
  }

  app.post(
    '/api/guardians/:id/invitation',
    {
      config: { access: { area: 'guardians', action: 'update' } },
      schema: { tags: ['guardians'], summary: 'Send her portal invitation again (the older link stops working)', params: IdParams, response: { 204: noBody } },
    },
    async (request, reply) => {
      const ctx = ctxOf(request);
      await withTenant(database, ctx.tenantId, async (tx) =>
        inviteGuardian(tx, ctx.tenantId, ctx.actor, ctx.origin, await invitedGuardian(tx, ctx.tenantId, request.params.id)),
      );
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/guardians/:id/invitation-link',
    {
      config: { access: { area: 'guardians', action: 'update' } },
      schema: {
        tags: ['guardians'],
        summary: 'A fresh one-time invitation link for the office to hand her (nothing is e-mailed; the older link stops working)',
        params: IdParams,
        response: { 200: answerSchema(InvitationLinkAnswer) },
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(request);
      const data = await withTenant(database, ctx.tenantId, async (tx) =>
        inviteGuardian(tx, ctx.tenantId, ctx.actor, ctx.origin, await invitedGuardian(tx, ctx.tenantId, request.params.id), { mail: false }),
      );
      reply.header('cache-control', 'no-store');
      return { data };
    },
  );
};
