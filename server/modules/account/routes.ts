/**
 * The centre's account, registered under /api/account: one month (income, expenses, expected,
 * each split by receipt, and the net result) and one year (twelve months with their totals).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RESOURCE_AREA } from '../../../domain/index';
import { withTenant, type Database } from '../../db/client';
import { ctxOf } from '../../engine/routes';
import { data, MONTH_FIGURES, YEAR_FIGURES } from '../money-schemas';
import { monthFigures, totalOf } from './figures';
import { monthCode, readQuery, yearCode } from './query';

export const accountRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  const access = { area: RESOURCE_AREA.account!, action: 'read' as const };
  app.get(
    '/month',
    {
      config: { access },
      schema: {
        tags: ['account'],
        summary: 'One month (?month=YYYY-MM): income (by paid_on), expenses, expected; each with and without receipt; net',
        response: { 200: data(MONTH_FIGURES) },
      },
    },
    async (request) => {
      const { month } = readQuery(request.query, ['month'] as const, (_n, v) => monthCode(v));
      const ctx = ctxOf(request);
      const [figures] = await withTenant(database, ctx.tenantId, (tx) => monthFigures(tx, ctx.tenantId, month, month));
      return { data: figures };
    },
  );
  app.get(
    '/year',
    {
      config: { access },
      schema: { tags: ['account'], summary: 'Twelve months (?year=YYYY) side by side, with their totals', response: { 200: data(YEAR_FIGURES) } },
    },
    async (request) => {
      const { year } = readQuery(request.query, ['year'] as const, (_n, v) => yearCode(v));
      const ctx = ctxOf(request);
      const months = await withTenant(database, ctx.tenantId, (tx) => monthFigures(tx, ctx.tenantId, `${year}-01`, `${year}-12`));
      return { data: { year: Number(year), months, totals: totalOf(months) } };
    },
  );
};
