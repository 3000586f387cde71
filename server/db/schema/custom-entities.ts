/**
 * Custom entities: their definitions, their records, and the typed index of the records'
 * values that lists filter and sort by.
 *
 * A record keeps its values in one jsonb object (`data`), read and written whole. Beside it,
 * `custom_values` holds one row per value (one per option of a MULTIPLE_CHOICE), typed: a
 * number or reference id in `num`, a date, choice, boolean or folded text in `txt`. Its two
 * indexes start (tenant, entity, key), so a filter on any field of any entity is an index
 * range scan and a sort is a join on one key, without DDL when a field is added.
 */
import { foreignKey, index, integer, jsonb, pgTable, primaryKey, text, doublePrecision, uniqueIndex } from 'drizzle-orm/pg-core';
import type { CustomEntityField } from '../../../domain/custom-entities';
import { byCodePoint, rowMeta } from './columns';
import { tenants } from './platform';

const tenantId = () =>
  integer('tenant_id')
    .notNull()
    .references(() => tenants.id);

export const customEntities = pgTable(
  'custom_entities',
  {
    tenantId: tenantId(),
    id: integer('id').notNull().generatedAlwaysAsIdentity(),
    slug: text('slug').notNull(),
    nameEl: text('name_el').notNull(),
    nameEn: text('name_en').notNull(),
    namePluralEl: text('name_plural_el').notNull(),
    namePluralEn: text('name_plural_en').notNull(),
    description: text('description'),
    icon: text('icon'),
    group: text('sidebar_group'),
    fields: jsonb('fields').$type<CustomEntityField[]>().notNull(),
    search: text('search').notNull().default(''),
    ...rowMeta(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), uniqueIndex('custom_entities_slug_key').on(t.tenantId, t.slug)],
);

export const customRecords = pgTable(
  'custom_records',
  {
    tenantId: tenantId(),
    id: integer('id').notNull().generatedAlwaysAsIdentity(),
    entityId: integer('entity_id').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    /** The searchable fields' text, folded (domain/text.ts normalizeSearch). */
    search: text('search').notNull().default(''),
    ...rowMeta(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('custom_records_entity_idx').on(t.tenantId, t.entityId, t.id),
    index('custom_records_entity_created_idx').on(t.tenantId, t.entityId, t.createdAt),
    index('custom_records_entity_updated_idx').on(t.tenantId, t.entityId, t.updatedAt),
    foreignKey({ columns: [t.tenantId, t.entityId], foreignColumns: [customEntities.tenantId, customEntities.id] }).onDelete('cascade'),
  ],
);

export const customValues = pgTable(
  'custom_values',
  {
    tenantId: tenantId(),
    entityId: integer('entity_id').notNull(),
    recordId: integer('record_id').notNull(),
    key: text('key').notNull(),
    num: doublePrecision('num'),
    txt: text('txt'),
  },
  (t) => [
    index('custom_values_num_idx').on(t.tenantId, t.entityId, t.key, t.num, t.recordId),
    index('custom_values_txt_idx').on(t.tenantId, t.entityId, t.key, byCodePoint(t.txt), t.recordId),
    index('custom_values_record_idx').on(t.tenantId, t.recordId, t.key),
    foreignKey({ columns: [t.tenantId, t.recordId], foreignColumns: [customRecords.tenantId, customRecords.id] }).onDelete('cascade'),
  ],
);
