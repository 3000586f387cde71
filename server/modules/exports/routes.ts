/**
 * /api/exports: the accountant's spreadsheets. `GET /api/exports/<kind>.xlsx?from=&to=`
 * (kind: receipts, payments, expenses, contracts; from and to YYYY-MM-DD, inclusive) answers
 * the period's rows as an XLSX file, for ADMIN (the account's readers).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError, RESOURCE_AREA, checkMoneyDate, type FieldErrors } from '../../../domain/index';
import { tenantOf } from '../../context';
import type { Database } from '../../db/types';
import { withTenant } from '../../db/doors';
import { ctxOf } from '../../engine/routes';
import { handReadQuery } from '../../plugins/openapi-document';
import { readQuery } from '../account/query';
import { contentDisposition } from '../files/sniff';
import { readerLanguage } from '../notifications/text';
import { COLUMNS, EXPORT_KINDS, type ExportKind, rowsOf, sheetName } from './sheets';
import { workbookOf } from './xlsx';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PERIOD_QUERY = handReadQuery(
  {
    from: { description: 'First day, YYYY-MM-DD.' },
    to: { description: 'Last day, YYYY-MM-DD (inclusive).' },
  },
  ['from', 'to'],
);

export function readPeriod(raw: unknown): { from: string; to: string } {
  const { from, to } = readQuery(raw, ['from', 'to'] as const, (name, value) => {
    const fields: FieldErrors = {};
    checkMoneyDate(fields, name, value);
    return fields[name];
  });
  if (to < from) throw new DomainError('validation', 'The period ends before it starts.', { to: 'too-small' });
  return { from, to };
}

export const exportsRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  app.get(
    '/:file',
    {
      config: { access: { area: RESOURCE_AREA.account!, action: 'read' as const } },
      schema: {
        tags: ['exports'],
        summary: 'A period of receipts, payments, expenses or contracts as an XLSX file (receipts.xlsx, payments.xlsx, expenses.xlsx, contracts.xlsx)',
        params: z.object({ file: z.string().max(40) }),
        querystring: PERIOD_QUERY,
      },
    },
    async (request, reply) => {
      const match = /^([a-z]+)\.xlsx$/.exec(request.params.file);
      const kind = match?.[1] as ExportKind | undefined;
      if (!kind || !(EXPORT_KINDS as readonly string[]).includes(kind)) throw new DomainError('not-found');
      const { from, to } = readPeriod(request.query);
      const ctx = ctxOf(request);
      const language = readerLanguage(request.headers['accept-language'], tenantOf(request).language);
      const rows = await withTenant(database, ctx.tenantId, (tx) => rowsOf(tx, ctx.tenantId, kind, from, to));
      const title = sheetName(kind, language);
      const body = await workbookOf(title, COLUMNS[kind], rows, language);
      return reply
        .type(XLSX_TYPE)
        .header('content-disposition', contentDisposition('attachment', `${title} ${from} ${to}.xlsx`))
        .header('cache-control', 'no-store')
        .send(body);
    },
  );
};
