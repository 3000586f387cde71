/** Payments, registered under /api/payments: the CRUD routes (rules in spec.ts) and the receipt number the next payment with receipt will take. */
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Registry } from '../../engine/registry';
import { DomainError, oneJsonSchema, PAYMENTS, RESOURCE_AREA } from '../../../domain/index';
import type { Database } from '../../db/types';
import { withTenant } from '../../db/doors';
import { payments, receiptSeries } from '../../db/schema/index';
import { IdParams } from '../../engine/params';
import { cancelReceipt, centreDay, refundPayments, standingReceipt } from '../receipts/issue';
import { loadSettings } from '../settings/store';
import { crudRoutes, ctxOf } from '../../engine/routes';
import { paymentRefunded, paymentsSpec } from './spec';

const REFUND_BODY = z.strictObject({ reason: z.string().trim().min(3).max(500) });

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
  // docs/rules.md, Receipts: a refund of a payment (a mistaken one, or a withdrawn contract's credit).
  app.post(
    '/:id/refund',
    {
      config: { access: { area, action: 'update' } },
      schema: {
        tags: ['payments'],
        summary:
          'Refund a payment ({reason}) today: with a standing receipt, the CREDIT receipt that cancels it is issued; it then pays nothing and shows as refunded',
        params: IdParams,
        body: REFUND_BODY,
        response: {
          200: oneJsonSchema({
            type: 'object',
            properties: {
              payment_id: { type: 'integer' },
              refunded_on: { type: 'string', format: 'date' },
              credit_receipt_id: { type: ['integer', 'null'] },
            },
          }),
        },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      const id = request.params.id;
      const data = await withTenant(database, ctx.tenantId, async (tx) => {
        const [payment] = await tx
          .select({ id: payments.id, refundedOn: payments.refundedOn })
          .from(payments)
          .where(and(eq(payments.tenantId, ctx.tenantId), eq(payments.id, id)))
          .for('update');
        if (!payment) throw new DomainError('not-found');
        if (payment.refundedOn) throw paymentRefunded('refund');
        const day = await centreDay(tx, ctx.tenantId);
        const receipt = await standingReceipt(tx, ctx.tenantId, id);
        // With a receipt, its credit receipt refunds the payment; without, the refund is the record.
        const credit = receipt ? await cancelReceipt(tx, ctx.tenantId, ctx.actor, receipt.id, request.body.reason, day) : undefined;
        if (!credit) await refundPayments(tx, ctx.tenantId, ctx.actor, [id], day, request.body.reason);
        return { payment_id: id, refunded_on: day, credit_receipt_id: credit?.id ?? null };
      });
      return { data };
    },
  );
  await app.register(crudRoutes, { database, registry, spec: paymentsSpec });
};
