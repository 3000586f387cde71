/**
 * /api/mydata: the signed-in account's own data and password. A ROOT edits its root_users
 * row; a tenant user its users row. Changing the password ends every other session.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError, fieldSchema, oneJsonSchema, rowJsonSchema, USERS, type FieldErrors } from '../../../domain/index';
import { actorOf, tenantOf, type Actor } from '../../context';
import { enterTenant, platform, withPlatform, withTenant, type Database, type Queryable } from '../../db/client';
import { rootUsers, users } from '../../db/schema/index';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { revokeRootSessionsEverywhere, revokeUserSessions } from '../auth/sessions';
import { formBody } from '../body';
import { recordHistory } from '../history/record';
import { getUser, updateUser, type UserPatch } from '../users/repository';

const def = (name: string) => USERS.fields.find((f) => f.name === name)!;
const optionalText = (name: string) => fieldSchema(def(name)).nullable().optional();

const PatchBody = formBody(
  USERS,
  z.strictObject({
    first_name: fieldSchema(def('first_name')).optional(),
    last_name: fieldSchema(def('last_name')).optional(),
    email: optionalText('email'),
    phone: optionalText('phone'),
    version: z.number().int().min(0).max(2_147_483_647),
  }),
);
const PasswordBody = z.strictObject({
  current_password: z.string().min(1).max(1024),
  password: fieldSchema(def('password')),
  confirm_password: z.string().max(1024),
});

interface MyData {
  id: number;
  username: string;
  role: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  version: number;
}

const ROOT_SELECT = {
  id: rootUsers.id,
  username: rootUsers.username,
  firstName: rootUsers.firstName,
  lastName: rootUsers.lastName,
  email: rootUsers.email,
  phone: rootUsers.phone,
  version: rootUsers.version,
};

async function readRoot(db: Queryable, id: number): Promise<MyData> {
  const [r] = await db.select(ROOT_SELECT).from(rootUsers).where(eq(rootUsers.id, id));
  if (!r) throw new DomainError('not-found');
  return { id: r.id, username: r.username, role: 'ROOT', first_name: r.firstName, last_name: r.lastName, email: r.email, phone: r.phone, version: r.version };
}

const myView = (u: MyData): MyData => ({
  id: u.id,
  username: u.username,
  role: u.role,
  first_name: u.first_name,
  last_name: u.last_name,
  email: u.email,
  phone: u.phone,
  version: u.version,
});

async function readMine(database: Database, actor: Actor): Promise<MyData> {
  if (actor.kind === 'root') return readRoot(platform(database), actor.id);
  return myView(await withTenant(database, actor.tenantId, (tx) => getUser(tx, actor.tenantId, actor.id)));
}

/** The account as My data shows it: the users row's fields but status, and the role. */
const MyRow = rowJsonSchema({ ...USERS, fields: USERS.fields.filter((f) => f.name !== 'status') });

export const mydataRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  const tag = { tags: ['mydata'] };

  app.get(
    '',
    { config: { access: { area: 'mydata', action: 'read' } }, schema: { ...tag, summary: 'My account', response: { 200: oneJsonSchema(MyRow) } } },
    async (request) => ({ data: await readMine(database, actorOf(request)) }),
  );

  app.patch(
    '',
    {
      config: { access: { area: 'mydata', action: 'update' } },
      schema: { ...tag, summary: 'Change my names and contact details', body: PatchBody, response: { 200: oneJsonSchema(MyRow) } },
    },
    async (request) => {
      const { version, ...patch } = request.body;
      const actor = actorOf(request);
      const tenantId = tenantOf(request).id;
      if (actor.kind === 'user') {
        const { after } = await withTenant(database, tenantId, (tx) => updateUser(tx, tenantId, actor, actor.id, patch as UserPatch, version));
        return { data: myView(after) };
      }
      await withPlatform(database, async (tx) => {
        const before = await readRoot(tx, actor.id);
        if (before.version !== version) throw new DomainError('stale');
        const merged = { ...before, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
        await tx
          .update(rootUsers)
          .set({
            firstName: merged.first_name,
            lastName: merged.last_name,
            email: merged.email,
            phone: merged.phone,
            version: sql`${rootUsers.version} + 1`,
            updatedAt: sql`now()`,
          })
          .where(and(eq(rootUsers.id, actor.id), eq(rootUsers.version, version)));
        // Same transaction, now inside the tenant: the history row lands with the change.
        await enterTenant(tx, tenantId);
        await recordHistory(tx, tenantId, actor, { entity: 'root-users', entityId: actor.id, action: 'update', before: { ...before }, after: merged });
      });
      return { data: await readMine(database, actor) };
    },
  );

  app.post(
    '/password',
    {
      config: { access: { area: 'mydata', action: 'update' } },
      schema: { ...tag, summary: 'Change my password (ends my other sessions)', body: PasswordBody },
    },
    async (request, reply) => {
      const { body } = request;
      if (body.confirm_password !== body.password) {
        throw new DomainError('validation', 'The passwords do not match.', { confirm_password: 'mismatch' } as FieldErrors);
      }
      const actor = actorOf(request);
      const tenantId = tenantOf(request).id;
      const stored =
        actor.kind === 'root'
          ? (await platform(database).select({ hash: rootUsers.passwordHash }).from(rootUsers).where(eq(rootUsers.id, actor.id)))[0]
          : (
              await withTenant(database, tenantId, (tx) =>
                tx
                  .select({ hash: users.passwordHash })
                  .from(users)
                  .where(and(eq(users.tenantId, tenantId), eq(users.id, actor.id))),
              )
            )[0];
      if (!(await verifyPassword(stored?.hash, body.current_password))) {
        throw new DomainError('validation', 'The current password is not right.', { current_password: 'invalid' });
      }
      const passwordHash = await hashPassword(body.password);
      if (actor.kind === 'user') {
        await withTenant(database, tenantId, async (tx) => {
          await updateUser(tx, tenantId, actor, actor.id, { passwordHash }, undefined);
          await revokeUserSessions(tx, tenantId, actor.id, 'password-changed', actor.sessionId);
        });
      } else {
        await withPlatform(database, async (tx) => {
          await tx
            .update(rootUsers)
            .set({ passwordHash, version: sql`${rootUsers.version} + 1`, updatedAt: sql`now()` })
            .where(eq(rootUsers.id, actor.id));
          await enterTenant(tx, tenantId);
          await recordHistory(tx, tenantId, actor, {
            entity: 'root-users',
            entityId: actor.id,
            action: 'update',
            before: {},
            after: { password: true },
            secrets: ['password'],
          });
        });
        await revokeRootSessionsEverywhere(database, actor.id, 'password-changed', { tenantId, sessionId: actor.sessionId });
      }
      return reply.code(204).send();
    },
  );
};
