import { LESSON_TYPE_VALUES } from '../enums';
import { defineResource, type FieldDef, type ScreenDef } from '../fields';

// The plain entities of a centre: each is a name (and a few details) that lessons, classes,
// students and contracts point to.
// Literal (as const), so the tables derived from these declarations name their columns in types too.
const name = (max = 100) =>
  ({ name: 'name', type: 'TEXT', required: true, max, sortable: true, filterable: true, searchable: true }) as const satisfies FieldDef;
const color = { name: 'color', type: 'COLOR', filterable: true } as const satisfies FieldDef;
const byName = [{ field: 'name', order: 'asc' }] as const;

export const SUBJECTS = defineResource({
  name: 'subjects',
  area: 'directory',
  fields: [name(), color],
  defaultSort: byName,
  screen: { order: 90, route: '/subjects/', entity: 'subject', modes: ['create', 'update'], icon: 'book' },
});

export const ROOMS = defineResource({
  name: 'rooms',
  area: 'directory',
  fields: [name(), { name: 'capacity', type: 'NUMBER', integer: true, min: 1, max: 1000, sortable: true, filterable: true }],
  defaultSort: byName,
  screen: { order: 100, route: '/rooms/', entity: 'room', modes: ['create', 'update'], icon: 'home' },
});

/** A settings page: everyone reads the categories a form offers, only managers open the page. */
const categoryScreen = (route: string, icon: string, order: number): ScreenDef => ({
  order,
  route,
  entity: 'category',
  modes: ['create', 'update'],
  icon,
  group: 'settings',
  opensFor: 'writers',
});

export const CLASS_CATEGORIES = defineResource({
  name: 'class-categories',
  area: 'categories',
  fields: [name()],
  defaultSort: byName,
  screen: categoryScreen('/classes/settings', 'appstore', 140),
});

export const CONTRACT_CATEGORIES = defineResource({
  name: 'contract-categories',
  area: 'categories',
  fields: [name()],
  defaultSort: byName,
  screen: categoryScreen('/contracts/settings', 'container', 150),
});

export const CLASSES = defineResource({
  name: 'classes',
  area: 'classes',
  fields: [
    name(),
    { name: 'category_id', type: 'REFERENCE', reference: 'class-categories', sortable: true, filterable: true },
    { name: 'student_ids', type: 'REFERENCES', reference: 'students', filterable: true },
    { name: 'subject_ids', type: 'REFERENCES', reference: 'subjects', filterable: true },
    { name: 'information', type: 'LONG_TEXT', searchable: true },
  ],
  defaultSort: byName,
  screen: {
    order: 30,
    route: '/classes/',
    entity: 'class',
    modes: ['create', 'update', 'view'],
    icon: 'read',
    listFields: ['name', 'category_id', 'subject_ids', 'student_ids'],
    tabs: ['lessons', 'recurring-lessons', 'attendance'],
  },
});

export const LESSON_TYPES = defineResource({
  name: 'lesson-types',
  area: 'directory',
  fields: [name(), color, { name: 'entity', type: 'ENUM', options: LESSON_TYPE_VALUES, default: 'NORMAL', sortable: true, filterable: true }],
  defaultSort: byName,
  // Lesson types and tags share one page, a tab each.
  screen: {
    order: 170,
    route: '/lessons/settings',
    entity: 'lesson_type',
    modes: ['create', 'update'],
    icon: 'tags',
    group: 'settings',
    page: 'lesson-settings',
  },
});

export const LESSON_TAGS = defineResource({
  name: 'lesson-tags',
  area: 'directory',
  fields: [name(), color],
  defaultSort: byName,
  screen: {
    order: 180,
    route: '/lessons/settings?type=lesson-tag',
    entity: 'lesson_tag',
    modes: ['create', 'update'],
    icon: 'tags',
    group: 'settings',
    page: 'lesson-settings',
  },
});
