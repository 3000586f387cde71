/**
 * What is personal is said on the field (FieldDef.personal); this file says where else such
 * fields are declared: rows kept beside the resources that point at a person, declared with
 * the same field machinery, so erasure and a person's document follow them like a resource's
 * (docs/rules.md, Personal data).
 */
import { ATTENDANCE_STATUSES } from './enums';
import type { FieldDef } from './fields';

/** Rows of a table that is not an API resource of its own, kept in history as `entity`. */
export interface KeptRecords {
  entity: string;
  table: string;
  /** Stored columns, and keys their history holds beside the columns (labels). */
  fields: readonly FieldDef[];
}

export const KEPT_RECORDS: readonly KeptRecords[] = [
  {
    entity: 'attendance',
    table: 'attendance',
    fields: [
      { name: 'lesson_id', type: 'REFERENCE', reference: 'lessons' },
      { name: 'student_id', type: 'REFERENCE', reference: 'students' },
      { name: 'status', type: 'ENUM', options: ATTENDANCE_STATUSES },
      // the teacher's remark about the student
      { name: 'note', type: 'LONG_TEXT', personal: true },
      // the history of a mark shows the student's name beside the values (no column)
      { name: 'student', type: 'TEXT', readOnly: true, personal: true },
    ],
  },
];

/** The personal fields of a declaration. */
export const personalFields = (fields: readonly FieldDef[]): FieldDef[] => fields.filter((f) => f.personal);

/** What stands for an erased value in history and messages. */
export const ERASED_VALUE = '[erased]';
/** The name an erased person is shown by (with `#id`). */
export const ERASED_NAME = 'Διαγραμμένος/η';

/**
 * The value an erased personal field is given on row `id`: the person's name fields read
 * "Διαγραμμένος/η #id" together (the first the placeholder, the last `#id`), a field with a
 * default its default (custom values: none), any other required field the placeholder, the
 * rest nothing.
 */
export function erasedValue(fields: readonly FieldDef[], field: FieldDef, id: number): unknown {
  if (field.personal === 'name') {
    const names = fields.filter((f) => f.personal === 'name');
    const at = names.indexOf(field);
    if (names.length === 1) return `${ERASED_NAME} #${id}`;
    return at === 0 ? ERASED_NAME : at === names.length - 1 ? `#${id}` : '';
  }
  if (field.default !== undefined) return field.default;
  return field.required ? ERASED_NAME : null;
}
