/**
 * The centre's account, registered under /api/account: one month (income, expenses, expected,
 * each split by receipt, and the net result) and one year (twelve months with their totals).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AccountMonthAnswer, AccountYearAnswer, RESOURCE_AREA } from '../../../domain/index';
import type { Database } from '../../db/types';
import { withTenantReads } from '../../db/read-batch';
import { ctxOf } from '../../engine/routes';
import { answerSchema } from '../../engine/answers';
import { monthFigures, totalOf } from './figures';
import { KeptReports, reportStampStatement, stampOf } from './kept';
import { MONTH_QUERY, monthCode, readQuery, YEAR_QUERY, yearCode } from './query';

export const accountRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  // The stamp of the centre's money comes with the session check: a kept answer costs no other read.
  const config = { access: { area: RESOURCE_AREA.account!, action: 'read' as const }, readWithSession: (tenantId: number) => [reportStampStatement(tenantId)] };
  const kept = new KeptReports();
  app.get(
    '/month',
    {
      config,
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
      const data = await kept.get(`${ctx.tenantId}|month|${month}`, stampOf(request.readWithSession?.[0]), async () => {
        const [figures] = await withTenantReads(database, ctx.tenantId, (tx) => monthFigures(tx, ctx.tenantId, month, month));
        return figures;
      });
      return { data };
    },
  );
  app.get(
    '/year',
    {
      config,
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
      const data = await kept.get(`${ctx.tenantId}|year|${year}`, stampOf(request.readWithSession?.[0]), async () => {
        const months = await withTenantReads(database, ctx.tenantId, (tx) => monthFigures(tx, ctx.tenantId, `${year}-01`, `${year}-12`));
        return { year: Number(year), months, totals: totalOf(months) };
      });
      return { data };
    },
  );
};
