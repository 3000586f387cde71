/**
 * /api/portal: the families' portal, for a GUARDIAN only (area `portal`). Who she is comes
 * from her sign-in (guardian_users); everything after runs in withFamily(), as her, so the
 * database itself hides every other family. She reads her children's timetable, homework,
 * attendance, contracts and receipts. Her own contact details and notice preference she
 * changes on the office's write path (engine/write.ts: version, search text, the guardians'
 * hooks, the history as her), on her own row only and only those fields.
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DomainError,
  fieldSchema,
  GUARDIANS,
  isRealDate,
  NOTIFY_BY,
  type NotifyBy,
  parseBody,
  PortalAttendanceAnswer,
  PortalContractsAnswer,
  PortalHomeAnswer,
  PortalLessonsAnswer,
  PortalMeAnswer,
  PortalReceiptsAnswer,
  type FieldDef,
} from '../../../domain/index';
import type { Database, Tx } from '../../db/types';
import { withFamily, withTenant } from '../../db/doors';
import { withTenantReads } from '../../db/read-batch';
import { guardianUsers } from '../../db/schema/index';
import { answerSchema } from '../../engine/answers';
import { IdParams } from '../../engine/params';
import { ctxOf } from '../../engine/routes';
import type { Registry } from '../../engine/registry';
import { assertVersion } from '../../engine/store';
import { lockRow, updateRow } from '../../engine/write';
import { guardiansSpec } from '../guardians/spec';
import { receiptPdf } from '../receipts/pdf';
import { statementPdf } from '../statements/pdf';
import { familyStatement } from '../statements/statement';
import { StatementAnswer } from '../../../domain/answers/statement';
import { loadReceipt } from '../receipts/routes';
import { centreToday, childAttendance, childContracts, childHome, childLessons, childOf, childrenList, familyReceipts, guardianOf, type Family } from './reads';

const READ = { access: { area: 'portal', action: 'read' } } as const;
const WRITE = { access: { area: 'portal', action: 'update' } } as const;

/** The longest timetable one request reads. */
const MAX_DAYS = 62;
const DAY_MS = 86_400_000;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine(isRealDate, 'invalid date');
const RangeQuery = z.strictObject({ from: day, to: day });
const OptionalRange = z.strictObject({ from: day.optional(), to: day.optional() });
const ReceiptsQuery = z.strictObject({
  student_id: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(2_147_483_647))
    .optional(),
});

/** A range from..to no longer than `max` days (when given); else a field error. */
function checkRange(from: string | undefined, to: string | undefined, max?: number) {
  if (!from || !to) return;
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS;
  if (days < 0) throw new DomainError('validation', 'The range ends before it starts.', { to: 'invalid' });
  if (max !== undefined && days > max) throw new DomainError('validation', `At most ${max} days at once.`, { to: 'invalid' });
}

/** What she may change of herself, validated as the guardians resource validates those fields. */
const EDITABLE = ['phone', 'address', 'city', 'postal_code'] as const;
const fieldDef = (name: string): FieldDef => {
  const def = GUARDIANS.fields.find((f) => f.name === name);
  if (!def) throw new Error(`guardians has no field ${name}`);
  return def;
};
const MeBody = z.strictObject({
  version: z.number().int().min(0).max(2_147_483_647),
  ...Object.fromEntries(EDITABLE.map((name) => [name, fieldSchema(fieldDef(name)).nullable().optional()])),
  notify: z.boolean().optional(),
  notify_by: z.enum(NOTIFY_BY).optional(),
});
type MeInput = { version: number; notify?: boolean; notify_by?: NotifyBy } & Partial<Record<(typeof EDITABLE)[number], string | null>>;

