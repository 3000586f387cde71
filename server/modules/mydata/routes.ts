/**
 * /api/mydata: the signed-in account's own data and password. A tenant user edits its users
 * row through the CRUD engine (so the same history and session rules apply); a ROOT its
 * root_users row. Changing the password ends every other session.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError, fieldSchema, oneJsonSchema, rowJsonSchema, updateSchema, USERS, type FieldErrors, type ResourceDef } from '../../../domain/index';
import type { MyDataRow } from '../../../domain/resources/users';
import { actorOf, tenantOf, type Actor } from '../../context';
import type { Database, Queryable } from '../../db/types';
import { enterTenant, platform, withPlatform, withTenant } from '../../db/doors';
import { rootUsers, users } from '../../db/schema/index';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { revokeRootSessionsEverywhere } from '../auth/sessions';
import { formBody } from '../../engine/body';
import { recordHistory } from '../../engine/history';
import type { Registry } from '../../engine/registry';
import { prepareInput } from '../../engine/input';
import { findRow } from '../../engine/read';
import { declaredRow } from '../../engine/spec';
import { updateRow } from '../../engine/write';
import { userAccounts } from '../users/spec';

/** The part of a users row one edits here: names and contact details. */
const EDITABLE = ['first_name', 'last_name', 'email', 'phone'];
const usersWith = (names: readonly string[]): ResourceDef => ({ ...USERS, fields: USERS.fields.filter((f) => names.includes(f.name)) });

/** Beside the users fields: whether notifications also come by e-mail (a ROOT has none, so ignored). */
const PatchBody = formBody(USERS, updateSchema(usersWith(EDITABLE)).extend({ email_notifications: z.boolean().optional() }));
const PasswordBody = z.strictObject({
  current_password: z.string().min(1).max(1024),
  password: fieldSchema(USERS.fields.find((f) => f.name === 'password')!),
  confirm_password: z.string().max(1024),
});

const MyRow = rowJsonSchema(usersWith(['username', 'role', ...EDITABLE]), { email_notifications: { type: 'boolean' } });

const ROOT_SELECT = {
  id: rootUsers.id,
  username: rootUsers.username,
  firstName: rootUsers.firstName,
  lastName: rootUsers.lastName,
  email: rootUsers.email,
  phone: rootUsers.phone,
  version: rootUsers.version,
};

async function readRoot(db: Queryable, id: number): Promise<MyDataRow> {
  const [r] = await db.select(ROOT_SELECT).from(rootUsers).where(eq(rootUsers.id, id));
  if (!r) throw new DomainError('not-found');
  const row: MyDataRow = {
    id: r.id,
    username: r.username,
    role: 'ROOT',
    first_name: r.firstName,
    last_name: r.lastName,
    email: r.email,
    phone: r.phone,
    version: r.version,
  };
  // A ROOT has no notifications, so no e-mail copies either.
  return Object.assign(row, { email_notifications: false });
}

async function readMine(database: Database, registry: Registry, actor: Actor): Promise<MyDataRow> {
  if (actor.kind === 'root') return readRoot(platform(database), actor.id);
  const ctx = { tenantId: actor.tenantId, actor };
  const row = await withTenant(database, actor.tenantId, async (tx) => {
    const found = await findRow(tx, registry, ctx, userAccounts, actor.id);
    const [prefs] = await tx
      .select({ emailNotifications: users.emailNotifications })
      .from(users)
      .where(and(eq(users.tenantId, actor.tenantId), eq(users.id, actor.id)));
    return found && { ...found, email_notifications: prefs?.emailNotifications ?? false };
  });
  if (!row) throw new DomainError('not-found');
  return declaredRow(USERS, row);
}

export const mydataRoutes: FastifyPluginAsyncZod<{ database: Database; registry: Registry }> = async (app, { database, registry }) => {
  const tag = { tags: ['mydata'] };

  app.get(
    '',
    { config: { access: { area: 'mydata', action: 'read' } }, schema: { ...tag, summary: 'My account', response: { 200: oneJsonSchema(MyRow) } } },
    async (request) => ({ data: await readMine(database, registry, actorOf(request)) }),
  );

  app.patch(
    '',
    {
      config: { access: { area: 'mydata', action: 'update' } },
      schema: { ...tag, summary: 'Change my names and contact details', body: PatchBody, response: { 200: oneJsonSchema(MyRow) } },
    },
    async (request) => {
      const {
        version,
        email_notifications: emailNotifications,
        ...patch
      } = request.body as Record<string, unknown> & {
        version: number;
        email_notifications?: boolean;
      };
      const actor = actorOf(request);
      const tenantId = tenantOf(request).id;
      if (actor.kind === 'user') {
        const ctx = { tenantId, actor };
        await withTenant(database, tenantId, async (tx) => {
          await updateRow(tx, registry, ctx, userAccounts, actor.id, patch, version);
          if (emailNotifications === undefined) return;
          const mine = and(eq(users.tenantId, tenantId), eq(users.id, actor.id));
          const [before] = await tx.select({ on: users.emailNotifications }).from(users).where(mine);
          if (before?.on === emailNotifications) return;
          await tx.update(users).set({ emailNotifications }).where(mine);
          await recordHistory(tx, tenantId, actor, {
            entity: 'users',
            entityId: actor.id,
            action: 'update',
            before: { email_notifications: before?.on ?? false },
            after: { email_notifications: emailNotifications },
          });
        });
        return { data: await readMine(database, registry, actor) };
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
      return { data: await readMine(database, registry, actor) };
    },
  );

  app.post(
    '/password',
    {
      config: { access: { area: 'password', action: 'update' } },
      schema: {
        ...tag,
        summary: 'Change my password (ends my other sessions)',
        body: PasswordBody,
        response: { 204: { description: 'Changed: no body', type: 'null' } },
      },
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
      if (actor.kind === 'user') {
        // The engine's user hooks end every other session of this user.
        const input = await prepareInput(userAccounts, { password: body.password }, 'update');
        await withTenant(database, tenantId, (tx) => updateRow(tx, registry, { tenantId, actor }, userAccounts, actor.id, input, undefined));
      } else {
        const passwordHash = await hashPassword(body.password);
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
