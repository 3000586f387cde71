/**
 * /api/custom-entities: ROOT defines the centre's own record types. The slug never changes.
 * A change of the fields that some stored record would not survive is refused (409 in-use,
 * naming the field and how many records stand in the way); relabelling, reordering and
 * adding optional fields always pass; a field holding values is removed only when the PATCH
 * names it in `discard_values`, and an entity holding records is deleted only with
 * `?with_records=true`. Each discarded value and each deleted record is in its history.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type CustomEntityField,
  DomainError,
  entityCreateSchema,
  entityUpdateSchema,
  type FieldDef,
  listJsonSchema,
  normalizeSearch,
  oneJsonSchema,
  parseBody,
  parseListQuery,
  type ResourceDef,
  recordsHistoryEntity,
} from '../../../domain/index';
import type { Tx, Database } from '../../db/types';
import { withTenant } from '../../db/doors';
import { queryRows } from '../../db/statements';
import { customEntities, customRecords } from '../../db/schema/index';
import { pgCode, pgConstraint } from '../../plugins/errors';
import { ctxOf } from '../../engine/routes';
import type { Ctx } from '../../engine/spec';
import { recordHistory, recordHistoryMany } from '../../engine/history';
import { listOrder, listPage, listWhere } from '../../engine/list-query';
import { asEntity, entityAnswer, type EntityRow, reindex, searchOf, valueFits } from '../../engine/values/store';

const text = (name: string): FieldDef => ({ name, type: 'TEXT', sortable: true, filterable: true, searchable: true });
/** The list's whitelist of sorts and filters. */
const DEFINITIONS: ResourceDef = {
  name: 'custom-entities',
  area: 'customEntityDefinitions',
  fields: [text('slug'), text('name_el'), text('name_en'), text('name_plural_el'), text('name_plural_en')],
  defaultSort: [{ field: 'name_el', order: 'asc' }],
  screen: { route: '/custom-entities/', entity: 'entity', modes: ['create', 'update'] },
};
const COLUMNS = {
  id: customEntities.id,
  created_at: customEntities.createdAt,
  updated_at: customEntities.updatedAt,
  slug: customEntities.slug,
  name_el: customEntities.nameEl,
  name_en: customEntities.nameEn,
  name_plural_el: customEntities.namePluralEl,
  name_plural_en: customEntities.namePluralEn,
};

const FIELD_JSON = {
  type: 'object',
  properties: {
    key: { type: 'string' },
    label_el: { type: 'string' },
    label_en: { type: 'string' },
    type: { type: 'string' },
    required: { type: 'boolean' },
    options: { type: ['array', 'null'], items: { type: 'string' } },
    target: { type: ['string', 'null'] },
    position: { type: 'integer' },
    shown_in_list: { type: 'boolean' },
    searchable: { type: 'boolean' },
  },
};
export const ENTITY_JSON = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    slug: { type: 'string' },
    name_el: { type: 'string' },
    name_en: { type: 'string' },
    name_plural_el: { type: 'string' },
    name_plural_en: { type: 'string' },
    description: { type: ['string', 'null'] },
    icon: { type: ['string', 'null'] },
    group: { type: ['string', 'null'] },
    fields: { type: 'array', items: FIELD_JSON },
    version: { type: 'integer' },
    created_at: { type: ['string', 'null'] },
    updated_at: { type: ['string', 'null'] },
  },
};

const entitySearch = (b: { slug: string; name_el: string; name_en: string; name_plural_el: string; name_plural_en: string }) =>
  normalizeSearch([b.slug, b.name_el, b.name_en, b.name_plural_el, b.name_plural_en].join(' '));

const historyView = (row: EntityRow) => {
  const { id: _id, version: _v, created_at: _c, updated_at: _u, ...rest } = entityAnswer(row);
  return rest;
};

/** A REFERENCE to another custom entity must name one of this centre (or the entity itself). */
async function checkTargets(tx: Tx, tenantId: number, slug: string, fields: readonly CustomEntityField[]) {
  const errors: Record<string, 'invalid-option'> = {};
  for (const [i, f] of fields.entries()) {
    if (f.type !== 'REFERENCE' || !f.target?.startsWith('custom:')) continue;
    const other = f.target.slice(7);
    if (other === slug) continue;
    const [found] = await tx
      .select({ id: customEntities.id })
      .from(customEntities)
      .where(and(eq(customEntities.tenantId, tenantId), eq(customEntities.slug, other)));
    if (!found) errors[`fields.${i}.target`] = 'invalid-option';
  }
  if (Object.keys(errors).length) throw new DomainError('validation', 'A reference names no entity of this centre.', errors);
}

