/**
 * The plain entities of a centre (domain/resources/directory.ts). Every table is keyed
 * (tenant_id, id) and every foreign key includes tenant_id, so a row can never point into
 * another tenant. `search` holds normalizeSearch() of the searchable fields for `q`.
 */
import { foreignKey, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { linkTable, rowMeta } from './columns';
import { id, search, tenantId } from './tenant-columns';

export const subjects = pgTable(
  'subjects',
  { tenantId: tenantId(), id: id(), name: text('name').notNull(), color: text('color'), search: search(), ...rowMeta() },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('subjects_name_idx').on(t.tenantId, t.name)],
);

export const rooms = pgTable(
  'rooms',
  { tenantId: tenantId(), id: id(), name: text('name').notNull(), capacity: integer('capacity'), search: search(), ...rowMeta() },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('rooms_name_idx').on(t.tenantId, t.name)],
);

export const classCategories = pgTable(
  'class_categories',
  { tenantId: tenantId(), id: id(), name: text('name').notNull(), search: search(), ...rowMeta() },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('class_categories_name_idx').on(t.tenantId, t.name)],
);

export const contractCategories = pgTable(
  'contract_categories',
  { tenantId: tenantId(), id: id(), name: text('name').notNull(), search: search(), ...rowMeta() },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('contract_categories_name_idx').on(t.tenantId, t.name)],
);

export const classes = pgTable(
  'classes',
  {
    tenantId: tenantId(),
    id: id(),
    name: text('name').notNull(),
    categoryId: integer('category_id'),
    information: text('information'),
    search: search(),
    ...rowMeta(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('classes_name_idx').on(t.tenantId, t.name),
    index('classes_category_idx').on(t.tenantId, t.categoryId),
    // No cascade: a category in use is refused (409 in-use) rather than emptied.
    foreignKey({ columns: [t.tenantId, t.categoryId], foreignColumns: [classCategories.tenantId, classCategories.id] }),
  ],
);

/** classes.subject_ids */
export const classSubjects = linkTable('class_subjects', ['classId', 'class_id', () => classes], ['subjectId', 'subject_id', () => subjects]);

export const lessonTypes = pgTable(
  'lesson_types',
  {
    tenantId: tenantId(),
    id: id(),
    name: text('name').notNull(),
    color: text('color'),
    entity: text('entity').notNull().default('NORMAL'),
    search: search(),
    ...rowMeta(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('lesson_types_name_idx').on(t.tenantId, t.name)],
);

export const lessonTags = pgTable(
  'lesson_tags',
  { tenantId: tenantId(), id: id(), name: text('name').notNull(), color: text('color'), search: search(), ...rowMeta() },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('lesson_tags_name_idx').on(t.tenantId, t.name)],
);
