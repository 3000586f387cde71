/**
 * /api/recurring-lessons: reads through the generic engine; create, change and delete are
 * the series operations of series.ts. A TEACHER reads own series and writes none.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  createSchema,
  DomainError,
  fieldSchema,
  isRealDate,
  parseBody,
  RECURRING_LESSONS,
  RESOURCE_AREA,
  updateSchema,
  type FieldErrors,
} from '../../../domain/index';
import { withTenant, type Database } from '../../db/client';
import { jsonSchema } from '../../plugins/openapi';
import { blankToNull } from '../body';
import { listRows } from '../crud/list';
import { findRow } from '../crud/read';
import type { Registry } from '../crud/registry';
import { ctxOf, withDefaults } from '../crud/routes';
import { parseId } from '../params';
import { createSeries, deleteSeries, patchSeries } from './series';
import { recurringLessonsSpec as spec } from './spec';

const def = RECURRING_LESSONS;
const dates = fieldSchema({ name: 'skip_dates', type: 'DATES', max: 500 });
const CreateBody = (createSchema(def) as z.ZodObject).extend({ skip_dates: dates.nullable().optional() });
const PatchBody = (updateSchema(def) as z.ZodObject).extend({
  scope: z.enum(['all', 'following']).optional(),
  from_date: fieldSchema({ name: 'from_date', type: 'DATE' }).optional(),
  include_changed: z.boolean().optional(),
});

type RawQuery = Record<string, string | string[] | undefined>;

/** ?from_date=YYYY-MM-DD&include_changed=true|false, nothing else. */
function deleteOptions(raw: RawQuery) {
  const fields: FieldErrors = {};
  const one = (key: string) => {
    const v = raw[key];
    if (Array.isArray(v)) fields[key] = 'invalid';
    return typeof v === 'string' ? v : undefined;
  };
  for (const key of Object.keys(raw)) if (key !== 'from_date' && key !== 'include_changed') fields[key.slice(0, 64)] = 'unknown-field';
  const fromDate = one('from_date');
  if (fromDate !== undefined && !isRealDate(fromDate)) fields.from_date = 'invalid-format';
  const include = one('include_changed');
  if (include !== undefined && include !== 'true' && include !== 'false') fields.include_changed = 'invalid-option';
  if (Object.keys(fields).length) throw new DomainError('validation', 'The query is not valid.', fields);
  return { fromDate: fromDate || undefined, includeChanged: include === 'true' };
}

export function seriesRoutes(app: FastifyInstance, database: Database, registry: Registry) {
  const area = RESOURCE_AREA[def.name] ?? def.area;
  const base = `/api/${def.name}`;
  const tag = { tags: [def.name] };

  app.get(base, { config: { access: { area, action: 'list' } }, schema: { ...tag, summary: 'List recurring lessons' } }, async (request, reply) => {
    const ctx = ctxOf(request);
    const page = await withTenant(database, ctx.tenantId, (tx) => listRows(tx, registry, ctx, spec, request.query as RawQuery));
    reply.header('x-total-count', String(page.total));
    return page;
  });

  app.get(`${base}/:id`, { config: { access: { area, action: 'read' } }, schema: { ...tag, summary: 'One recurring lesson' } }, async (request) => {
    const id = parseId((request.params as { id?: string }).id);
    const ctx = ctxOf(request);
    const data = await withTenant(database, ctx.tenantId, (tx) => findRow(tx, registry, ctx, spec, id));
    if (!data) throw new DomainError('not-found');
    return { data };
  });

  app.post(
    base,
    {
      config: { access: { area, action: 'create' } },
      schema: { ...tag, summary: 'Create a series and all its lessons (all or nothing; 409 names every conflict)', body: jsonSchema(CreateBody) },
    },
    async (request, reply) => {
      const ctx = ctxOf(request);
      spec.guard?.(ctx, 'create');
      const { skip_dates, ...body } = parseBody(CreateBody, blankToNull(def, request.body)) as Record<string, unknown>;
      const input = withDefaults(def, body);
      const result = await withTenant(database, ctx.tenantId, (tx) => createSeries(tx, registry, ctx, input, (skip_dates as string[] | null) ?? []));
      return reply.code(201).send({ id: result.data.id, ...result });
    },
  );

  app.patch(
    `${base}/:id`,
    {
      config: { access: { area, action: 'update' } },
      schema: { ...tag, summary: 'Change a series: all its lessons or the following ones (version required)', body: jsonSchema(PatchBody) },
    },
    async (request) => {
      const ctx = ctxOf(request);
      spec.guard?.(ctx, 'update');
      const id = parseId((request.params as { id?: string }).id);
      const { version, scope, from_date, include_changed, ...input } = parseBody(PatchBody, blankToNull(def, request.body)) as Record<string, unknown> & {
        version: number;
        scope?: 'all' | 'following';
        from_date?: string;
        include_changed?: boolean;
      };
      const cleared: FieldErrors = {};
      for (const f of def.fields) if ((f.required || f.default !== undefined) && input[f.name] === null) cleared[f.name] = 'required';
      if ((scope ?? 'all') === 'following' && !from_date) cleared.from_date = 'required';
      if (Object.keys(cleared).length) throw new DomainError('validation', undefined, cleared);
      return withTenant(database, ctx.tenantId, (tx) =>
        patchSeries(tx, registry, ctx, id, input, version, { scope: scope ?? 'all', fromDate: from_date, includeChanged: include_changed ?? false }),
      );
    },
  );

  app.delete(
    `${base}/:id`,
    { config: { access: { area, action: 'delete' } }, schema: { ...tag, summary: 'Delete a series, or its lessons from from_date on' } },
    async (request, reply) => {
      const ctx = ctxOf(request);
      spec.guard?.(ctx, 'delete');
      const id = parseId((request.params as { id?: string }).id);
      const { fromDate, includeChanged } = deleteOptions((request.query ?? {}) as RawQuery);
      await withTenant(database, ctx.tenantId, (tx) => deleteSeries(tx, registry, ctx, id, fromDate, includeChanged));
      return reply.code(204).send();
    },
  );
}
