/**
 * /api/recurring-lessons: reads through the generic engine; create, change and delete are
 * the series operations of series.ts. A TEACHER reads own series and writes none.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createSchema,
  DomainError,
  fieldSchema,
  listJsonSchema,
  oneJsonSchema,
  RECURRING_LESSONS,
  RESOURCE_AREA,
  SeriesAnswer,
  updateSchema,
  type FieldErrors,
  type LessonStatus,
} from '../../../domain/index';
import type { Database } from '../../db/types';
import { withTenant } from '../../db/doors';
import { answerSchema } from '../../engine/answers';
import { formBody } from '../../engine/body';
import { listRows } from '../../engine/list';
import { findRow } from '../../engine/read';
import type { Registry } from '../../engine/registry';
import { withDefaults } from '../../engine/input';
import { ctxOf, rowSchemaOf, sendPage } from '../../engine/routes';
import { IdParams } from '../../engine/params';
import { createSeries, deleteSeries, patchSeries, setSeriesStatus } from './series';
import { recurringLessonsSpec as spec } from './spec';

const def = RECURRING_LESSONS;
const dates = fieldSchema({ name: 'skip_dates', type: 'DATES', max: 500 });
const CreateBody = formBody(def, (createSchema(def) as z.ZodObject).extend({ skip_dates: dates.nullable().optional() }));
const PatchBody = formBody(
  def,
  (updateSchema(def) as z.ZodObject).extend({
    scope: z.enum(['all', 'following']).optional(),
    from_date: fieldSchema({ name: 'from_date', type: 'DATE' }).optional(),
    include_changed: z.boolean().optional(),
    // Alone: cancels, marks to be replaced or restores the lessons in scope.
    status: z.enum(['NORMAL', 'TO_BE_REPLACED', 'CANCELED']).optional(),
  }),
);
/** ?from_date=YYYY-MM-DD&include_changed=true|false, nothing else. */
const DeleteQuery = z.strictObject({
  from_date: fieldSchema({ name: 'from_date', type: 'DATE' }).optional(),
  include_changed: z.enum(['true', 'false']).optional(),
});

type RawQuery = Record<string, string | string[] | undefined>;

export const seriesRoutes: FastifyPluginAsyncZod<{ database: Database; registry: Registry }> = async (app, { database, registry }) => {
  const area = RESOURCE_AREA[def.name] ?? def.area;
  const tag = { tags: [def.name] };
  const row = rowSchemaOf(spec);
  const guard = (action: 'create' | 'update' | 'delete') => async (request: FastifyRequest) => spec.guard?.(ctxOf(request), action);

  app.get(
    '',
    { config: { access: { area, action: 'list' } }, schema: { ...tag, summary: 'List recurring lessons', response: { 200: listJsonSchema(row) } } },
    async (request, reply) => {
      const ctx = ctxOf(request);
      const page = await withTenant(database, ctx.tenantId, (tx) => listRows(tx, registry, ctx, spec, request.query as RawQuery, { json: true }));
      return sendPage(reply, page);
    },
  );

  app.get(
    '/:id',
    {
      config: { access: { area, action: 'read' } },
      schema: { ...tag, summary: 'One recurring lesson', params: IdParams, response: { 200: oneJsonSchema(row) } },
    },
    async (request) => {
      const ctx = ctxOf(request);
      const data = await withTenant(database, ctx.tenantId, (tx) => findRow(tx, registry, ctx, spec, request.params.id));
      if (!data) throw new DomainError('not-found');
      return { data };
    },
  );

  app.post(
    '',
    {
      config: { access: { area, action: 'create' } },
      preValidation: guard('create'),
      schema: {
        ...tag,
        summary: 'Create a series and all its lessons (all or nothing; 409 names every conflict)',
        body: CreateBody,
        response: { 201: answerSchema(SeriesAnswer, row) },
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(request);
      const { skip_dates, ...body } = request.body as Record<string, unknown>;
      const input = withDefaults(def, body);
      const result = await withTenant(database, ctx.tenantId, (tx) => createSeries(tx, registry, ctx, input, (skip_dates as string[] | null) ?? []));
      return reply.code(201).send({ id: result.data.id, ...result });
    },
  );

  app.patch(
    '/:id',
    {
      config: { access: { area, action: 'update' } },
      preValidation: guard('update'),
      schema: {
        ...tag,
        summary: 'Change a series: all its lessons or the following ones (version required); `status` alone cancels, marks to be replaced or restores them',
        params: IdParams,
        body: PatchBody,
        response: { 200: answerSchema(SeriesAnswer, row) },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      const { version, scope, from_date, include_changed, status, ...input } = request.body as Record<string, unknown> & {
        version: number;
        scope?: 'all' | 'following';
        from_date?: string;
        include_changed?: boolean;
        status?: LessonStatus;
      };
      const cleared: FieldErrors = {};
      for (const f of def.fields) if ((f.required || f.default !== undefined) && input[f.name] === null) cleared[f.name] = 'required';
      if ((scope ?? 'all') === 'following' && !from_date) cleared.from_date = 'required';
      // A status change comes alone: a series' schedule and its lessons' status are two changes.
      if (status !== undefined && Object.keys(input).length) cleared.status = 'invalid';
      if (Object.keys(cleared).length) throw new DomainError('validation', undefined, cleared);
      const opts = { scope: scope ?? 'all', fromDate: from_date, includeChanged: include_changed ?? false } as const;
      return withTenant(database, ctx.tenantId, (tx) =>
        status
          ? setSeriesStatus(tx, registry, ctx, request.params.id, status, version, opts)
          : patchSeries(tx, registry, ctx, request.params.id, input, version, opts),
      );
    },
  );

  app.delete(
    '/:id',
    {
      config: { access: { area, action: 'delete' } },
      preValidation: guard('delete'),
      schema: { ...tag, summary: 'Delete a series, or its lessons from from_date on', params: IdParams, querystring: DeleteQuery },
    },
    async (request, reply) => {
      const ctx = ctxOf(request);
      const { from_date, include_changed } = request.query;
      await withTenant(database, ctx.tenantId, (tx) =>
        deleteSeries(tx, registry, ctx, request.params.id, (from_date as string | undefined) || undefined, include_changed === 'true'),
      );
      return reply.code(204).send();
    },
  );
};
