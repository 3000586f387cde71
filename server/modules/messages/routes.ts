/**
 * /api/messages: the log of messages to families, read-only, for the office (ADMIN and
 * SECRETARY): a list with server paging, sorting and filters (channel, status, kind, guardian,
 * queued date range; `q` in recipient and subject), one by id. A message whose channel has no
 * setting in this server stays QUEUED and says `note: "not-configured"`: the log shows what
 * would be sent. A cancelled message (an absence undone in its grace period) is not listed.
 *
 * `POST /api/messages/sms-status/:tenant` takes the SMS provider's delivery reports: believed
 * only when signed with SMS_TOKEN (X-Twilio-Signature), else 403 and nothing changes;
 * MessageStatus delivered becomes DELIVERED, undelivered and failed become FAILED with ErrorCode.
 */
import { and, asc, desc, eq, gte, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError, MESSAGE_CHANNELS, MESSAGE_KINDS, MESSAGE_STATUSES } from '../../../domain/index';
import type { Config } from '../../config';
import { withTenant } from '../../db/doors';
import type { Database } from '../../db/types';
import { guardians, outbox } from '../../db/schema/index';
import { likePattern, pagedQuery, pageOf } from '../../engine/list-query';
import { ctxOf } from '../../engine/routes';
import { reportUrlOf, smsSettingsOf } from './deliver';
import { signedReport } from './sms';

const AREA = 'messages';
const day = z.iso.date();
const list = <T extends z.ZodType>(item: T) => z.union([item, z.array(item)]).optional();
const asList = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const id = z.coerce.number().int().min(1).max(2147483647);

/** What a list sorts by: the answer's names. */
const SORTS = {
  queued_at: outbox.createdAt,
  sent_at: outbox.sentAt,
  status: outbox.status,
  channel: outbox.channel,
  kind: outbox.kind,
  recipient: outbox.recipient,
  id: outbox.id,
} as const;

const LIST_QUERY = pagedQuery({
  q: z.string().max(200).optional(),
  channel: list(z.enum(MESSAGE_CHANNELS)),
  status: list(z.enum(MESSAGE_STATUSES)),
  kind: list(z.enum(MESSAGE_KINDS)),
  guardian_id: list(id),
  queued_at_gte: day.optional(),
  queued_at_lte: day.optional(),
  _sort: z
    .string()
    .max(100)
    .regex(/^[a-z_]+(,[a-z_]+)*$/)
    .optional(),
  _order: z
    .string()
    .max(100)
    .regex(/^(asc|desc)(,(asc|desc))*$/i)
    .optional(),
});

const MESSAGE = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    guardian_id: { type: ['integer', 'null'] },
    guardian: { type: ['object', 'null'], properties: { id: { type: 'integer' }, name: { type: ['string', 'null'] } } },
    recipient: { type: 'string' },
    channel: { type: 'string', enum: [...MESSAGE_CHANNELS] },
    kind: { type: 'string' },
    subject: { type: 'string' },
    body: { type: 'string' },
    status: { type: 'string', enum: [...MESSAGE_STATUSES] },
    error: { type: ['string', 'null'] },
    note: { type: ['string', 'null'] },
    attempts: { type: 'integer' },
    queued_at: { type: 'string' },
    sent_at: { type: ['string', 'null'] },
    delivered_at: { type: ['string', 'null'] },
    failed_at: { type: ['string', 'null'] },
  },
} as const;

const SELECT = {
  o: outbox,
  guardianName: sql<
    string | null
  >`(select g.first_name || ' ' || g.last_name from ${guardians} g where g.tenant_id = ${outbox.tenantId} and g.id = ${outbox.guardianId})`,
};

type Row = { o: typeof outbox.$inferSelect; guardianName: string | null };

const iso = (d: Date | null) => d?.toISOString() ?? null;

