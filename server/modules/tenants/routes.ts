/**
 * /api/tenants: the centres on this platform, for ROOT only. Creating one creates its first
 * ADMIN in the same transaction; deactivating one ends all its sessions at once.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createSchema, DomainError, fieldSchema, parseBody, parseListQuery, TENANTS, updateSchema, USERS } from '../../../domain/index';
import { actorOf } from '../../context';
import { enterTenant, platform, withPlatform, type Database } from '../../db/client';
import { jsonSchema } from '../../plugins/openapi';
import { hashPassword } from '../auth/passwords';
import { forgetTenants } from '../../plugins/tenancy';
import { revokeTenantSessions } from '../auth/sessions';
import { blankToNull } from '../body';
import { parseId } from '../params';
import { insertUser } from '../users/repository';
import { findTenant, insertTenantAndEnter, listTenants, updateTenantAndEnter, type TenantPatch } from './repository';

const userField = (name: string) => {
  const def = USERS.fields.find((f) => f.name === name);
  if (!def) throw new Error(`USERS has no field ${name}`);
  return fieldSchema({ ...def, required: true });
};

const AdminBody = z.strictObject({
  username: userField('username'),
  password: userField('password'),
  first_name: userField('first_name'),
  last_name: userField('last_name'),
});
const CreateBody = createSchema(TENANTS).extend({ admin: AdminBody });
const PatchBody = updateSchema(TENANTS);

export async function tenantRoutes(app: FastifyInstance, { database }: { database: Database }) {
  const tag = { tags: ['tenants'] };

  app.get('/api/tenants', { config: { access: { area: 'tenants', action: 'list' } }, schema: { ...tag, summary: 'List tenants' } }, async (request, reply) => {
    const query = parseListQuery(TENANTS, request.query as Record<string, string | string[] | undefined>);
    const page = await listTenants(platform(database), query);
    reply.header('x-total-count', String(page.total));
    return page;
  });

  app.get('/api/tenants/:id', { config: { access: { area: 'tenants', action: 'read' } }, schema: { ...tag, summary: 'One tenant' } }, async (request) => {
    const id = parseId((request.params as { id?: string }).id);
    const data = await findTenant(platform(database), id);
    if (!data) throw new DomainError('not-found');
    return { data };
  });

  app.post(
    '/api/tenants',
    {
      config: { access: { area: 'tenants', action: 'create' } },
      schema: { ...tag, summary: 'Create a tenant with its first ADMIN', body: jsonSchema(CreateBody) },
    },
    async (request, reply) => {
      const body = parseBody(CreateBody, blankToNull(TENANTS, request.body)) as {
        slug: string;
        name: string;
        status?: string | null;
        time_zone?: string | null;
        language?: string | null;
        admin: z.infer<typeof AdminBody>;
      };
      const actor = actorOf(request);
      const passwordHash = await hashPassword(body.admin.password as string);
      const data = await withPlatform(database, async (tx) => {
        const tenant = await insertTenantAndEnter(tx, actor, body);
        const admin = body.admin as { username: string; first_name: string; last_name: string };
        await insertUser(tx, tenant.id, actor, { ...admin, passwordHash, role: 'ADMIN' });
        return tenant;
      });
      forgetTenants(database);
      return reply.code(201).send({ id: data.id, data });
    },
  );

  app.patch(
    '/api/tenants/:id',
    {
      config: { access: { area: 'tenants', action: 'update' } },
      schema: { ...tag, summary: 'Update a tenant (version required; the slug never changes)', body: jsonSchema(PatchBody) },
    },
    async (request) => {
      const id = parseId((request.params as { id?: string }).id);
      const { version, ...rest } = parseBody(PatchBody, blankToNull(TENANTS, request.body)) as unknown as TenantPatch & { version: number };
      for (const key of ['name', 'status', 'time_zone', 'language'] as const) {
        if ((rest as Record<string, unknown>)[key] === null) throw new DomainError('validation', undefined, { [key]: 'required' });
      }
      const actor = actorOf(request);
      const { after } = await withPlatform(database, async (tx) => {
        const result = await updateTenantAndEnter(tx, actor, id, rest, version);
        if (result.after.status === 'INACTIVE' && result.before.status !== 'INACTIVE') {
          await revokeTenantSessions(tx, id, 'tenant-deactivated');
        }
        return result;
      });
      forgetTenants(database);
      return { data: after };
    },
  );

  app.delete(
    '/api/tenants/:id',
    { config: { access: { area: 'tenants', action: 'delete' } }, schema: { ...tag, summary: 'Deactivate a tenant (rows are kept)' } },
    async (request, reply) => {
      const id = parseId((request.params as { id?: string }).id);
      const actor = actorOf(request);
      await withPlatform(database, async (tx) => {
        const current = await findTenant(tx, id, true);
        if (!current) throw new DomainError('not-found');
        if (current.status !== 'INACTIVE') await updateTenantAndEnter(tx, actor, id, { status: 'INACTIVE' }, undefined, 'delete');
        else await enterTenant(tx, id);
        await revokeTenantSessions(tx, id, 'tenant-deactivated');
      });
      forgetTenants(database);
      return reply.code(204).send();
    },
  );
}
