import type { LessonConflict } from '../../../domain/lessons';
import type { LessonStatus, Recurrence, RecurrenceEnd } from '../../../domain/enums';
import type { RefLabel } from '../../components/fields/format';

/** A lesson as the API sends it (CONTRACT issue 4): fields, labels, colour and replacement links. */
export interface Lesson {
  id: number;
  version: number;
  date: string;
  start_time: string;
  end_time: string;
  teacher_id: number | null;
  subject_id: number | null;
  room_id: number | null;
  class_id: number | null;
  lesson_type_id: number | null;
  tag_ids: number[] | null;
  homework: string | null;
  notes: string | null;
  status: LessonStatus;
  kind: 1 | 2 | 3;
  replaces_lesson_id: number | null;
  recurring_lesson_id: number | null;
  detached: boolean;
  teacher: RefLabel | null;
  subject: RefLabel | null;
  room: RefLabel | null;
  class: RefLabel | null;
  lesson_type: RefLabel | null;
  tags: RefLabel[] | null;
  replaces_lesson: RefLabel | null;
  recurring_lesson: RefLabel | null;
  color: string | null;
  replaced_by: number | null;
  created_at?: string;
  updated_at?: string;
  [key: string]: unknown;
}

export interface RecurringLesson {
  id: number;
  version: number;
  start_time: string;
  end_time: string;
  teacher_id: number | null;
  subject_id: number | null;
  room_id: number | null;
  class_id: number | null;
  lesson_type_id: number | null;
  tag_ids: number[] | null;
  notes: string | null;
  repeat: Recurrence;
  repeat_every: number | null;
  weekdays: number[] | null;
  start_date: string;
  end_type: RecurrenceEnd | null;
  occurrences: number | null;
  until_date: string | null;
  dates: string[] | null;
  lesson_count?: number;
  first_date?: string | null;
  last_date?: string | null;
  [key: string]: unknown;
}

export type { LessonConflict };
