/**
 * /api/users: staff accounts of the current tenant, for ROOT and ADMIN. Through here one may
 * give only the roles MANAGEABLE_ROLES_BY allows (ADMIN, SECRETARY); TEACHER accounts come
 * with teachers. Nobody deactivates or demotes their own account.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { createSchema, DomainError, MANAGEABLE_ROLES_BY, parseBody, parseListQuery, updateSchema, USERS } from '../../../domain/index';
import { actorOf, tenantOf, type Actor } from '../../context';
import { and, eq, isNotNull } from 'drizzle-orm';
import { withTenant, type Database, type Tx } from '../../db/client';
import { teachers } from '../../db/schema/index';
import { jsonSchema } from '../../plugins/openapi';
import { hashPassword } from '../auth/passwords';
import { revokeUserSessions } from '../auth/sessions';
import { blankToNull } from '../body';
import { parseId } from '../params';
import { getUser, insertUser, listUsers, updateUser, type UserPatch } from './repository';

const CreateBody = createSchema(USERS);
const PatchBody = updateSchema(USERS);
// POST /api/users with an id updates; the version is checked when given.
const PostUpdateBody = updateSchema(USERS, { versionRequired: false }).extend({ id: z.number().int().positive().max(2_147_483_647) });

type PatchInput = z.infer<typeof PatchBody>;

/** A deleted teacher keeps its user row for history; that sign-in stays off for good. */
async function isDeletedTeacher(tx: Tx, tenantId: number, userId: number) {
  const [row] = await tx
    .select({ id: teachers.id })
    .from(teachers)
    .where(and(eq(teachers.tenantId, tenantId), eq(teachers.userId, userId), isNotNull(teachers.deletedAt)))
    .limit(1);
  return row !== undefined;
}

const manageable = (actor: Actor, role: unknown) => (MANAGEABLE_ROLES_BY[actor.role] as readonly unknown[]).includes(role);
const isSelf = (actor: Actor, id: number) => actor.kind === 'user' && actor.id === id;

