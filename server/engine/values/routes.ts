/**
 * /api/custom-entities/:slug/records: the records of one custom entity, under the same list
 * conventions, validation, optimistic locking and history as every built-in resource. Rows
 * are flat (`{id, version, created_at, updated_at, <key>: value, ...}`), with the label of
 * each reference beside it. The office writes them, TEACHER reads them.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type CustomEntity, DomainError, type FieldErrors, parseBody, recordsHistoryEntity } from '../../../domain/index';
import { platform, queryRows, type Tx, withTenant, withTenantReads, type Database } from '../../db/client';
import { customEntities, customRecords } from '../../db/schema/index';
import type { Registry } from '../registry';
import { ctxOf } from '../routes';
import type { Ctx } from '../spec';
import { recordHistory, recordHistoryMany } from '../history';
import { listRecords, parseRecordQuery } from './list';
import {
  asEntity,
  checkRecordReferences,
  cleanValues,
  entityBySlug,
  parseRecordBody,
  presentRecords,
  type RecordRow,
  recordColumns,
  reindex,
  resolveReferenceNames,
  searchOf,
} from './store';

const Params = z.strictObject({ slug: z.string().min(1).max(60) });
const RecordParams = z.strictObject({
  slug: z.string().min(1).max(60),
  id: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(2_147_483_647)),
});

/** A record as answered: the system fields and any field of the entity (its keys vary by entity). */
const RECORD_JSON = {
  type: 'object',
  properties: { id: { type: 'integer' }, version: { type: 'integer' }, created_at: { type: ['string', 'null'] }, updated_at: { type: ['string', 'null'] } },
  additionalProperties: true,
};
const LIST_JSON = { type: 'object', properties: { data: { type: 'array', items: RECORD_JSON }, total: { type: 'integer' } } };
const ONE_JSON = { type: 'object', properties: { data: RECORD_JSON } };
const CREATED_JSON = { type: 'object', properties: { id: { type: 'integer' }, data: RECORD_JSON } };

export const MAX_IMPORT_ROWS = 5000;
const ImportBody = z.strictObject({
  rows: z.array(z.unknown()).max(MAX_IMPORT_ROWS),
  skip_invalid: z.boolean().optional(),
  dry_run: z.boolean().optional(),
});

async function entityOf(tx: Tx, tenantId: number, slug: string): Promise<CustomEntity> {
  const row = await entityBySlug(tx, tenantId, slug);
  if (!row) throw new DomainError('not-found');
  return asEntity(row);
}

