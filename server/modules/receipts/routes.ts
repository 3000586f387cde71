/**
 * /api/receipts: the centre's receipts, read-only (a list with server paging, filters by
 * period, status and kind, search by payer name and number; one by id), the credit receipt
 * that cancels one (`POST /:id/cancel {reason}`) and the printable A5 PDF (`GET /:id/pdf`).
 */
import { and, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ReceiptAnswer } from '../../../domain/answers/receipts';
import { DomainError, normalizeSearch, RECEIPT_KINDS, RECEIPT_STATUSES, RESOURCE_AREA } from '../../../domain/index';
import { amountInWords, VAT_EXEMPTION_LINE } from '../../../domain/receipt-words';
import type { Database, Tx } from '../../db/types';
import { withTenant } from '../../db/doors';
import { withTenantReads } from '../../db/read-batch';
import { preparedRows, rowCount } from '../../db/statements';
import { readsConfirmingSession } from '../../plugins/auth';
import { receiptPayments, receipts } from '../../db/schema/index';
import { likePattern, pagedQuery, pageOf } from '../../engine/list-query';
import { ctxOf, sendPage } from '../../engine/routes';
import { cancelReceipt, centreDay, type ReceiptRow } from './issue';
import { receiptPdf } from './pdf';

const AREA = RESOURCE_AREA.receipts ?? 'receipts';
const day = z.iso.date();
const list = <T extends z.ZodType>(item: T) => z.union([item, z.array(item)]).optional();

const LIST_QUERY = pagedQuery({
  q: z.string().max(200).optional(),
  status: list(z.enum(RECEIPT_STATUSES)),
  kind: list(z.enum(RECEIPT_KINDS)),
  issued_on_gte: day.optional(),
  issued_on_lte: day.optional(),
  payment_id: z.coerce.number().int().min(1).max(2147483647).optional(),
  // Lists are always newest first; a generic client's sort parameters are accepted and left aside.
  _sort: z.string().max(100).optional(),
  _order: z.string().max(100).optional(),
});
const ID = z.strictObject({ id: z.coerce.number().int().min(1).max(2147483647) });
const CANCEL_BODY = z.strictObject({ reason: z.string().trim().min(3).max(500) });

const SELECT = {
  r: receipts,
  // The outer row is named by its table (drizzle may leave its own columns unqualified).
  paymentIds: sql<
    number[]
  >`coalesce((select array_agg(rp.payment_id order by rp.payment_id) from receipt_payments rp where rp.tenant_id = receipts.tenant_id and rp.receipt_id = receipts.id), '{}')`,
  cancelledBy: sql<number | null>`(select c.id from receipts c where c.tenant_id = receipts.tenant_id and c.cancels_receipt_id = receipts.id)`,
  // The receipt a credit receipt cancels, as printed on it: number, date and MARK.
  cancels: sql<{
    bill_number: string;
    issued_on: string;
    mark: string | null;
  } | null>`(select json_build_object('bill_number', o.series || '-' || o.number, 'issued_on', to_char(o.issued_on, 'YYYY-MM-DD'), 'mark', o.mark) from receipts o where o.tenant_id = receipts.tenant_id and o.id = receipts.cancels_receipt_id)`,
};

