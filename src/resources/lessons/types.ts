import type { LessonConflict } from '../../../domain/lessons';
import type { RowOf } from '../../../domain/fields';
import type { LESSONS, RECURRING_LESSONS } from '../../../domain/resources/lessons';

/** A lesson as the API sends it: its declared fields and labels, colour and replacement link. */
export type Lesson = RowOf<typeof LESSONS> & {
  kind: 1 | 2 | 3;
  color: string | null;
  replaced_by: number | null;
  [key: string]: unknown;
};

export type RecurringLesson = RowOf<typeof RECURRING_LESSONS> & { [key: string]: unknown };

export type { LessonConflict };