async function lockEntity(tx: Tx, tenantId: number, idOrSlug: string): Promise<EntityRow> {
  const byId = /^\d{1,10}$/.test(idOrSlug) && Number(idOrSlug) <= 2_147_483_647;
  const [row] = await tx
    .select()
    .from(customEntities)
    .where(and(eq(customEntities.tenantId, tenantId), byId ? eq(customEntities.id, Number(idOrSlug)) : eq(customEntities.slug, idOrSlug)))
    .for('update');
  if (!row) throw new DomainError('not-found');
  return row;
}

/** Every record's stored value of `key` (records without one left out). */
async function storedValues(tx: Tx, tenantId: number, entityId: number, key: string): Promise<{ id: number; value: unknown }[]> {
  return queryRows<{ id: number; value: unknown }>(
    tx,
    sql`select id, data -> ${key}::text as value from custom_records where tenant_id = ${tenantId} and entity_id = ${entityId} and data ? ${key}::text`,
  );
}

const SHAPE = ['type', 'options', 'required', 'target'] as const;
const sameShape = (a: CustomEntityField, b: CustomEntityField) => SHAPE.every((k) => JSON.stringify(a[k] ?? null) === JSON.stringify(b[k] ?? null));

/** Checks a change of fields against the stored records; returns the keys whose values go. */
async function checkFieldChange(tx: Tx, ctx: Ctx, row: EntityRow, next: readonly CustomEntityField[], discard: readonly string[]) {
  const nextByKey = new Map(next.map((f) => [f.key, f]));
  const removed: string[] = [];
  for (const old of row.fields) {
    const now = nextByKey.get(old.key);
    if (!now) {
      const held = (await storedValues(tx, ctx.tenantId, row.id, old.key)).length;
      if (held && !discard.includes(old.key)) {
        throw new DomainError('in-use', `${held} records hold a value of ${old.key}; name it in discard_values to remove them.`, undefined, {
          details: { reason: 'values-held', count: held, field: old.key },
        });
      }
      if (held) removed.push(old.key);
      continue;
    }
    if (sameShape(old, now)) continue;
    const stored = await storedValues(tx, ctx.tenantId, row.id, old.key);
    let misfits = stored.filter((s) => !valueFits(now, s.value)).length;
    // A field made required is missing from every record that holds no value.
    if (now.required && !old.required) {
      const [all] = await queryRows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from custom_records where tenant_id = ${ctx.tenantId} and entity_id = ${row.id}`,
      );
      misfits += Number(all?.n ?? 0) - stored.length;
    }
    if (misfits) {
      throw new DomainError('in-use', `${misfits} records hold values of ${old.key} that would not fit this change.`, undefined, {
        details: { reason: 'values-would-not-fit', count: misfits, field: old.key },
      });
    }
  }
  // A new required field would be missing from every record already stored.
  for (const f of next) {
    if (!f.required || row.fields.some((o) => o.key === f.key)) continue;
    const [all] = await queryRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from custom_records where tenant_id = ${ctx.tenantId} and entity_id = ${row.id}`,
    );
    const n = Number(all?.n ?? 0);
    if (n)
      throw new DomainError('in-use', `${n} records have no value for the new required field ${f.key}.`, undefined, {
        details: { reason: 'values-would-not-fit', count: n, field: f.key },
      });
  }
  return removed;
}

/** Removes discarded values record by record (each in its record's history), then re-indexes every record. */
async function applyFieldChange(tx: Tx, ctx: Ctx, slug: string, after: EntityRow, removed: readonly string[]) {
  const entity = asEntity(after);
  const records = await tx
    .select({ id: customRecords.id, data: customRecords.data, search: customRecords.search })
    .from(customRecords)
    .where(and(eq(customRecords.tenantId, ctx.tenantId), eq(customRecords.entityId, after.id)))
    .for('update');
  const history = [];
  for (const r of records) {
    const held = removed.filter((k) => k in r.data);
    const before = Object.fromEntries(held.map((k) => [k, r.data[k]]));
    for (const k of held) delete r.data[k];
    // Searchable flags may have changed too: the search text follows the definition.
    const search = searchOf(entity, r.data);
    if (!held.length && search === r.search) continue;
    await tx
      .update(customRecords)
      .set(held.length ? { data: r.data, search, version: sql`${customRecords.version} + 1`, updatedAt: sql`now()` } : { search })
      .where(and(eq(customRecords.tenantId, ctx.tenantId), eq(customRecords.id, r.id)));
    if (held.length) {
      history.push({
        entity: recordsHistoryEntity(slug),
        entityId: r.id,
        action: 'update' as const,
        before,
        after: Object.fromEntries(held.map((k) => [k, null])),
      });
    }
  }
  if (history.length) await recordHistoryMany(tx, ctx.tenantId, ctx.actor, history);
  await reindex(tx, entity, ctx.tenantId, records);
}

