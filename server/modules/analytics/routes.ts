/** Analytics, registered under /api/analytics: the contracts over a range of months (contracts.ts). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ContractAnalyticsAnswer, RESOURCE_AREA } from '../../../domain/index';
import type { Database } from '../../db/types';
import { withTenantReads } from '../../db/read-batch';
import { KeptReports, reportStampStatement, stampOf } from '../account/kept';
import { RANGE_QUERY, readRange } from '../account/query';
import { answerSchema } from '../../engine/answers';
import { ctxOf } from '../../engine/routes';
import { contractAnalytics } from './contracts';

export const analyticsRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  const kept = new KeptReports();
  app.get(
    '/contracts',
    {
      // The stamp of the centre's money comes with the session check: a kept answer costs no other read.
      config: { access: { area: RESOURCE_AREA.analytics!, action: 'read' }, readWithSession: (tenantId) => [reportStampStatement(tenantId)] },
      schema: {
        tags: ['analytics'],
        summary: 'Per month (?from=YYYY-MM&to=YYYY-MM): new and active contracts, expected vs collected, collection rate; outstanding by category and class',
        querystring: RANGE_QUERY,
        response: { 200: answerSchema(ContractAnalyticsAnswer) },
      },
    },
    async (request) => {
      const { from, to } = readRange(request.query);
      const ctx = ctxOf(request);
      const data = await kept.get(`${ctx.tenantId}|${from}|${to}`, stampOf(request.readWithSession?.[0]), () =>
        withTenantReads(database, ctx.tenantId, (tx) => contractAnalytics(tx, ctx.tenantId, from, to)),
      );
      return { data };
    },
  );
};
