/**
 * The plain entities of a centre (domain/resources/directory.ts). Every table is keyed
 * (tenant_id, id) and every foreign key includes tenant_id, so a row can never point into
 * another tenant. `search` holds normalizeSearch() of the searchable fields for `q`. The
 * plain ones are derived from their declarations (declared.ts); classes, with hooks and a
 * join table, is written out.
 */
import { foreignKey, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { CLASS_CATEGORIES, CONTRACT_CATEGORIES, LESSON_TAGS, LESSON_TYPES, ROOMS, SUBJECTS } from '../../../domain/resources/directory';
import { linkTable, rowMeta } from './columns';
import { declaredTable } from './declared';
import { id, search, tenantId } from './tenant-columns';

export const subjects = declaredTable(SUBJECTS);

export const rooms = declaredTable(ROOMS);

export const classCategories = declaredTable(CLASS_CATEGORIES);

export const contractCategories = declaredTable(CONTRACT_CATEGORIES);

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

export const lessonTypes = declaredTable(LESSON_TYPES);

export const lessonTags = declaredTable(LESSON_TAGS);
