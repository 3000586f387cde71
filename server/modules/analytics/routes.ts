/** Analytics: the contracts over a range of months (contracts.ts). */
import type { FastifyInstance } from 'fastify';
import { RESOURCE_AREA } from '../../../domain/index';
import { withTenant, type Database } from '../../db/client';
import { readRange } from '../account/query';
import { ctxOf } from '../crud/routes';
import { contractAnalytics } from './contracts';

export async function analyticsRoutes(app: FastifyInstance, { database }: { database: Database }) {
  app.get(
    '/api/analytics/contracts',
    {
      config: { access: { area: RESOURCE_AREA.analytics!, action: 'read' } },
      schema: {
        tags: ['analytics'],
        summary: 'Per month from..to: new and active contracts, expected vs collected, collection rate; outstanding by category and class',
      },
    },
    async (request) => {
      const { from, to } = readRange(request.query);
      const ctx = ctxOf(request);
      return { data: await withTenant(database, ctx.tenantId, (tx) => contractAnalytics(tx, ctx.tenantId, from, to)) };
    },
  );
}
