/**
 * The centre's account: one month (income, expenses, expected, each split by receipt, and the
 * net result) and one year (twelve months side by side with their totals).
 */
import type { FastifyInstance } from 'fastify';
import { RESOURCE_AREA } from '../../../domain/index';
import { withTenant, type Database } from '../../db/client';
import { ctxOf } from '../crud/routes';
import { monthFigures, totalOf } from './figures';
import { monthCode, readQuery, yearCode } from './query';

export async function accountRoutes(app: FastifyInstance, { database }: { database: Database }) {
  const access = { area: RESOURCE_AREA.account!, action: 'read' as const };
  app.get(
    '/api/account/month',
    { config: { access }, schema: { tags: ['account'], summary: 'One month: income (by paid_on), expenses, expected; each with and without receipt; net' } },
    async (request) => {
      const { month } = readQuery(request.query, ['month'] as const, (_n, v) => monthCode(v));
      const ctx = ctxOf(request);
      const [figures] = await withTenant(database, ctx.tenantId, (tx) => monthFigures(tx, ctx.tenantId, month, month));
      return { data: figures };
    },
  );
  app.get(
    '/api/account/year',
    { config: { access }, schema: { tags: ['account'], summary: 'Twelve months of the account side by side, with their totals' } },
    async (request) => {
      const { year } = readQuery(request.query, ['year'] as const, (_n, v) => yearCode(v));
      const ctx = ctxOf(request);
      const months = await withTenant(database, ctx.tenantId, (tx) => monthFigures(tx, ctx.tenantId, `${year}-01`, `${year}-12`));
      return { data: { year: Number(year), months, totals: totalOf(months) } };
    },
  );
}
