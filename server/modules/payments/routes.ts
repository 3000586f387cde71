/** Payments, registered under /api/payments: the CRUD routes (rules in spec.ts) and the receipt number the form offers next. */
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Registry } from '../../engine/registry';
import { oneJsonSchema, PAYMENTS, RESOURCE_AREA } from '../../../domain/index';
import { withTenant, type Database } from '../../db/client';
import { payments } from '../../db/schema/index';
import { crudRoutes, ctxOf } from '../../engine/routes';
import { paymentsSpec } from './spec';

export const paymentRoutes: FastifyPluginAsyncZod<{ database: Database; registry: Registry }> = async (app, { database, registry }) => {
  const area = RESOURCE_AREA[PAYMENTS.name] ?? PAYMENTS.area;
  // A static segment: find-my-way prefers it to /:id whatever the order.
  app.get(
    '/next-bill-number',
    {
      config: { access: { area, action: 'read' } },
      schema: {
        tags: ['payments'],
        summary: 'One more than the highest numeric receipt number of the centre',
        response: { 200: oneJsonSchema({ type: 'object', properties: { bill_number: { type: 'string' } } }) },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      // Receipt numbers are text (a centre may write "A-12"); only the plain numbers count up.
      const [row] = await withTenant(database, ctx.tenantId, (tx) =>
        tx
          .select({
            next: sql<string>`(coalesce(max(case when ${payments.billNumber} ~ '^[0-9]{1,15}$' then ${payments.billNumber}::bigint end), 0) + 1)::text`,
          })
          .from(payments)
          .where(sql`${payments.tenantId} = ${ctx.tenantId}`),
      );
      return { data: { bill_number: row?.next ?? '1' } };
    },
  );
  await app.register(crudRoutes, { database, registry, spec: paymentsSpec });
};
