/**
 * Lessons (issue 4): the CRUD routes of /api/lessons (rules in spec.ts), the calendar's
 * range query, recurring series and the teachers' calendar feeds.
 */
import type { FastifyInstance } from 'fastify';
import { RESOURCE_AREA } from '../../../domain/index';
import { withTenant, type Database } from '../../db/client';
import { crudRoutes, ctxOf } from '../crud/routes';
import { registry } from '../registry';
import { calendarLessons, parseCalendarQuery } from './calendar';
import { calendarFeedRoutes } from './feed';
import { seriesRoutes } from './series-routes';
import { lessonsSpec } from './spec';

export async function lessonRoutes(app: FastifyInstance, { database }: { database: Database }) {
  const area = RESOURCE_AREA.lessons!;
  // A static segment: find-my-way prefers it to /api/lessons/:id whatever the order.
  app.get(
    '/api/lessons/calendar',
    {
      config: { access: { area, action: 'list' } },
      schema: { tags: ['lessons'], summary: 'Every lesson from `from` to `to` (at most 42 days), unpaged, in time order' },
    },
    async (request, reply) => {
      const query = parseCalendarQuery((request.query ?? {}) as Record<string, string | string[] | undefined>);
      const ctx = ctxOf(request);
      const { range, etag } = await withTenant(database, ctx.tenantId, (tx) => calendarLessons(tx, ctx, query));
      // The browser keeps the week and asks again with If-None-Match: unchanged is a 304.
      reply.header('etag', etag).header('cache-control', 'private, no-cache').header('vary', 'accept-encoding');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      // Already JSON, written by the database; half a megabyte for a busy week, so gzipped for browsers.
      reply.type('application/json; charset=utf-8');
      if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(await range.gzipped());
      return reply.send(range.body);
    },
  );
  crudRoutes(app, database, registry, lessonsSpec);
  seriesRoutes(app, database, registry);
  calendarFeedRoutes(app, database);
}
