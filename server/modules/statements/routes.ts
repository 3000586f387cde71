/**
 * A family's money, for the office (docs/rules.md, Messages to families; Reminders):
 * GET /api/guardians/:id/statement (JSON, cents), GET /api/guardians/:id/statement.pdf
 * (printable, Greek) and POST /api/guardians/:id/reminder (her reminder now). ADMIN and
 * SECRETARY, through the payments' rights.
 */
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ReminderSentAnswer, StatementAnswer } from '../../../domain/answers/statement';
import { queryRows } from '../../db/statements';
import { withTenant } from '../../db/doors';
import { withTenantReads } from '../../db/read-batch';
import type { Database } from '../../db/types';
import { answerSchema } from '../../engine/answers';
import { IdParams } from '../../engine/params';
import { ctxOf } from '../../engine/routes';
import { remindNow } from '../../jobs/reminders';
import { statementPdf } from './pdf';
import { familyStatement } from './statement';

/** The centre as the statement names it, and its today. */
const centreOf = (request: FastifyRequest, tenantId: number) => ({ name: request.tenant?.name ?? '', today: sql`centre_today(${tenantId})` });

const READ = { access: { area: 'payments', action: 'read' } } as const;
const WRITE = { access: { area: 'payments', action: 'update' } } as const;

export const statementRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  app.get(
    '/api/guardians/:id/statement',
    {
      config: READ,
      schema: {
        tags: ['guardians'],
        summary: "Her family's statement: every child's contracts with what is due, paid and left (cents), and the totals",
        params: IdParams,
        response: { 200: answerSchema(StatementAnswer) },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      return {
        data: await withTenantReads(database, ctx.tenantId, (tx) => familyStatement(tx, ctx.tenantId, request.params.id, centreOf(request, ctx.tenantId))),
      };
    },
  );

  app.get(
    '/api/guardians/:id/statement.pdf',
    { config: READ, schema: { tags: ['guardians'], summary: "Her family's statement, printable (A4 PDF, Greek)", params: IdParams } },
    async (request, reply) => {
      const ctx = ctxOf(request);
      const statement = await withTenantReads(database, ctx.tenantId, (tx) =>
        familyStatement(tx, ctx.tenantId, request.params.id, centreOf(request, ctx.tenantId)),
      );
      const pdf = await statementPdf(statement);
      reply
        .type('application/pdf')
        .header('Content-Disposition', `inline; filename="statement-${statement.guardian.id}-${statement.as_of}.pdf"`)
        .header('X-Content-Type-Options', 'nosniff')
        .header('cache-control', 'no-store');
      return reply.send(pdf);
    },
  );

  app.post(
    '/api/guardians/:id/reminder',
    {
      config: WRITE,
      schema: {
        tags: ['guardians'],
        summary:
          'Send her reminder of unpaid months now (once a day from the office, beside the scheduled one; a second send the same day answers the first one)',
        params: IdParams,
        response: { 200: answerSchema(ReminderSentAnswer) },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      const data = await withTenant(database, ctx.tenantId, async (tx) => {
        const [{ today }] = (await queryRows<{ today: string }>(tx, sql`select to_char(centre_today(${ctx.tenantId}), 'YYYY-MM-DD') as today`)) as [
          { today: string },
        ];
        return remindNow(tx, ctx.tenantId, request.params.id, today);
      });
      return { data };
    },
  );
};
