import { ACTIVE_STATES, CUSTOM_FIELD_TYPES, GENDERS, GUARDIAN_RELATIONS, NOTIFY_BY } from '../enums';
import { defineResource, type FieldDef } from '../fields';

const person: FieldDef[] = [
  { name: 'first_name', type: 'TEXT', required: true, max: 100, sortable: true, filterable: true, searchable: true, personal: 'name' },
  { name: 'last_name', type: 'TEXT', required: true, max: 100, sortable: true, filterable: true, searchable: true, personal: 'name' },
  { name: 'email', type: 'EMAIL', sortable: true, filterable: true, searchable: true, personal: true },
  { name: 'phone', type: 'PHONE', filterable: true, searchable: true, personal: true },
  { name: 'birth_date', type: 'DATE', sortable: true, filterable: true, personal: true },
  { name: 'gender', type: 'ENUM', options: GENDERS, sortable: true, filterable: true, personal: true },
];
const byName = [
  { field: 'last_name', order: 'asc' },
  { field: 'first_name', order: 'asc' },
] as const;
const personTitle = ['first_name', 'last_name'] as const;

/** A teacher is also a TEACHER sign-in: creating one takes its username and password. */
export const TEACHERS = defineResource({
  name: 'teachers',
  area: 'teachers',
  fields: [
    { name: 'username', type: 'USERNAME', required: true, createOnly: true, sortable: true, filterable: true, searchable: true },
    { name: 'password', type: 'PASSWORD', required: true, createOnly: true, writeOnly: true },
    { name: 'confirm_password', type: 'PASSWORD', required: true, createOnly: true, writeOnly: true, matches: 'password' },
    ...person,
    { name: 'subject_ids', type: 'REFERENCES', reference: 'subjects', filterable: true },
    { name: 'information', type: 'LONG_TEXT', searchable: true, personal: true },
    { name: 'color', type: 'COLOR' },
  ],
  defaultSort: byName,
  screen: {
    order: 50,
    route: '/teachers/',
    entity: 'teacher',
    modes: ['create', 'update', 'view'],
    icon: 'solution',
    // A TEACHER reads her own row (to name herself in a note) but has no screen.
    opensFor: 'writers',
    // the view also offers the teacher's calendar link
    page: 'teachers',
    titleFields: personTitle,
    listFields: ['last_name', 'first_name', 'username', 'email', 'phone', 'subject_ids', 'color'],
    formFields: [
      'username',
      'password',
      'confirm_password',
      'first_name',
      'last_name',
      'email',
      'phone',
      'birth_date',
      'gender',
      'subject_ids',
      'color',
      'information',
    ],
    tabs: ['lessons', 'recurring-lessons'],
  },
});

export const STUDENTS = defineResource({
  name: 'students',
  area: 'students',
  fields: [
    ...person,
    { name: 'guardian_ids', type: 'REFERENCES', reference: 'guardians', filterable: true },
    { name: 'class_ids', type: 'REFERENCES', reference: 'classes', filterable: true },
    { name: 'subject_ids', type: 'REFERENCES', reference: 'subjects', filterable: true },
    { name: 'status', type: 'ENUM', options: ACTIVE_STATES, default: 'ACTIVE', sortable: true, filterable: true },
    { name: 'inactive_reason', type: 'TEXT', max: 500, personal: true },
    { name: 'information', type: 'LONG_TEXT', searchable: true, personal: true },
    { name: 'custom_fields', type: 'CUSTOM_VALUES', default: {}, personal: true },
    { name: 'number_of_contracts', type: 'NUMBER', integer: true, readOnly: true, sortable: true, filterable: true },
    { name: 'first_contract_date', type: 'DATE', readOnly: true, sortable: true, filterable: true },
    { name: 'last_contract_date', type: 'DATE', readOnly: true, sortable: true, filterable: true },
  ],
  defaultSort: byName,
  // A TEACHER reads the first and last names of the students of her classes, and nothing else of them.
  narrowFor: { TEACHER: personTitle },
  screen: {
    order: 40,
    route: '/students/',
    entity: 'student',
    modes: ['create', 'update', 'view'],
    icon: 'user',
    // A TEACHER opens it too: the names of the students of her classes (narrowFor), nothing else.
    // custom fields, import from CSV, "mark inactive" when a delete is refused
    page: 'students',
    titleFields: personTitle,
    listFields: ['last_name', 'first_name', 'phone', 'guardian_ids', 'class_ids', 'status', 'number_of_contracts'],
    tabs: ['guardians', 'contracts', 'payments', 'lessons', 'attendance'],
  },
});

/**
 * A student's parent or guardian: siblings share one (guardian_ids / student_ids are one
 * relation seen from either side). The payer of a contract and the one families' notices go to.
 */