function answerOf(row: {
  r: ReceiptRow;
  paymentIds: number[] | string;
  cancelledBy: number | null;
  cancels: { bill_number: string; issued_on: string; mark: string | null } | string | null;
}): ReceiptAnswer {
  const cancels = typeof row.cancels === 'string' ? (JSON.parse(row.cancels) as Exclude<typeof row.cancels, string>) : row.cancels;
  const r = row.r;
  // PGlite and node-postgres both parse int[]; a driver answering text is read too.
  const ids = Array.isArray(row.paymentIds) ? row.paymentIds.map(Number) : String(row.paymentIds).replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
  return {
    id: r.id,
    series: r.series,
    number: r.number,
    bill_number: `${r.series}-${r.number}`,
    issued_on: r.issuedOn,
    kind: r.kind as ReceiptAnswer['kind'],
    issuer: r.issuer,
    payer: r.payer,
    lines: r.lines,
    amount: r.amount,
    amount_in_words: amountInWords(r.amount),
    vat_exemption: VAT_EXEMPTION_LINE,
    method: r.method,
    status: r.status,
    mark: r.mark,
    uid: r.uid,
    qr_url: r.qrUrl,
    error: r.error,
    cancels_receipt_id: r.cancelsReceiptId,
    cancels_bill_number: cancels?.bill_number ?? null,
    cancels_issued_on: cancels?.issued_on ?? null,
    cancels_mark: cancels?.mark ?? null,
    cancel_reason: r.cancelReason,
    cancelled_by_receipt_id: row.cancelledBy === null ? null : Number(row.cancelledBy),
    payment_ids: ids,
    version: r.version,
    created_at: r.createdAt.toISOString(),
  };
}

export async function loadReceipt(tx: Tx, tenantId: number, id: number): Promise<ReceiptAnswer> {
  const [row] = await tx
    .select(SELECT)
    .from(receipts)
    .where(and(eq(receipts.tenantId, tenantId), eq(receipts.id, id)));
  if (!row) throw new DomainError('not-found');
  return answerOf(row);
}

/**
 * A page of receipts (newest first) and the count of all matching: the page as the answer's
 * JSON text, each receipt as answerOf answers it, and the count beside it. The amount in words
 * is Node's: each row ends with `"amount_in_words":<cents>`, which `withAmountsInWords` turns
 * into the words without reading the rest of the text.
 */
const pageSql = (where: SQL, offset: number, limit: number) => sql`
  select json_build_object(
    'data', coalesce((select json_agg(p) from (
      select receipts.id, receipts.series, receipts.number, receipts.series || '-' || receipts.number as bill_number,
        to_char(receipts.issued_on, 'YYYY-MM-DD') as issued_on, receipts.kind, receipts.issuer, receipts.payer, receipts.lines, receipts.amount,
        receipts.method, receipts.status, receipts.mark, receipts.uid, receipts.qr_url, receipts.error, receipts.cancels_receipt_id,
        cx.bill_number as cancels_bill_number, cx.issued_on as cancels_issued_on, cx.mark as cancels_mark, receipts.cancel_reason,
        ${SELECT.cancelledBy} as cancelled_by_receipt_id,
        coalesce((select json_agg(rp.payment_id order by rp.payment_id) from receipt_payments rp
          where rp.tenant_id = receipts.tenant_id and rp.receipt_id = receipts.id), '[]') as payment_ids,
        receipts.version, to_char(receipts.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
        ${VAT_EXEMPTION_LINE}::text as vat_exemption, receipts.amount as amount_in_words
      from ${receipts}
      left join lateral (select o.series || '-' || o.number as bill_number, to_char(o.issued_on, 'YYYY-MM-DD') as issued_on, o.mark from receipts o
        where o.tenant_id = receipts.tenant_id and o.id = receipts.cancels_receipt_id) cx on true
      where ${where}
      order by receipts.issued_on desc, receipts.id desc
      limit ${rowCount(limit)} offset ${rowCount(offset)}) p), '[]'::json),
    'total', c.n)::text as body, c.n::int as total
  from (select count(*) as n from ${receipts} where ${where}) c`;

/**
 * A row's last member as the database writes a row (`"name":value`, no space: a JSON value of
 * a stored document would read `"name": value`, and inside a string every quote is escaped), so
 * it is found only where pageSql put it.
 */
const AMOUNT_IN_WORDS = /"amount_in_words":(-?\d+)\}/g;

/** The page with each receipt's amount said in words. */
const withAmountsInWords = (body: string) =>
  body.replace(AMOUNT_IN_WORDS, (_, cents: string) => `"amount_in_words":${JSON.stringify(amountInWords(Number(cents)))}}`);

const asList = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

