/** Payments, registered under /api/payments: the CRUD routes (rules in spec.ts) and the receipt number the next payment with receipt will take. */
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Registry } from '../../engine/registry';
import { oneJsonSchema, PAYMENTS, RESOURCE_AREA } from '../../../domain/index';
import { withTenant, type Database } from '../../db/client';
import { receiptSeries } from '../../db/schema/index';
import { loadSettings } from '../settings/store';
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
        summary: 'The number the next receipt of the centre will take ("<series>-<number>"), as a hint: it is given when a payment is written',
        response: { 200: oneJsonSchema({ type: 'object', properties: { bill_number: { type: 'string' } } }) },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      const next = await withTenant(database, ctx.tenantId, async (tx) => {
        const settings = await loadSettings(tx, ctx.tenantId);
        const [row] = await tx
          .select({ last: receiptSeries.lastNumber })
          .from(receiptSeries)
          .where(and(eq(receiptSeries.tenantId, ctx.tenantId), eq(receiptSeries.series, settings.receiptSeries)));
        return `${settings.receiptSeries}-${(row?.last ?? 0) + 1}`;
      });
      return { data: { bill_number: next } };
    },
  );
  await app.register(crudRoutes, { database, registry, spec: paymentsSpec });
};