async function loadRecord(tx: Tx, ctx: Ctx, entity: CustomEntity, id: number, lock = false): Promise<RecordRow> {
  const q = tx
    .select(recordColumns)
    .from(customRecords)
    .where(and(eq(customRecords.tenantId, ctx.tenantId), eq(customRecords.entityId, entity.id), eq(customRecords.id, id)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw new DomainError('not-found');
  return row;
}

async function assertReferences(tx: Tx, registry: Registry, ctx: Ctx, entity: CustomEntity, input: Record<string, unknown>) {
  const [fields] = await checkRecordReferences(tx, registry, ctx, entity, [input]);
  if (fields && Object.keys(fields).length)
    throw new DomainError('validation', 'A reference names no record of this centre.', fields, { details: { reason: 'reference-missing' } });
}

/** Records of other entities that point at this record keep it (409 in-use). */
async function pointingAt(tx: Tx, ctx: Ctx, slug: string, id: number): Promise<number> {
  const entities = await tx.select().from(customEntities).where(eq(customEntities.tenantId, ctx.tenantId));
  let count = 0;
  for (const e of entities) {
    const keys = e.fields.filter((f) => f.type === 'REFERENCE' && f.target === `custom:${slug}`).map((f) => f.key);
    if (!keys.length) continue;
    const [row] = await queryRows<{ n: number }>(
      tx,
      sql`select count(distinct record_id)::int as n from custom_values where tenant_id = ${ctx.tenantId} and entity_id = ${e.id} and key in (${sql.join(
        keys.map((k) => sql`${k}`),
        sql`, `,
      )}) and num = ${id}::float8 and record_id <> ${id}`,
    );
    count += Number(row?.n ?? 0);
  }
  return count;
}

export const recordRoutes: FastifyPluginAsyncZod<{ database: Database; registry: Registry }> = async (app, { database, registry }) => {
  const tags = ['custom-entity-records'];
  const access = (action: 'list' | 'read' | 'create' | 'update' | 'delete') => ({ access: { area: 'customEntityRecords' as const, action } });

  app.get(
    '/:slug/records',
    { config: access('list'), schema: { tags, summary: 'List the records of a custom entity', params: Params, response: { 200: LIST_JSON } } },
    async (request, reply) => {
      const ctx = ctxOf(request);
      // Reads only: on PostgreSQL without BEGIN and COMMIT, the page and its count in one round trip.
      const page = await withTenantReads(database, ctx.tenantId, async (tx) => {
        const entity = await entityOf(tx, ctx.tenantId, request.params.slug);
        const query = parseRecordQuery(entity, request.query as Record<string, string | string[] | undefined>);
        const { rows, total } = await listRecords(tx, ctx.tenantId, entity, query);
        return { data: await presentRecords(tx, registry, ctx, entity, rows), total };
      });
      reply.header('x-total-count', String(page.total));
      return page;
    },
  );

  app.get(
    '/:slug/records/:id',
    { config: access('read'), schema: { tags, summary: 'One record of a custom entity', params: RecordParams, response: { 200: ONE_JSON } } },
    async (request) => {
      const ctx = ctxOf(request);
      return withTenant(database, ctx.tenantId, async (tx) => {
        const entity = await entityOf(tx, ctx.tenantId, request.params.slug);
        const row = await loadRecord(tx, ctx, entity, request.params.id);
        const [data] = await presentRecords(tx, registry, ctx, entity, [row]);
        return { data };
      });
    },
  );

  app.post(
    '/:slug/records',
    { config: access('create'), schema: { tags, summary: 'Create a record of a custom entity', params: Params, response: { 201: CREATED_JSON } } },
    async (request, reply) => {
      const ctx = ctxOf(request);
      const data = await withTenant(database, ctx.tenantId, async (tx) => {
        const entity = await entityOf(tx, ctx.tenantId, request.params.slug);
        const { values } = parseRecordBody(entity, request.body, 'create');
        await assertReferences(tx, registry, ctx, entity, values);
        const stored = cleanValues(entity, values);
        const [row] = await tx
          .insert(customRecords)
          .values({ tenantId: ctx.tenantId, entityId: entity.id, data: stored, search: searchOf(entity, stored) })
          .returning(recordColumns);
        await reindex(tx, entity, ctx.tenantId, [row!], true);
        await recordHistory(tx, ctx.tenantId, ctx.actor, { entity: recordsHistoryEntity(entity.slug), entityId: row!.id, action: 'create', after: stored });
        const [out] = await presentRecords(tx, registry, ctx, entity, [row!]);
        return out!;
      });
      return reply.code(201).send({ id: data.id, data });
    },
  );

  app.patch(
    '/:slug/records/:id',
    {
      config: access('update'),
      schema: { tags, summary: 'Change a record of a custom entity (version required)', params: RecordParams, response: { 200: ONE_JSON } },
    },
    async (request) => {
      const ctx = ctxOf(request);
      return withTenant(database, ctx.tenantId, async (tx) => {
        const entity = await entityOf(tx, ctx.tenantId, request.params.slug);
        const { values, version } = parseRecordBody(entity, request.body, 'update');
        const before = await loadRecord(tx, ctx, entity, request.params.id, true);
        if (version !== before.version) throw new DomainError('stale');
        // Only references that change must exist now.
        const changed = Object.fromEntries(Object.entries(values).filter(([k, v]) => v !== before.data[k]));
        await assertReferences(tx, registry, ctx, entity, changed);
        const stored = cleanValues(entity, { ...before.data, ...values });
        const [row] = await tx
          .update(customRecords)
          .set({ data: stored, search: searchOf(entity, stored), version: sql`${customRecords.version} + 1`, updatedAt: sql`now()` })
          .where(and(eq(customRecords.tenantId, ctx.tenantId), eq(customRecords.id, before.id)))
          .returning(recordColumns);
        await reindex(tx, entity, ctx.tenantId, [row!]);
        const keys = Object.keys(values);
        await recordHistory(tx, ctx.tenantId, ctx.actor, {
          entity: recordsHistoryEntity(entity.slug),
          entityId: before.id,
          action: 'update',
          before: Object.fromEntries(keys.map((k) => [k, before.data[k] ?? null])),
          after: Object.fromEntries(keys.map((k) => [k, stored[k] ?? null])),
        });
        const [data] = await presentRecords(tx, registry, ctx, entity, [row!]);
        return { data };
      });
    },
  );

  app.delete(
    '/:slug/records/:id',
    { config: access('delete'), schema: { tags, summary: 'Delete a record of a custom entity', params: RecordParams } },
    async (request, reply) => {
      const ctx = ctxOf(request);
      await withTenant(database, ctx.tenantId, async (tx) => {
        const entity = await entityOf(tx, ctx.tenantId, request.params.slug);
        const before = await loadRecord(tx, ctx, entity, request.params.id, true);
        const uses = await pointingAt(tx, ctx, entity.slug, before.id);
        if (uses) {
          throw new DomainError('in-use', `${uses} records point at this one.`, undefined, {
            count: uses,
            details: { reason: 'used-by', count: uses, uses: { 'custom-entities': uses } },
          });
        }
        await tx.delete(customRecords).where(and(eq(customRecords.tenantId, ctx.tenantId), eq(customRecords.id, before.id)));
        await recordHistory(tx, ctx.tenantId, ctx.actor, {
          entity: recordsHistoryEntity(entity.slug),
          entityId: before.id,
          action: 'delete',
          before: before.data,
        });
      });
      return reply.code(204).send();
    },
  );

  app.post(
    '/:slug/records/import',
    {
      bodyLimit: 10 * 1024 * 1024,
      config: access('create'),
      schema: { tags, summary: 'Create many records at once (all or nothing unless skip_invalid)', params: Params },
    },
    async (request) => {
      const body = parseBody(ImportBody, request.body);
      const ctx = ctxOf(request);
      const outcome = await withTenant(database, ctx.tenantId, async (tx) => {
        const entity = await entityOf(tx, ctx.tenantId, request.params.slug);
        const errors: { row: number; fields: FieldErrors }[] = [];
        const parsed: { row: number; values: Record<string, unknown> }[] = [];
        // A reference may come by name, as the export writes it; a name that fits no one row is the row's error.
        const named = await resolveReferenceNames(tx, registry, ctx.tenantId, entity, body.rows);
        named.rows.forEach((raw, row) => {
          const unnamed = named.errors[row]!;
          try {
            const { values } = parseRecordBody(entity, raw, 'create');
            if (Object.keys(unnamed).length) errors.push({ row, fields: { ...unnamed } });
            else parsed.push({ row, values });
          } catch (error) {
            if (error instanceof DomainError && error.fields) errors.push({ row, fields: { ...error.fields, ...unnamed } });
            else throw error;
          }
        });
        const references = await checkRecordReferences(
          tx,
          registry,
          ctx,
          entity,
          parsed.map((p) => p.values),
        );
        const valid: Record<string, unknown>[] = [];
        parsed.forEach((p, i) => {
          if (Object.keys(references[i]!).length) errors.push({ row: p.row, fields: references[i]! });
          else valid.push(cleanValues(entity, p.values));
        });
        errors.sort((a, b) => a.row - b.row);
        if (errors.length && !body.skip_invalid) {
          throw new DomainError(
            'validation',
            `${errors.length} rows are not valid; nothing was imported.`,
            { rows: 'invalid' },
            { errors, details: { reason: 'rows-invalid', count: errors.length } },
          );
        }
        if (body.dry_run || !valid.length) return { created: valid.length, skipped: errors.length, errors };
        for (let at = 0; at < valid.length; at += 500) {
          const batch = valid.slice(at, at + 500);
          const rows = await tx
            .insert(customRecords)
            .values(batch.map((data) => ({ tenantId: ctx.tenantId, entityId: entity.id, data, search: searchOf(entity, data) })))
            .returning(recordColumns);
          await reindex(tx, entity, ctx.tenantId, rows, true);
          await recordHistoryMany(
            tx,
            ctx.tenantId,
            ctx.actor,
            rows.map((r) => ({ entity: recordsHistoryEntity(entity.slug), entityId: r.id, action: 'create' as const, after: r.data })),
          );
        }
        return { created: valid.length, skipped: errors.length, errors };
      });
      // Fresh statistics after a large import keep list pages on their indexes (needs the owner, so outside the tenant's transaction).
      if (!body.dry_run && outcome.created >= 500) {
        await platform(database).execute(sql`analyze custom_records`);
        await platform(database).execute(sql`analyze custom_values`);
      }
      return outcome;
    },
  );
};