const IdOrSlug = z.strictObject({ id: z.string().min(1).max(40) });
const DeleteQuery = z.object({ with_records: z.enum(['true', 'false']).optional() });

export const definitionRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  const tags = ['custom-entities'];
  const access = (action: 'list' | 'read' | 'create' | 'update' | 'delete') => ({ access: { area: 'customEntityDefinitions' as const, action } });

  app.get(
    '',
    { config: access('list'), schema: { tags, summary: 'List the custom entities', response: { 200: listJsonSchema(ENTITY_JSON) } } },
    async (request, reply) => {
      const ctx = ctxOf(request);
      const query = parseListQuery(DEFINITIONS, request.query as Record<string, string>);
      const page = await withTenant(database, ctx.tenantId, (tx) =>
        listPage<EntityRow>(tx, {
          table: customEntities,
          select: {
            tenantId: customEntities.tenantId,
            id: customEntities.id,
            slug: customEntities.slug,
            nameEl: customEntities.nameEl,
            nameEn: customEntities.nameEn,
            namePluralEl: customEntities.namePluralEl,
            namePluralEn: customEntities.namePluralEn,
            description: customEntities.description,
            icon: customEntities.icon,
            group: customEntities.group,
            fields: customEntities.fields,
            search: customEntities.search,
            version: customEntities.version,
            createdAt: customEntities.createdAt,
            updatedAt: customEntities.updatedAt,
          },
          where: [eq(customEntities.tenantId, ctx.tenantId), ...listWhere(DEFINITIONS, query, COLUMNS, customEntities.search)],
          order: listOrder(query, COLUMNS, customEntities.id),
          query,
        }),
      );
      reply.header('x-total-count', String(page.total));
      return { data: page.rows.map(entityAnswer), total: page.total };
    },
  );

  app.get(
    '/:id',
    { config: access('read'), schema: { tags, summary: 'One custom entity (by id or slug)', params: IdOrSlug, response: { 200: oneJsonSchema(ENTITY_JSON) } } },
    async (request) => {
      const ctx = ctxOf(request);
      const row = await withTenant(database, ctx.tenantId, (tx) => lockEntity(tx, ctx.tenantId, request.params.id));
      return { data: entityAnswer(row) };
    },
  );

  app.post(
    '',
    {
      config: access('create'),
      schema: { tags, summary: 'Define a custom entity', response: { 201: { type: 'object', properties: { id: { type: 'integer' }, data: ENTITY_JSON } } } },
    },
    async (request, reply) => {
      const body = parseBody(entityCreateSchema, request.body);
      const ctx = ctxOf(request);
      const row = await withTenant(database, ctx.tenantId, async (tx) => {
        await checkTargets(tx, ctx.tenantId, body.slug, body.fields);
        const [created] = await tx
          .insert(customEntities)
          .values({
            tenantId: ctx.tenantId,
            slug: body.slug,
            nameEl: body.name_el,
            nameEn: body.name_en,
            namePluralEl: body.name_plural_el,
            namePluralEn: body.name_plural_en,
            description: body.description || null,
            icon: body.icon ?? null,
            group: body.group ?? null,
            fields: body.fields,
            search: entitySearch(body),
          })
          .returning()
          .catch((error: unknown) => {
            if (pgCode(error) === '23505' && pgConstraint(error) === 'custom_entities_slug_key') {
              throw new DomainError('conflict', 'This slug is taken.', { slug: 'duplicate' }, { details: { reason: 'taken', field: 'slug' } });
            }
            throw error;
          });
        await recordHistory(tx, ctx.tenantId, ctx.actor, { entity: 'custom-entities', entityId: created!.id, action: 'create', after: historyView(created!) });
        return created!;
      });
      return reply.code(201).send({ id: row.id, data: entityAnswer(row) });
    },
  );

  app.patch(
    '/:id',
    {
      config: access('update'),
      schema: { tags, summary: 'Change a custom entity (version required)', params: IdOrSlug, response: { 200: oneJsonSchema(ENTITY_JSON) } },
    },
    async (request) => {
      const body = parseBody(entityUpdateSchema, request.body);
      const ctx = ctxOf(request);
      const row = await withTenant(database, ctx.tenantId, async (tx) => {
        const before = await lockEntity(tx, ctx.tenantId, request.params.id);
        if (body.slug !== undefined && body.slug !== before.slug) throw new DomainError('validation', 'The slug never changes.', { slug: 'invalid' });
        if (body.version !== before.version) throw new DomainError('stale');
        let removed: string[] = [];
        // Only keys, types and search flags touch stored records; labels and order do not.
        const stored = (fields: readonly CustomEntityField[]) => JSON.stringify(fields.map((f) => [f.key, f.type, f.searchable]).sort());
        const fieldsChanged = body.fields !== undefined && stored(body.fields) !== stored(before.fields);
        if (body.fields) {
          await checkTargets(tx, ctx.tenantId, before.slug, body.fields);
          removed = await checkFieldChange(tx, ctx, before, body.fields, body.discard_values ?? []);
        }
        const merged = {
          slug: before.slug,
          name_el: body.name_el ?? before.nameEl,
          name_en: body.name_en ?? before.nameEn,
          name_plural_el: body.name_plural_el ?? before.namePluralEl,
          name_plural_en: body.name_plural_en ?? before.namePluralEn,
        };
        const [after] = await tx
          .update(customEntities)
          .set({
            nameEl: merged.name_el,
            nameEn: merged.name_en,
            namePluralEl: merged.name_plural_el,
            namePluralEn: merged.name_plural_en,
            ...(body.description !== undefined ? { description: body.description || null } : {}),
            ...(body.icon !== undefined ? { icon: body.icon } : {}),
            ...(body.group !== undefined ? { group: body.group } : {}),
            ...(body.fields ? { fields: body.fields } : {}),
            search: entitySearch(merged),
            version: sql`${customEntities.version} + 1`,
            updatedAt: sql`now()`,
          })
          .where(and(eq(customEntities.tenantId, ctx.tenantId), eq(customEntities.id, before.id)))
          .returning();
        if (fieldsChanged) await applyFieldChange(tx, ctx, before.slug, after!, removed);
        await recordHistory(tx, ctx.tenantId, ctx.actor, {
          entity: 'custom-entities',
          entityId: before.id,
          action: 'update',
          before: historyView(before),
          after: historyView(after!),
        });
        return after!;
      });
      return { data: entityAnswer(row) };
    },
  );

  app.delete(
    '/:id',
    {
      config: access('delete'),
      schema: { tags, summary: 'Delete a custom entity (with_records=true when it has records)', params: IdOrSlug, querystring: DeleteQuery },
    },
    async (request, reply) => {
      const ctx = ctxOf(request);
      await withTenant(database, ctx.tenantId, async (tx) => {
        const before = await lockEntity(tx, ctx.tenantId, request.params.id);
        const others = await tx.select().from(customEntities).where(eq(customEntities.tenantId, ctx.tenantId));
        const pointing = others.filter((o) => o.id !== before.id && o.fields.some((f) => f.type === 'REFERENCE' && f.target === `custom:${before.slug}`));
        if (pointing.length) {
          throw new DomainError('in-use', 'Other entities have fields that point at this one.', undefined, {
            details: { reason: 'used-by', count: pointing.length, uses: { 'custom-entities': pointing.length } },
          });
        }
        const records = await tx
          .select({ id: customRecords.id, data: customRecords.data })
          .from(customRecords)
          .where(and(eq(customRecords.tenantId, ctx.tenantId), eq(customRecords.entityId, before.id)));
        if (records.length && request.query.with_records !== 'true') {
          throw new DomainError('in-use', `${records.length} records of this entity exist; delete with with_records=true to delete them too.`, undefined, {
            details: { reason: 'records-held', count: records.length },
          });
        }
        if (records.length) {
          await recordHistoryMany(
            tx,
            ctx.tenantId,
            ctx.actor,
            records.map((r) => ({ entity: recordsHistoryEntity(before.slug), entityId: r.id, action: 'delete' as const, before: r.data })),
          );
        }
        // Its records and their value index go with it (foreign keys cascade).
        await tx.delete(customEntities).where(and(eq(customEntities.tenantId, ctx.tenantId), eq(customEntities.id, before.id)));
        await recordHistory(tx, ctx.tenantId, ctx.actor, { entity: 'custom-entities', entityId: before.id, action: 'delete', before: historyView(before) });
      });
      return reply.code(204).send();
    },
  );
};
