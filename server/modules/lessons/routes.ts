/**
 * Lessons, registered under /api/lessons: the calendar's range query and the CRUD routes
 * (rules in spec.ts). Recurring series (series-routes.ts) and the teachers' calendar feeds
 * (feed.ts) are plugins of their own.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Registry } from '../../engine/registry';
import { CalendarAnswerSchema, LESSONS, RESOURCE_AREA } from '../../../domain/index';
import { answerSchema } from '../../engine/answers';
import type { Database } from '../../db/types';
import { withTenantReads } from '../../db/read-batch';
import { crudRoutes, ctxOf } from '../../engine/routes';
import { CALENDAR_QUERY, cachedCalendar, calendarLessons, parseCalendarQuery, revisionOf, revisionStatement } from './calendar';
import { lessonsSpec } from './spec';

export const lessonRoutes: FastifyPluginAsyncZod<{ database: Database; registry: Registry }> = async (app, { database, registry }) => {
  const area = RESOURCE_AREA[LESSONS.name] ?? LESSONS.area;
  // A static segment: find-my-way prefers it to /api/lessons/:id whatever the order.
  app.get(
    '/calendar',
    {
      // The calendar's revision comes with the session check: a week kept for it costs no other read.
      config: { access: { area, action: 'list' }, readWithSession: (tenantId) => [revisionStatement(tenantId)] },
      schema: {
        tags: ['lessons'],
        summary: 'Every lesson from `from` to `to` (at most 42 days), unpaged, in time order',
        querystring: CALENDAR_QUERY,
        // The database writes this answer as JSON itself (see calendar.ts): the schema documents it.
        response: {
          200: answerSchema(CalendarAnswerSchema),
          304: { description: 'Unchanged since the ETag sent in If-None-Match', type: 'null' },
        },
      },
    },
    async (request, reply) => {
      const query = parseCalendarQuery((request.query ?? {}) as Record<string, string | string[] | undefined>);
      const ctx = ctxOf(request);
      const known = revisionOf(request.readWithSession?.[0]);
      const { range, etag } =
        (known !== undefined && cachedCalendar(ctx, query, known)) ||
        (await withTenantReads(database, ctx.tenantId, (tx) => calendarLessons(tx, ctx, query, known)));
      // The browser keeps the week and asks again with If-None-Match: unchanged is a 304.
      reply.header('etag', etag).header('cache-control', 'private, no-cache').header('vary', 'accept-encoding');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      // Already JSON, written by the database; about 115 KB for a busy week, so gzipped for browsers.
      reply.type('application/json; charset=utf-8');
      if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(await range.gzipped());
      return reply.send(range.body);
    },
  );
  await app.register(crudRoutes, { database, registry, spec: lessonsSpec });
};