export const GUARDIANS = defineResource({
  name: 'guardians',
  area: 'guardians',
  fields: [
    { name: 'first_name', type: 'TEXT', required: true, max: 100, sortable: true, filterable: true, searchable: true, personal: 'name' },
    { name: 'last_name', type: 'TEXT', required: true, max: 100, sortable: true, filterable: true, searchable: true, personal: 'name' },
    { name: 'relation', type: 'ENUM', options: GUARDIAN_RELATIONS, default: 'GUARDIAN', sortable: true, filterable: true },
    { name: 'phone', type: 'PHONE', filterable: true, searchable: true, personal: true },
    { name: 'email', type: 'EMAIL', sortable: true, filterable: true, searchable: true, personal: true },
    { name: 'address', type: 'TEXT', max: 200, personal: true },
    { name: 'city', type: 'TEXT', max: 100, sortable: true, filterable: true, personal: true },
    { name: 'postal_code', type: 'TEXT', max: 10, filterable: true, personal: true },
    { name: 'tax_id', type: 'TAX_ID', filterable: true, searchable: true, personal: true },
    { name: 'student_ids', type: 'REFERENCES', reference: 'students', filterable: true },
    { name: 'notify', type: 'BOOLEAN', default: true, sortable: true, filterable: true },
    // By default e-mail where an address is known, else SMS (set by the server on create).
    { name: 'notify_by', type: 'ENUM', options: NOTIFY_BY, sortable: true, filterable: true },
    // No notice reaches her: her channel has no address (computed; domain/reach.ts says the same).
    { name: 'unreachable', type: 'BOOLEAN', readOnly: true, sortable: true, filterable: true },
    { name: 'portal', type: 'BOOLEAN', default: false, sortable: true, filterable: true },
  ],
  defaultSort: byName,
  screen: {
    order: 45,
    route: '/guardians/',
    entity: 'guardian',
    modes: ['create', 'update', 'view'],
    icon: 'team',
    // the person's data and its erasure, for managers
    page: 'guardians',
    titleFields: personTitle,
    listFields: ['last_name', 'first_name', 'relation', 'phone', 'email', 'student_ids', 'notify', 'notify_by', 'unreachable', 'portal'],
    tabs: ['messages'],
  },
});

/** The definitions behind each student's `custom_fields`; the key never changes once created. */
export const STUDENT_CUSTOM_FIELDS = defineResource({
  name: 'student-custom-fields',
  area: 'customFields',
  fields: [
    { name: 'key', type: 'KEY', required: true, createOnly: true, sortable: true, filterable: true, searchable: true },
    { name: 'label', type: 'TEXT', required: true, max: 100, sortable: true, filterable: true, searchable: true },
    { name: 'type', type: 'ENUM', required: true, options: CUSTOM_FIELD_TYPES, sortable: true, filterable: true },
    { name: 'options', type: 'OPTIONS' },
    { name: 'required', type: 'BOOLEAN', default: false, sortable: true, filterable: true },
    { name: 'position', type: 'NUMBER', integer: true, min: 0, max: 10_000, default: 0, sortable: true },
  ],
  defaultSort: [
    { field: 'position', order: 'asc' },
    { field: 'label', order: 'asc' },
  ],
  screen: {
    order: 190,
    route: '/students/settings',
    entity: 'custom_field',
    modes: ['create', 'update'],
    icon: 'form',
    group: 'settings',
    opensFor: 'writers',
    // options only for choices, and the explanations of a refused change
    page: 'student-custom-fields',
    titleFields: ['label'],
    listFields: ['label', 'key', 'type', 'options', 'required', 'position'],
  },
});

export const NOTES = defineResource({
  name: 'notes',
  area: 'notes',
  fields: [
    // what is written about a student is about her: erasing her clears it
    { name: 'title', type: 'TEXT', required: true, max: 200, sortable: true, filterable: true, searchable: true, personal: true },
    { name: 'body', type: 'LONG_TEXT', searchable: true, personal: true },
    { name: 'student_id', type: 'REFERENCE', reference: 'students', filterable: true },
    { name: 'teacher_id', type: 'REFERENCE', reference: 'teachers', filterable: true },
    { name: 'class_id', type: 'REFERENCE', reference: 'classes', filterable: true },
    { name: 'author_id', type: 'REFERENCE', reference: 'users', readOnly: true, filterable: true },
  ],
  defaultSort: [{ field: 'updated_at', order: 'desc' }],
  screen: {
    order: 110,
    route: '/notes/',
    entity: 'note',
    modes: ['create', 'update', 'view'],
    icon: 'notes',
    titleFields: ['title'],
    listFields: ['title', 'student_id', 'teacher_id', 'class_id', 'author_id', 'updated_at'],
    ownerField: 'author_id',
  },
});
