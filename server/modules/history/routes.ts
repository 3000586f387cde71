/**
 * GET /api/history?entity=users&entity_id=5: the History tab of a detail view. Whoever may
 * read the entity may read its history (the entity's area in domain/permissions.ts, via
 * RESOURCE_AREA); where a role sees only some rows (TEACHER: own notes), only those rows'.
 */
import { and, desc, eq, ne, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Registry } from '../../engine/registry';
import { z } from 'zod';
import { can, DomainError, isOwnOnly, readableFields, RESOURCE_AREA, type Area } from '../../../domain/index';
import { actorOf, tenantOf } from '../../context';
import type { Database, Tx } from '../../db/types';
import { withTenant } from '../../db/doors';
import { queryRows } from '../../db/statements';
import { history } from '../../db/schema/index';
import { findRow } from '../../engine/read';
import { labelChanges, type LabelledChange } from './labels';
import { listPage, pagedQuery, pageOf } from '../../engine/list-query';
import { iso } from '../../engine/params';

/** Entities whose history is kept but which are not API resources of their own. */
const EXTRA_AREAS: Record<string, Area> = { 'root-users': 'tenants', attendance: 'attendance', 'portal-invitations': 'guardians' };

/** A page of history without `_end` holds this many changes. */
const PAGE_ROWS = 50;

const Query = pagedQuery(
  {
    entity: z.string().min(1).max(64),
    entity_id: z
      .string()
      .regex(/^\d{1,10}$/)
      .transform(Number)
      .pipe(z.number().int().positive().max(2_147_483_647)),
    _sort: z.string().max(100).optional(),
    _order: z.string().max(100).optional(),
  },
  PAGE_ROWS,
);

const LABEL = { type: ['string', 'null'] };
/** One change as the History tab reads it; `changes` is the recorded before/after per field, with labels beside references. */
const Entry = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    entity: { type: 'string' },
    entity_id: { type: 'integer' },
    action: { type: 'string' },
    changes: {},
    user_id: { type: ['integer', 'null'] },
    user_name: LABEL,
    user: { type: ['object', 'null'], properties: { id: { type: 'integer' }, name: LABEL, root: { type: 'boolean' } } },
    /** Written by the system itself (no user): the client names it in the reader's language. */
    system: { type: 'boolean' },
    at: LABEL,
  },
};

/**
 * The permission area of an entity name. Own keys only: a name such as `constructor` or
 * `__proto__` must read as unknown, not as something inherited from Object.prototype.
 */
function areaOf(entity: string): Area | undefined {
  if (Object.hasOwn(RESOURCE_AREA, entity)) return RESOURCE_AREA[entity];
  if (Object.hasOwn(EXTRA_AREAS, entity)) return EXTRA_AREAS[entity];
  // A custom entity's records keep their history as `custom:<slug>`.
  return /^custom:[a-z][a-z0-9-]{1,39}$/.test(entity) ? 'customEntityRecords' : undefined;
}

/** Whether attendance mark `id` is of a lesson taught by user `userId`. */
async function ownMark(tx: Tx, tenantId: number, userId: number, id: number): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`select a.id from attendance a
        join lessons l on l.tenant_id = a.tenant_id and l.id = a.lesson_id
        join teachers t on t.tenant_id = l.tenant_id and t.id = l.teacher_id
        where a.tenant_id = ${tenantId} and a.id = ${id} and t.user_id = ${userId}`,
  );
  return rows.length > 0;
}

export const historyRoutes: FastifyPluginAsyncZod<{ database: Database; registry: Registry }> = async (app, { database, registry }) => {
  app.get(
    '',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['history'],
        summary: 'Changes of one record, newest first',
        querystring: Query,
        response: { 200: { type: 'object', properties: { data: { type: 'array', items: Entry }, total: { type: 'integer' } } } },
      },
    },
    async (request, reply) => {
      const { query } = request;
      const area = areaOf(query.entity);
      if (!area) throw new DomainError('validation', 'Unknown entity.', { entity: 'invalid-option' });
      const actor = actorOf(request);
      if (!can(actor.role, area, 'read')) throw new DomainError('forbidden');
      // A tenant's own history is kept inside that tenant.
      const tenantId = query.entity === 'tenants' ? query.entity_id : tenantOf(request).id;
      const { start, end } = pageOf(query, PAGE_ROWS);
      const narrowed = isOwnOnly(actor.role, area) ? registry.specs.get(query.entity) : undefined;
      // A role that reads only some fields of the entity sees only their changes, and no update that changed none of them.
      const readable = readableFields(registry.specs.get(query.entity)?.def ?? {}, actor.role);
      const seen = readable ? [...readable] : undefined;
      const page = await withTenant(database, tenantId, async (tx) => {
        if (narrowed?.scope && !(await findRow(tx, registry, { tenantId, actor }, narrowed, query.entity_id))) {
          throw new DomainError('not-found');
        }
        // A TEACHER reads the history of the marks of her own lessons only.
        if (query.entity === 'attendance' && isOwnOnly(actor.role, area) && !(await ownMark(tx, tenantId, actor.id, query.entity_id))) {
          throw new DomainError('not-found');
        }
        const found = await listPage<{
          id: number;
          action: string;
          changes: Record<string, LabelledChange>;
          userId: number | null;
          userIsRoot: boolean;
          userName: string;
          at: Date;
        }>(tx, {
          table: history,
          select: {
            id: history.id,
            action: history.action,
            changes: history.changes,
            userId: history.userId,
            userIsRoot: history.userIsRoot,
            userName: history.userName,
            at: history.at,
          },
          where: [
            eq(history.tenantId, tenantId),
            and(eq(history.entity, query.entity), eq(history.entityId, query.entity_id)),
            seen
              ? or(
                  ne(history.action, 'update'),
                  seen.length
                    ? sql`${history.changes} ?| ${sql`array[${sql.join(
                        seen.map((name) => sql`${name}`),
                        sql`, `,
                      )}]::text[]`}`
                    : sql`false`,
                )
              : undefined,
          ],
          order: [desc(history.at), desc(history.id)],
          query: { start, end, sort: [], filters: [] },
        });
        if (readable) for (const row of found.rows) row.changes = Object.fromEntries(Object.entries(row.changes ?? {}).filter(([name]) => readable.has(name)));
        await labelChanges(tx, registry, tenantId, query.entity, found.rows, { tenantId, actor });
        return found;
      });
      reply.header('x-total-count', String(page.total));
      return {
        data: page.rows.map((r) => ({
          id: r.id,
          entity: query.entity,
          entity_id: query.entity_id,
          action: r.action,
          changes: r.changes,
          user_id: r.userId,
          // The system (bootstrap, jobs) has no name of its own: the client says it in the reader's language.
          user_name: r.userId === null ? null : r.userName,
          user: r.userId === null ? null : { id: r.userId, name: r.userName, root: r.userIsRoot },
          system: r.userId === null,
          at: iso(r.at),
        })),
        total: page.total,
      };
    },
  );
};
