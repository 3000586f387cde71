/**
 * /api/tenants: the centres on this platform, for ROOT only, on the CRUD engine. Tenants are
 * platform rows (no tenant_id, no RLS); each write is recorded in that tenant's own history.
 * Creating one creates its first ADMIN in the same transaction; deactivating one ends all its
 * sessions at once.
 */
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { fieldSchema, TENANTS, USERS } from '../../../domain/index';
import type { Database } from '../../db/types';
import { enterTenant } from '../../db/doors';
import { tenants } from '../../db/schema/index';
import { forgetTenants } from '../../plugins/tenancy';
import { revokeTenantSessions } from '../auth/sessions';
import type { Registry } from '../../engine/registry';
import { prepareInput } from '../../engine/input';
import { crudRoutes } from '../../engine/routes';
import type { ResourceSpec } from '../../engine/spec';
import { createRow } from '../../engine/write';
import { userAccounts } from '../users/spec';

const userField = (name: string) => {
  const def = USERS.fields.find((f) => f.name === name);
  if (!def) throw new Error(`USERS has no field ${name}`);
  return fieldSchema({ ...def, required: true });
};

/** The tenant's first ADMIN, given with the tenant. */
const AdminBody = z.strictObject({
  username: userField('username'),
  password: userField('password'),
  first_name: userField('first_name'),
  last_name: userField('last_name'),
});

export const tenantsSpec: ResourceSpec = {
  def: TENANTS,
  table: tenants,
  label: sql`${tenants.name}`,
  historyTenant: (_ctx, row) => row.id,
  unique: { tenants_slug_key: 'slug' },
  createExtras: { admin: AdminBody },
  deactivates: true,
  async prepare(input, action) {
    if (action === 'update') return input;
    return { ...input, admin: await prepareInput(userAccounts, input.admin as Record<string, unknown>, 'create') };
  },
  async afterWrite({ tx, ctx, registry, input, before, after }) {
    // From here on the transaction works inside the tenant (the engine records history there next).
    await enterTenant(tx, after.id);
    if (!before) {
      const admin = { ...(input.admin as Record<string, unknown>), role: 'ADMIN', status: 'ACTIVE' };
      await createRow(tx, registry, { tenantId: after.id, actor: ctx.actor }, userAccounts, admin);
    } else if (after.status === 'INACTIVE' && before.status !== 'INACTIVE') {
      await revokeTenantSessions(tx, after.id, 'tenant-deactivated');
    }
  },
};

/** The engine's routes, and the tenant cache forgotten once a write is committed. */
export const tenantRoutes: FastifyPluginAsync<{ database: Database; registry: Registry }> = async (app, { database, registry }) => {
  app.addHook('onSend', async (request) => {
    if (request.method !== 'GET') forgetTenants(database);
  });
  await app.register(crudRoutes, { database, registry, spec: tenantsSpec });
};