export const messageRoutes: FastifyPluginAsyncZod<{ database: Database; config: Config }> = async (app, { database, config }) => {
  const configured = new Set([...(config.smtpUrl ? ['EMAIL'] : []), ...(smsSettingsOf(config) ? ['SMS'] : [])]);
  const answerOf = ({ o, guardianName }: Row) => ({
    id: o.id,
    guardian_id: o.guardianId,
    guardian: o.guardianId === null ? null : { id: o.guardianId, name: guardianName },
    recipient: o.recipient,
    channel: o.channel,
    kind: o.kind,
    subject: o.subject,
    body: o.body,
    status: o.status,
    error: o.lastError,
    note: o.status === 'QUEUED' && !configured.has(o.channel) ? 'not-configured' : null,
    attempts: o.attempts,
    queued_at: o.createdAt.toISOString(),
    sent_at: iso(o.sentAt),
    delivered_at: iso(o.deliveredAt),
    failed_at: iso(o.failedAt),
  });

  app.get(
    '',
    {
      config: { access: { area: AREA, action: 'read' } },
      schema: {
        tags: ['messages'],
        summary: 'Messages to families, newest first: channel, status, kind, guardian_id, queued_at_gte/lte, q; _sort/_order',
        querystring: LIST_QUERY,
        response: { 200: { type: 'object', properties: { data: { type: 'array', items: MESSAGE }, total: { type: 'integer' } } } },
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(request);
      const query = request.query;
      const { start, end } = pageOf(query);
      const where: (SQL | undefined)[] = [eq(outbox.tenantId, ctx.tenantId), isNull(outbox.cancelledAt)];
      const filters = { channel: outbox.channel, status: outbox.status, kind: outbox.kind, guardian_id: outbox.guardianId } as const;
      for (const [name, column] of Object.entries(filters)) {
        const values = asList(query[name as keyof typeof filters] as (string | number)[] | string | number | undefined);
        if (values.length) where.push(inArray(column, values));
      }
      // Days in the centre's time zone.
      const local = sql`(${outbox.createdAt} at time zone (select t.time_zone from tenants t where t.id = ${outbox.tenantId}))::date`;
      if (query.queued_at_gte) where.push(gte(local, sql`${query.queued_at_gte}::date`));
      if (query.queued_at_lte) where.push(lte(local, sql`${query.queued_at_lte}::date`));
      if (query.q?.trim()) {
        const like = likePattern(query.q.trim().toLowerCase());
        where.push(sql`(lower(${outbox.recipient}) like ${like} or lower(${outbox.subject}) like ${like})`);
      }
      const names = query._sort ? query._sort.split(',') : ['queued_at'];
      const orders = query._order ? query._order.toLowerCase().split(',') : ['desc'];
      const unknown = names.find((n) => !(n in SORTS));
      if (unknown) throw new DomainError('validation', undefined, { _sort: 'invalid' });
      const order = names.map((n, i) => ((orders[i] ?? orders[0]) === 'asc' ? asc : desc)(SORTS[n as keyof typeof SORTS]));
      order.push(desc(outbox.id));
      const { rows, total } = await withTenant(database, ctx.tenantId, async (tx) => {
        const condition = and(...where)!;
        const page = await tx
          .select(SELECT)
          .from(outbox)
          .where(condition)
          .orderBy(...order)
          .limit(end - start)
          .offset(start);
        const [count] = await tx.select({ n: sql<number>`count(*)::int` }).from(outbox).where(condition);
        return { rows: page as Row[], total: Number(count?.n ?? 0) };
      });
      reply.header('x-total-count', String(total));
      return { data: rows.map(answerOf), total };
    },
  );

  app.get(
    '/:id',
    {
      config: { access: { area: AREA, action: 'read' } },
      schema: {
        tags: ['messages'],
        summary: 'One message as written and what became of it',
        params: z.strictObject({ id }),
        response: { 200: { type: 'object', properties: { data: MESSAGE } } },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      const [row] = await withTenant(database, ctx.tenantId, (tx) =>
        tx
          .select(SELECT)
          .from(outbox)
          .where(and(eq(outbox.tenantId, ctx.tenantId), eq(outbox.id, request.params.id), isNull(outbox.cancelledAt))),
      );
      if (!row) throw new DomainError('not-found');
      return { data: answerOf(row as Row) };
    },
  );

  // The provider's reports come as a form: parsed here only, for this route.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.post(
    '/sms-status/:tenant',
    {
      config: { access: 'public', providerCallback: true },
      schema: {
        tags: ['messages'],
        summary: "The SMS provider's delivery report (signed with X-Twilio-Signature); unsigned or forged: 403",
        params: z.strictObject({ tenant: z.string().max(63) }),
        body: z.record(z.string(), z.string()),
      },
    },
    async (request, reply) => {
      const settings = smsSettingsOf(config);
      const tenant = request.tenant;
      const params = request.body;
      const urls = [`${request.protocol}://${request.host}${request.url}`];
      if (config.publicUrl && tenant) urls.push(reportUrlOf(config.publicUrl, tenant.slug));
      const signature = request.headers['x-twilio-signature'];
      if (!settings || !tenant || !signedReport(settings.token, urls, params, typeof signature === 'string' ? signature : undefined)) {
        throw new DomainError('forbidden', 'The report is not signed by the SMS provider.');
      }
      const sid = params.MessageSid ?? params.SmsSid;
      const status = (params.MessageStatus ?? params.SmsStatus ?? '').toLowerCase();
      if (!sid) throw new DomainError('validation', undefined, { MessageSid: 'required' });
      const error = params.ErrorCode ? `${params.ErrorCode}${params.ErrorMessage ? `: ${params.ErrorMessage}` : ''}` : null;
      await withTenant(database, tenant.id, async (tx) => {
        if (status === 'delivered')
          await tx.execute(sql`update outbox set status = 'DELIVERED', delivered_at = now()
            where tenant_id = ${tenant.id} and provider_id = ${sid} and status in ('SENT', 'QUEUED')`);
        if (status === 'undelivered' || status === 'failed')
          await tx.execute(sql`update outbox set status = 'FAILED', failed_at = now(), last_error = ${error ?? status}
            where tenant_id = ${tenant.id} and provider_id = ${sid} and status in ('SENT', 'QUEUED')`);
        // queued, sending, sent: nothing we don't know already
      });
      return reply.code(204).send();
    },
  );
};
