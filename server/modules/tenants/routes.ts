/**
 * /api/tenants: the centres on this platform, for ROOT only. Creating one creates its first
 * ADMIN in the same transaction; deactivating one ends all its sessions at once.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createdJsonSchema,
  createSchema,
  DomainError,
  fieldSchema,
  listJsonSchema,
  oneJsonSchema,
  parseListQuery,
  rowJsonSchema,
  TENANTS,
  updateSchema,
  USERS,
} from '../../../domain/index';
import { actorOf } from '../../context';
import { enterTenant, platform, withPlatform, type Database } from '../../db/client';
import { hashPassword } from '../auth/passwords';
import { forgetTenants } from '../../plugins/tenancy';
import { revokeTenantSessions } from '../auth/sessions';
import { formBody } from '../body';
import { IdParams } from '../params';
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
const CreateBody = formBody(TENANTS, createSchema(TENANTS).extend({ admin: AdminBody }));
const PatchBody = formBody(TENANTS, updateSchema(TENANTS));

export const tenantRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  const tag = { tags: ['tenants'] };
  const row = rowJsonSchema(TENANTS);

  app.get(
    '',
    { config: { access: { area: 'tenants', action: 'list' } }, schema: { ...tag, summary: 'List tenants', response: { 200: listJsonSchema(row) } } },
    async (request, reply) => {
      const query = parseListQuery(TENANTS, request.query as Record<string, string | string[] | undefined>);
      const page = await listTenants(platform(database), query);
      reply.header('x-total-count', String(page.total));
      return page;
    },
  );

  app.get(
    '/:id',
    {
      config: { access: { area: 'tenants', action: 'read' } },
      schema: { ...tag, summary: 'One tenant', params: IdParams, response: { 200: oneJsonSchema(row) } },
    },
    async (request) => {
      const data = await findTenant(platform(database), request.params.id);
      if (!data) throw new DomainError('not-found');
      return { data };
    },
  );

  app.post(
    '',
    {
      config: { access: { area: 'tenants', action: 'create' } },
      schema: { ...tag, summary: 'Create a tenant with its first ADMIN', body: CreateBody, response: { 201: createdJsonSchema(row) } },
    },
    async (request, reply) => {
      const body = request.body as {
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
    '/:id',
    {
      config: { access: { area: 'tenants', action: 'update' } },
      schema: {
        ...tag,
        summary: 'Update a tenant (version required; the slug never changes)',
        params: IdParams,
        body: PatchBody,
        response: { 200: oneJsonSchema(row) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { version, ...rest } = request.body as unknown as TenantPatch & { version: number };
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
    '/:id',
    { config: { access: { area: 'tenants', action: 'delete' } }, schema: { ...tag, summary: 'Deactivate a tenant (rows are kept)', params: IdParams } },
    async (request, reply) => {
      const { id } = request.params;
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
};