export const portalRoutes: FastifyPluginAsyncZod<{ database: Database; registry: Registry }> = async (app, { database, registry }) => {
  /** Her family: her centre, and her guardian id from her sign-in. */
  async function familyOf(request: Parameters<typeof ctxOf>[0]): Promise<Family> {
    const ctx = ctxOf(request);
    const actor = ctx.actor;
    if (actor?.kind !== 'user') throw new DomainError('forbidden');
    const userId = actor.id;
    const [link] = await withTenantReads(database, ctx.tenantId, (tx) =>
      tx
        .select({ guardianId: guardianUsers.guardianId })
        .from(guardianUsers)
        .where(and(eq(guardianUsers.tenantId, ctx.tenantId), eq(guardianUsers.userId, userId))),
    );
    if (!link) throw new DomainError('forbidden', 'This sign-in belongs to no guardian.');
    return { tenantId: ctx.tenantId, guardianId: link.guardianId, timeZone: request.tenant?.timeZone ?? 'Europe/Athens' };
  }

  const asHer = async <T>(request: Parameters<typeof ctxOf>[0], fn: (tx: Tx, f: Family) => Promise<T>): Promise<T> => {
    const f = await familyOf(request);
    return withFamily(database, f.tenantId, f.guardianId, (tx) => fn(tx, f));
  };

  const me = async (tx: Tx, f: Family) => {
    const [guardian, children] = await Promise.all([guardianOf(tx, f), childrenList(tx, f)]);
    return { data: { guardian, children } };
  };

  app.get(
    '/me',
    { config: READ, schema: { tags: ['portal'], summary: 'The guardian herself and her children', response: { 200: answerSchema(PortalMeAnswer) } } },
    (request) => asHer(request, me),
  );

  app.patch(
    '/me',
    {
      config: WRITE,
      schema: {
        tags: ['portal'],
        summary: 'Her phone, address, city, postal code and notice preference, with the version she read (409 stale when it changed)',
        response: { 200: answerSchema(PortalMeAnswer) },
      },
    },
    async (request) => {
      const { version, ...fields } = parseBody(MeBody, request.body) as MeInput;
      const f = await familyOf(request);
      // Her own row, named by her sign-in, on the office's write path: the same version check,
      // search text, hooks and history (as her). Only the fields of MeBody reach it, and a body
      // that changes nothing leaves the row and its version as they were.
      const ctx = ctxOf(request);
      const asked = Object.entries(fields).map(([name, value]) => [name, value === '' ? null : value] as const);
      await withTenant(database, f.tenantId, async (tx) => {
        const before = await lockRow(tx, registry, ctx, guardiansSpec, f.guardianId);
        assertVersion(before, version);
        const changes = Object.fromEntries(asked.filter(([name, value]) => before[name] !== value));
        if (Object.keys(changes).length) await updateRow(tx, registry, ctx, guardiansSpec, f.guardianId, changes, version);
      });
      return withFamily(database, f.tenantId, f.guardianId, (tx) => me(tx, f));
    },
  );

  app.get(
    '/home',
    {
      config: READ,
      schema: { tags: ['portal'], summary: "Each child's next lessons and latest homework", response: { 200: answerSchema(PortalHomeAnswer) } },
    },
    (request) =>
      asHer(request, async (tx, f) => {
        const children = await childrenList(tx, f);
        return { data: await Promise.all(children.map((child) => childHome(tx, f, child))) };
      }),
  );

  app.get(
    '/children/:id/lessons',
    {
      config: READ,
      schema: {
        tags: ['portal'],
        summary: `A child's lessons from \`from\` to \`to\` (YYYY-MM-DD, at most ${MAX_DAYS} days), with their homework`,
        params: IdParams,
        querystring: RangeQuery,
        response: { 200: answerSchema(PortalLessonsAnswer) },
      },
    },
    (request) => {
      const { from, to } = request.query;
      checkRange(from, to, MAX_DAYS);
      return asHer(request, async (tx, f) => {
        const child = await childOf(tx, f, request.params.id);
        return { data: await childLessons(tx, f, child.id, from, to) };
      });
    },
  );

  app.get(
    '/children/:id/attendance',
    {
      config: READ,
      schema: {
        tags: ['portal'],
        summary: "A child's marks (newest first), the count of each status and the rate, optionally from `from` to `to`",
        params: IdParams,
        querystring: OptionalRange,
        response: { 200: answerSchema(PortalAttendanceAnswer) },
      },
    },
    (request) => {
      const { from, to } = request.query;
      checkRange(from, to);
      return asHer(request, async (tx, f) => {
        const child = await childOf(tx, f, request.params.id);
        return { data: await childAttendance(tx, f, child.id, from, to) };
      });
    },
  );

  app.get(
    '/children/:id/contracts',
    {
      config: READ,
      schema: {
        tags: ['portal'],
        summary: "A child's contracts month by month: what is due, paid and left",
        params: IdParams,
        response: { 200: answerSchema(PortalContractsAnswer) },
      },
    },
    (request) =>
      asHer(request, async (tx, f) => {
        const child = await childOf(tx, f, request.params.id);
        return { data: await childContracts(tx, f, child.id) };
      }),
  );

  app.get(
    '/receipts',
    {
      config: READ,
      schema: {
        tags: ['portal'],
        summary: "Her children's receipts (or one child's: ?student_id=), newest first",
        querystring: ReceiptsQuery,
        response: { 200: answerSchema(PortalReceiptsAnswer) },
      },
    },
    (request) =>
      asHer(request, async (tx, f) => {
        const childId = request.query.student_id;
        if (childId !== undefined) await childOf(tx, f, childId);
        return { data: await familyReceipts(tx, f, { childId }) };
      }),
  );

  app.get(
    '/receipts/:id/pdf',
    { config: READ, schema: { tags: ['portal'], summary: 'One of her receipts, printable (A5 PDF)', params: IdParams } },
    async (request, reply) => {
      const receipt = await asHer(request, async (tx, f) => {
        const [mine] = await familyReceipts(tx, f, { id: request.params.id });
        if (!mine) throw new DomainError('not-found');
        return loadReceipt(tx, f.tenantId, mine.id);
      });
      const pdf = await receiptPdf(receipt);
      reply
        .type('application/pdf')
        .header('Content-Disposition', `inline; filename="receipt-${encodeURIComponent(receipt.bill_number)}.pdf"`)
        .header('X-Content-Type-Options', 'nosniff');
      return reply.send(pdf);
    },
  );
  // Her family's statement (docs/rules.md, Messages to families), read as her.
  app.get(
    '/statement',
    {
      config: READ,
      schema: {
        tags: ['portal'],
        summary: "Her family's statement: every child's contracts with what is due, paid and left (cents), and the totals",
        response: { 200: answerSchema(StatementAnswer) },
      },
    },
    async (request) => ({
      data: await asHer(request, (tx, f) => familyStatement(tx, f.tenantId, f.guardianId, { name: request.tenant?.name ?? '', today: centreToday(f) })),
    }),
  );

  app.get(
    '/statement.pdf',
    { config: READ, schema: { tags: ['portal'], summary: "Her family's statement, printable (A4 PDF, Greek)" } },
    async (request, reply) => {
      const statement = await asHer(request, (tx, f) =>
        familyStatement(tx, f.tenantId, f.guardianId, { name: request.tenant?.name ?? '', today: centreToday(f) }),
      );
      reply
        .type('application/pdf')
        .header('Content-Disposition', `inline; filename="statement-${statement.as_of}.pdf"`)
        .header('X-Content-Type-Options', 'nosniff')
        .header('cache-control', 'no-store');
      return reply.send(await statementPdf(statement));
    },
  );
};
