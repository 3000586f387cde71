// The columns of the calendar's compact answer (calendar.ts), apart so that the answer's schema
// (answers/lessons.ts) and the decoder both take them without a circle.

/** A lesson's values in a row, in this order. */
export const CALENDAR_COLUMNS = [
  'id',
  'version',
  'date',
  'start_time',
  'end_time',
  'status',
  'kind',
  'teacher_id',
  'subject_id',
  'room_id',
  'class_id',
  'lesson_type_id',
  'recurring_lesson_id',
  'replaces_lesson_id',
  'detached',
] as const;
export type CalendarColumn = (typeof CALENDAR_COLUMNS)[number];
