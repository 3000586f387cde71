import { LESSON_STATUSES, RECURRENCE_ENDS, RECURRENCES } from '../enums';
import { defineResource, type FieldDef } from '../fields';
import { MAX_OCCURRENCES } from '../lessons';

// Lessons. Dates and times are wall-clock in the
// tenant's time zone: `date` YYYY-MM-DD, `start_time`/`end_time` HH:mm, end after start.
const ref = <N extends string, R extends string>(name: N, reference: R) =>
  ({ name, type: 'REFERENCE', reference, sortable: true, filterable: true }) as const satisfies FieldDef;

/** What a lesson and a series share: who, where, what, when in the day. */
const schedule = [
  { name: 'start_time', type: 'TIME', required: true, sortable: true, filterable: true },
  { name: 'end_time', type: 'TIME', required: true, sortable: true, filterable: true },
  ref('teacher_id', 'teachers'),
  ref('subject_id', 'subjects'),
  ref('room_id', 'rooms'),
  ref('class_id', 'classes'),
  ref('lesson_type_id', 'lesson-types'),
  { name: 'tag_ids', type: 'REFERENCES', reference: 'lesson-tags', max: 20, filterable: true },
  { name: 'notes', type: 'LONG_TEXT', max: 5000, searchable: true },
] as const satisfies readonly FieldDef[];

/** Fields a change of "this lesson" detaches from its series (homework, notes and status do not). */
export const SCHEDULE_FIELDS = ['date', 'start_time', 'end_time', 'teacher_id', 'subject_id', 'room_id', 'class_id', 'lesson_type_id', 'tag_ids'] as const;

/** The only fields a TEACHER may change, and only on own lessons. */
export const TEACHER_LESSON_FIELDS = ['homework', 'notes'] as const;

export const LESSONS = defineResource({
  name: 'lessons',
  area: 'lessons',
  fields: [
    { name: 'date', type: 'DATE', required: true, sortable: true, filterable: true },
    ...schedule,
    { name: 'homework', type: 'LONG_TEXT', max: 5000, searchable: true },
    // Status changes by PATCH along LESSON_TRANSITIONS; a new lesson is always NORMAL.
    { name: 'status', type: 'ENUM', options: LESSON_STATUSES, default: 'NORMAL', sortable: true, filterable: true },
    // 1 Normal, 2 Replacement, 3 Replaced: set by the server, never sent.
    { name: 'kind', type: 'NUMBER', integer: true, min: 1, max: 3, readOnly: true, sortable: true, filterable: true },
    { name: 'replaces_lesson_id', type: 'REFERENCE', reference: 'lessons', createOnly: true, filterable: true },
    { name: 'recurring_lesson_id', type: 'REFERENCE', reference: 'recurring-lessons', readOnly: true, filterable: true },
    // True once this instance was changed on its own; series edits leave it alone unless asked.
    { name: 'detached', type: 'BOOLEAN', readOnly: true, filterable: true },
  ],
  defaultSort: [
    { field: 'date', order: 'asc' },
    { field: 'start_time', order: 'asc' },
  ],
  screen: {
    order: 10,
    route: '/lessons/',
    entity: 'lesson',
    modes: ['create', 'update', 'view'],
    icon: 'schedule',
    page: 'lessons',
    listFields: ['date', 'start_time', 'teacher_id', 'subject_id', 'class_id', 'room_id', 'lesson_type_id', 'status', 'tag_ids'],
  },
});

export const RECURRING_LESSONS = defineResource({
  name: 'recurring-lessons',
  area: 'lessons',
  fields: [
    ...schedule,
    { name: 'repeat', type: 'ENUM', options: RECURRENCES, required: true, sortable: true, filterable: true },
    { name: 'repeat_every', type: 'NUMBER', integer: true, min: 1, max: 52, default: 1 },
    { name: 'weekdays', type: 'WEEKDAYS', filterable: true },
    { name: 'start_date', type: 'DATE', required: true, sortable: true, filterable: true },
    { name: 'end_type', type: 'ENUM', options: RECURRENCE_ENDS, sortable: true, filterable: true },
    { name: 'occurrences', type: 'NUMBER', integer: true, min: 1, max: MAX_OCCURRENCES },
    { name: 'until_date', type: 'DATE', sortable: true, filterable: true },
    { name: 'dates', type: 'DATES', max: MAX_OCCURRENCES },
    // Read only, from the series' lessons.
    { name: 'lesson_count', type: 'NUMBER', integer: true, readOnly: true, sortable: true },
    { name: 'first_date', type: 'DATE', readOnly: true, sortable: true, filterable: true },
    { name: 'last_date', type: 'DATE', readOnly: true, sortable: true, filterable: true },
  ],
  defaultSort: [{ field: 'start_date', order: 'desc' }],
  // The second list of the lessons page; a series is changed through its lessons' drawers.
  screen: { order: 20, route: '/lessons/?list=recurring', entity: 'recurring_lesson', modes: [], page: 'lessons', hidden: true },
});
