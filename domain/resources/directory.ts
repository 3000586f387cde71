import { LESSON_TYPE_VALUES } from '../enums';
import type { FieldDef, ResourceDef } from '../fields';

// The plain entities of a centre: each is a name (and a few details) that lessons, classes,
// students and contracts point to.
const name = (max = 100): FieldDef => ({ name: 'name', type: 'TEXT', required: true, max, sortable: true, filterable: true, searchable: true });
const color: FieldDef = { name: 'color', type: 'COLOR', filterable: true };
const byName = [{ field: 'name', order: 'asc' }] as const;

export const SUBJECTS: ResourceDef = { name: 'subjects', area: 'directory', fields: [name(), color], defaultSort: byName };

export const ROOMS: ResourceDef = {
  name: 'rooms',
  area: 'directory',
  fields: [name(), { name: 'capacity', type: 'NUMBER', integer: true, min: 1, max: 1000, sortable: true, filterable: true }],
  defaultSort: byName,
};

export const CLASS_CATEGORIES: ResourceDef = { name: 'class-categories', area: 'categories', fields: [name()], defaultSort: byName };

export const CONTRACT_CATEGORIES: ResourceDef = { name: 'contract-categories', area: 'categories', fields: [name()], defaultSort: byName };

export const CLASSES: ResourceDef = {
  name: 'classes',
  area: 'directory',
  fields: [
    name(),
    { name: 'category_id', type: 'REFERENCE', reference: 'class-categories', sortable: true, filterable: true },
    { name: 'student_ids', type: 'REFERENCES', reference: 'students', filterable: true },
    { name: 'subject_ids', type: 'REFERENCES', reference: 'subjects', filterable: true },
    { name: 'information', type: 'LONG_TEXT', searchable: true },
  ],
  defaultSort: byName,
};

export const LESSON_TYPES: ResourceDef = {
  name: 'lesson-types',
  area: 'directory',
  fields: [name(), color, { name: 'entity', type: 'ENUM', options: LESSON_TYPE_VALUES, default: 'NORMAL', sortable: true, filterable: true }],
  defaultSort: byName,
};

export const LESSON_TAGS: ResourceDef = { name: 'lesson-tags', area: 'directory', fields: [name(), color], defaultSort: byName };
