import type { z } from 'zod';
import type { CalendarAnswerSchema, CalendarLabelSchema } from './answers/lessons';
import type { LessonStatus } from './enums';
import type { ReferenceLabel } from './references';
import { CALENDAR_COLUMNS, type CalendarColumn } from './calendar-columns';

// The calendar's range answer (GET /api/lessons/calendar) in its compact wire form, shared by
// the server, which writes it, and the client, which turns it back into lessons.
//
// A busy week is over a thousand lessons that share a few dozen teachers, rooms, classes,
// subjects and types. Each lesson travels as one array of plain values in the order of
// `columns`; each label (a name, a type's colour) travels once, in `labels`, keyed by id.
//
//   {"columns": ["id", "version", "date", …],
//    "rows": [[812, 1, "2026-11-16", "14:00", "15:00", "NORMAL", 1, 4, 2, 7, 9, 3, 55, null, false], …],
//    "labels": {"teacher": {"4": {"name": "Μαρία Παπαδοπούλου"}, "6": {"name": null, "deleted": true}},
//               "subject": {"2": {"name": "Φυσική"}}, "room": {…}, "class": {…},
//               "lesson_type": {"3": {"name": "Θεωρία", "color": "#52c41a"}}},
//    "total": 1248}

export { CALENDAR_COLUMNS, type CalendarColumn } from './calendar-columns';

/** The references whose labels the answer carries once each: label name and its id column. */
export const CALENDAR_LABELS = {
  teacher: 'teacher_id',
  subject: 'subject_id',
  room: 'room_id',
  class: 'class_id',
  lesson_type: 'lesson_type_id',
} as const satisfies Record<string, CalendarColumn>;
export type CalendarLabelName = keyof typeof CALENDAR_LABELS;

/** A label without its id (the key it is filed under); a lesson type's also has its colour. */
export type CalendarLabel = z.infer<typeof CalendarLabelSchema>;

/** The answer as answers/lessons.ts declares it. */
export type CalendarAnswer = z.infer<typeof CalendarAnswerSchema>;

/** One lesson of the calendar as the client draws it: the lesson's own fields beside its labels. */
export interface CalendarLesson {
  id: number;
  version: number;
  date: string;
  start_time: string;
  end_time: string;
  status: LessonStatus;
  kind: 1 | 2 | 3;
  teacher_id: number | null;
  teacher: ReferenceLabel | null;
  subject_id: number | null;
  subject: ReferenceLabel | null;
  room_id: number | null;
  room: ReferenceLabel | null;
  class_id: number | null;
  class: ReferenceLabel | null;
  lesson_type_id: number | null;
  lesson_type: ReferenceLabel | null;
  /** The lesson type's colour; null without a type (or a type without one). */
  color: string | null;
  recurring_lesson_id: number | null;
  replaces_lesson_id: number | null;
  detached: boolean;
}

/**
 * The lessons of a compact answer, in its order, each as the lesson rows of the API show
 * them (`teacher: {id, name}` beside `teacher_id`, the type's `color`). Columns are found by
 * name, so a column added later on the server does not shift the others.
 */
export function decodeCalendar(answer: CalendarAnswer): CalendarLesson[] {
  const at = Object.fromEntries(CALENDAR_COLUMNS.map((c) => [c, answer.columns.indexOf(c)])) as Record<CalendarColumn, number>;
  const missing = CALENDAR_COLUMNS.filter((c) => at[c] < 0);
  if (missing.length) throw new Error(`The calendar answer has no ${missing.join(', ')} column.`);
  const labels = answer.labels ?? {};
  const label = (name: CalendarLabelName, id: number | null): ReferenceLabel | null => {
    if (id === null) return null;
    const found = labels[name]?.[String(id)];
    if (!found) return { id, name: null };
    return found.deleted ? { id, name: null, deleted: true } : { id, name: found.name };
  };
  return answer.rows.map((row) => {
    const value = (column: CalendarColumn) => row[at[column]] ?? null;
    const ref = (column: CalendarColumn) => value(column) as number | null;
    const typeId = ref('lesson_type_id');
    return {
      id: value('id') as number,
      version: value('version') as number,
      date: value('date') as string,
      start_time: value('start_time') as string,
      end_time: value('end_time') as string,
      status: value('status') as LessonStatus,
      kind: value('kind') as 1 | 2 | 3,
      teacher_id: ref('teacher_id'),
      teacher: label('teacher', ref('teacher_id')),
      subject_id: ref('subject_id'),
      subject: label('subject', ref('subject_id')),
      room_id: ref('room_id'),
      room: label('room', ref('room_id')),
      class_id: ref('class_id'),
      class: label('class', ref('class_id')),
      lesson_type_id: typeId,
      lesson_type: label('lesson_type', typeId),
      color: typeId === null ? null : (labels.lesson_type?.[String(typeId)]?.color ?? null),
      recurring_lesson_id: ref('recurring_lesson_id'),
      replaces_lesson_id: ref('replaces_lesson_id'),
      detached: value('detached') === true,
    };
  });
}
