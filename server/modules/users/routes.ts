/**
 * /api/users: staff accounts of the current tenant, for ROOT and ADMIN. Through here one may
 * give only the roles MANAGEABLE_ROLES_BY allows (ADMIN, SECRETARY); TEACHER accounts come
 * with teachers. Nobody deactivates or demotes their own account.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createdJsonSchema,
  createSchema,
  DomainError,
  listJsonSchema,
  MANAGEABLE_ROLES_BY,
  oneJsonSchema,
  parseListQuery,
  rowJsonSchema,
  updateSchema,
  USERS,
} from '../../../domain/index';
import { actorOf, tenantOf, type Actor } from '../../context';
import { and, eq, isNotNull } from 'drizzle-orm';
import { withTenant, type Database, type Tx } from '../../db/client';
import { teachers } from '../../db/schema/index';
import { hashPassword } from '../auth/passwords';
import { revokeUserSessions } from '../auth/sessions';
import { blankToNull, formBody } from '../body';
import { IdParams } from '../params';
import { getUser, insertUser, listUsers, updateUser, type UserPatch } from './repository';

const CreateBody = createSchema(USERS);
const PatchBody = updateSchema(USERS);
// POST /api/users with an id updates; the version is checked when given.
const PostUpdateBody = updateSchema(USERS, { versionRequired: false }).extend({ id: z.number().int().positive().max(2_147_483_647) });
/** Which of the two a POST is decides by the presence of `id`; the field codes are that schema's. */
const PostBody = z.preprocess(
  (body) => blankToNull(USERS, body),
  z.unknown().transform((body, ctx) => {
    const schema = body !== null && typeof body === 'object' && 'id' in body ? PostUpdateBody : CreateBody;
    const result = schema.safeParse(body, { reportInput: true });
    if (result.success) return result.data as Record<string, unknown>;
    ctx.issues.push(...(result.error.issues as typeof ctx.issues));
    return z.NEVER;
  }),
);

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

export const userRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  const tag = { tags: ['users'] };
  const row = rowJsonSchema(USERS);

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
    '',
    { config: { access: { area: 'users', action: 'list' } }, schema: { ...tag, summary: 'List users', response: { 200: listJsonSchema(row) } } },
    async (request, reply) => {
      const query = parseListQuery(USERS, request.query as Record<string, string | string[] | undefined>);
      const tenantId = tenantOf(request).id;
      const page = await withTenant(database, tenantId, (tx) => listUsers(tx, tenantId, query));
      reply.header('x-total-count', String(page.total));
      return page;
    },
  );

  app.get(
    '/:id',
    { config: { access: { area: 'users', action: 'read' } }, schema: { ...tag, summary: 'One user', params: IdParams, response: { 200: oneJsonSchema(row) } } },
    async (request) => {
      const { id } = request.params;
      const tenantId = tenantOf(request).id;
      return { data: await withTenant(database, tenantId, (tx) => getUser(tx, tenantId, id)) };
    },
  );

  app.post(
    '',
    {
      config: { access: { area: 'users', action: 'create' } },
      schema: {
        ...tag,
        summary: 'Create a user (or update one when the body has an id)',
        body: PostBody,
        response: { 200: createdJsonSchema(row), 201: createdJsonSchema(row) },
      },
    },
    async (request, reply) => {
      if ('id' in request.body) {
        const { id, version, ...rest } = request.body as { id: number; version?: number } & Record<string, unknown>;
        const data = await update(request, id, rest, version);
        return { id, data };
      }
      const body = request.body as {
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
    '/:id',
    {
      config: { access: { area: 'users', action: 'update' } },
      schema: {
        ...tag,
        summary: 'Update a user (version required)',
        params: IdParams,
        body: formBody(USERS, PatchBody),
        response: { 200: oneJsonSchema(row) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { version, ...rest } = request.body as PatchInput & { version: number };
      return { data: await update(request, id, rest, version) };
    },
  );

  app.delete(
    '/:id',
    { config: { access: { area: 'users', action: 'delete' } }, schema: { ...tag, summary: 'Deactivate a user (the row is kept)', params: IdParams } },
    async (request, reply) => {
      const { id } = request.params;
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
};