export async function userRoutes(app: FastifyInstance, { database }: { database: Database }) {
  const tag = { tags: ['users'] };

  async function update(request: FastifyRequest, id: number, input: Record<string, unknown>, version: number | undefined) {
    const actor = actorOf(request);
    const tenantId = tenantOf(request).id;
    const { password, ...fields } = input as PatchInput & { password?: string };
    const patch: UserPatch = Object.fromEntries(Object.entries(fields).filter(([k, v]) => k !== 'version' && v !== undefined)) as UserPatch;
    // Hash before the transaction: argon2 takes tens of milliseconds and must not hold locks.
    if (typeof password === 'string') patch.passwordHash = await hashPassword(password);
    if (patch.role === null) throw new DomainError('validation', undefined, { role: 'required' });
    if (patch.status === null) throw new DomainError('validation', undefined, { status: 'required' });

    return withTenant(database, tenantId, async (tx) => {
      const current = await getUser(tx, tenantId, id);
      if (patch.role !== undefined && patch.role !== current.role) {
        if (!manageable(actor, patch.role) || !manageable(actor, current.role)) {
          throw new DomainError('validation', 'This role cannot be given here.', { role: 'invalid-option' });
        }
        if (isSelf(actor, id)) throw new DomainError('conflict', 'You cannot change your own role.', { role: 'invalid' });
      }
      if (patch.status === 'ACTIVE' && current.status !== 'ACTIVE' && current.role === 'TEACHER' && (await isDeletedTeacher(tx, tenantId, id))) {
        throw new DomainError('conflict', 'This teacher was deleted; their sign-in cannot be reactivated.', { status: 'invalid' });
      }
      if (patch.status === 'INACTIVE' && isSelf(actor, id)) {
        throw new DomainError('conflict', 'You cannot deactivate your own account.', { status: 'invalid' });
      }
      const { before, after } = await updateUser(tx, tenantId, actor, id, patch, version);
      if (patch.passwordHash) {
        await revokeUserSessions(tx, tenantId, id, 'password-changed', isSelf(actor, id) ? actor.sessionId : undefined);
      }
      if (after.status === 'INACTIVE' && before.status !== 'INACTIVE') {
        await revokeUserSessions(tx, tenantId, id, 'deactivated');
      }
      return after;
    });
  }

  app.get(
    '/api/users',
    { config: { access: { area: 'users', action: 'list' } }, schema: { ...tag, summary: 'List users' } },
    async (request, reply: FastifyReply) => {
      const query = parseListQuery(USERS, request.query as Record<string, string | string[] | undefined>);
      const tenantId = tenantOf(request).id;
      const page = await withTenant(database, tenantId, (tx) => listUsers(tx, tenantId, query));
      reply.header('x-total-count', String(page.total));
      return page;
    },
  );

  app.get('/api/users/:id', { config: { access: { area: 'users', action: 'read' } }, schema: { ...tag, summary: 'One user' } }, async (request) => {
    const id = parseId((request.params as { id?: string }).id);
    const tenantId = tenantOf(request).id;
    return { data: await withTenant(database, tenantId, (tx) => getUser(tx, tenantId, id)) };
  });

  app.post(
    '/api/users',
    {
      config: { access: { area: 'users', action: 'create' } },
      schema: { ...tag, summary: 'Create a user (or update one when the body has an id)', body: jsonSchema(CreateBody) },
    },
    async (request, reply) => {
      const raw = blankToNull(USERS, request.body);
      if (raw && typeof raw === 'object' && 'id' in raw) {
        const body = parseBody(PostUpdateBody, raw);
        const { id, version, ...rest } = body as { id: number; version?: number } & Record<string, unknown>;
        const data = await update(request, id, rest, version);
        return { id, data };
      }
      const body = parseBody(CreateBody, raw) as z.infer<typeof CreateBody> & {
        username: string;
        password: string;
        role: string;
        first_name: string;
        last_name: string;
        email?: string | null;
        phone?: string | null;
        status?: string | null;
      };
      const actor = actorOf(request);
      if (!manageable(actor, body.role)) {
        throw new DomainError('validation', 'This role cannot be given here.', { role: 'invalid-option' });
      }
      const passwordHash = await hashPassword(body.password);
      const tenantId = tenantOf(request).id;
      const data = await withTenant(database, tenantId, (tx) => insertUser(tx, tenantId, actor, { ...body, passwordHash, status: body.status ?? 'ACTIVE' }));
      return reply.code(201).send({ id: data.id, data });
    },
  );

  app.patch(
    '/api/users/:id',
    {
      config: { access: { area: 'users', action: 'update' } },
      schema: { ...tag, summary: 'Update a user (version required)', body: jsonSchema(PatchBody) },
    },
    async (request) => {
      const id = parseId((request.params as { id?: string }).id);
      const body = parseBody(PatchBody, blankToNull(USERS, request.body));
      const { version, ...rest } = body as PatchInput & { version: number };
      return { data: await update(request, id, rest, version) };
    },
  );

  app.delete(
    '/api/users/:id',
    { config: { access: { area: 'users', action: 'delete' } }, schema: { ...tag, summary: 'Deactivate a user (the row is kept)' } },
    async (request, reply) => {
      const id = parseId((request.params as { id?: string }).id);
      const actor = actorOf(request);
      const tenantId = tenantOf(request).id;
      if (isSelf(actor, id)) throw new DomainError('conflict', 'You cannot deactivate your own account.');
      await withTenant(database, tenantId, async (tx) => {
        const current = await getUser(tx, tenantId, id);
        if (current.status !== 'INACTIVE') {
          await updateUser(tx, tenantId, actor, id, { status: 'INACTIVE' }, undefined, 'delete');
        }
        await revokeUserSessions(tx, tenantId, id, 'deactivated');
      });
      return reply.code(204).send();
    },
  );
}
