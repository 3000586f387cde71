/**
 * The centre's account, registered under /api/account: one month (income, expenses, expected,
 * each split by receipt, and the net result) and one year (twelve months with their totals).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AccountMonthAnswer, AccountYearAnswer, RESOURCE_AREA } from '../../../domain/index';
import { withTenantReads, type Database } from '../../db/client';
import { ctxOf } from '../../engine/routes';
import { answerSchema } from '../../engine/answers';
import { monthFigures, totalOf } from './figures';
import { MONTH_QUERY, monthCode, readQuery, YEAR_QUERY, yearCode } from './query';

export const accountRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  const access = { area: RESOURCE_AREA.account!, action: 'read' as const };
  app.get(
    '/month',
    {
      config: { access },
      schema: {
        tags: ['account'],
        summary: 'One month (?month=YYYY-MM): income (by paid_on), expenses, expected; each with and without receipt; net',
        querystring: MONTH_QUERY,
        response: { 200: answerSchema(AccountMonthAnswer) },
      },
    },
    async (request) => {
      const { month } = readQuery(request.query, ['month'] as const, (_n, v) => monthCode(v));
      const ctx = ctxOf(request);
      const [figures] = await withTenantReads(database, ctx.tenantId, (tx) => monthFigures(tx, ctx.tenantId, month, month));
      return { data: figures };
    },
  );
  app.get(
    '/year',
    {
      config: { access },
      schema: {
        tags: ['account'],
        summary: 'Twelve months (?year=YYYY) side by side, with their totals',
        querystring: YEAR_QUERY,
        response: { 200: answerSchema(AccountYearAnswer) },
      },
    },
    async (request) => {
      const { year } = readQuery(request.query, ['year'] as const, (_n, v) => yearCode(v));
      const ctx = ctxOf(request);
      const months = await withTenantReads(database, ctx.tenantId, (tx) => monthFigures(tx, ctx.tenantId, `${year}-01`, `${year}-12`));
      return { data: { year: Number(year), months, totals: totalOf(months) } };
    },
  );
};
