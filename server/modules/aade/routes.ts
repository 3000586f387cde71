/**
 * `GET /api/receipts/<id>/mydata.xml`: the myDATA document of a receipt, as the job sends it
 * to AADE (an InvoicesDoc that validates against AADE's schema), for the office to see or file.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DomainError } from '../../../domain/index';
import type { Database } from '../../db/types';
import { withTenant } from '../../db/doors';
import { IdParams } from '../../engine/params';
import { ctxOf } from '../../engine/routes';
import { receiptDocument } from './job';

export const aadeDocumentRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  app.get(
    '/:id/mydata.xml',
    {
      config: { access: { area: 'receipts', action: 'read' as const } },
      schema: {
        tags: ['receipts'],
        summary: "The receipt's myDATA document (AADE's InvoicesDoc v2.0.1: 11.2, or 11.4 for a credit receipt)",
        params: IdParams,
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(request);
      const xml = await withTenant(database, ctx.tenantId, (tx) => receiptDocument(tx, ctx.tenantId, request.params.id));
      if (xml === null) throw new DomainError('not-found');
      return reply.type('application/xml; charset=utf-8').header('cache-control', 'no-store').send(xml);
    },
  );
};