export const receiptRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  app.get(
    '',
    {
      config: { access: { area: AREA, action: 'read' }, sessionInReads: true },
      schema: {
        tags: ['receipts'],
        summary: 'Receipts, newest first: ?q (payer, number), status, kind, issued_on_gte/lte, payment_id',
        querystring: LIST_QUERY,
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(request);
      const query = request.query;
      const { start, end } = pageOf(query);
      // Nothing below depends on the actor, only on the centre: the session check travels with the page (sessionInReads).
      const where: (SQL | undefined)[] = [eq(receipts.tenantId, ctx.tenantId)];
      const statuses = asList(query.status);
      const kinds = asList(query.kind);
      if (statuses.length) where.push(inArray(receipts.status, statuses));
      if (kinds.length) where.push(inArray(receipts.kind, kinds));
      if (query.issued_on_gte) where.push(gte(receipts.issuedOn, query.issued_on_gte));
      if (query.issued_on_lte) where.push(lte(receipts.issuedOn, query.issued_on_lte));
      if (query.payment_id) {
        where.push(
          sql`exists (select 1 from ${receiptPayments} rp where rp.tenant_id = ${receipts.tenantId} and rp.receipt_id = ${receipts.id} and rp.payment_id = ${query.payment_id})`,
        );
      }
      const q = query.q ? normalizeSearch(query.q) : '';
      if (q) where.push(sql`${receipts.search} like ${likePattern(q)}`);
      // Only reads, one statement behind the tenant settings (one round trip): the database
      // shapes the page as JSON with its count; only the amount in words is added here.
      const [row] = await readsConfirmingSession(request, (first) =>
        withTenantReads(database, ctx.tenantId, (tx) => preparedRows<{ body: string; total: number }>(tx, pageSql(and(...where)!, start, end - start)), first),
      );
      return sendPage(reply, { data: [], total: Number(row!.total), json: withAmountsInWords(row!.body) });
    },
  );

  app.get(
    '/:id',
    { config: { access: { area: AREA, action: 'read' } }, schema: { tags: ['receipts'], summary: 'One receipt as issued, with its myDATA state', params: ID } },
    async (request) => {
      const ctx = ctxOf(request);
      return { data: await withTenant(database, ctx.tenantId, (tx) => loadReceipt(tx, ctx.tenantId, request.params.id)) };
    },
  );

  app.post(
    '/:id/cancel',
    {
      config: { access: { area: AREA, action: 'create' } },
      schema: {
        tags: ['receipts'],
        summary: 'Issues the CREDIT receipt that cancels this one ({reason}); answers the credit receipt',
        params: ID,
        body: CANCEL_BODY,
        response: {
          201: {
            description: 'The credit receipt, as issued',
            type: 'object',
            properties: { id: { type: 'integer' }, data: { type: 'object', additionalProperties: true } },
          },
        },
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(request);
      const data = await withTenant(database, ctx.tenantId, async (tx) => {
        const credit = await cancelReceipt(tx, ctx.tenantId, ctx.actor, request.params.id, request.body.reason, await centreDay(tx, ctx.tenantId));
        return loadReceipt(tx, ctx.tenantId, credit.id);
      });
      reply.code(201);
      return { id: data.id, data };
    },
  );

  app.get(
    '/:id/pdf',
    {
      config: { access: { area: AREA, action: 'read' } },
      schema: { tags: ['receipts'], summary: 'The printable A5 receipt (PDF)', params: ID },
    },
    async (request, reply) => {
      const ctx = ctxOf(request);
      const receipt = await withTenant(database, ctx.tenantId, (tx) => loadReceipt(tx, ctx.tenantId, request.params.id));
      const pdf = await receiptPdf(receipt);
      reply
        .type('application/pdf')
        .header('Content-Disposition', `inline; filename="receipt-${encodeURIComponent(receipt.bill_number)}.pdf"`)
        .header('X-Content-Type-Options', 'nosniff');
      return reply.send(pdf);
    },
  );
};
