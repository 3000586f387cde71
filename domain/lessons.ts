import type { FieldErrors } from './field-codes';
import type { LessonStatus, Recurrence, RecurrenceEnd } from './enums';
import type { ReferenceLabel } from './references';

// The rules of lessons, shared by the server, which
// enforces them, and the client, which previews a series and offers only allowed actions.

/** A series must end: at most this many lessons … */
export const MAX_OCCURRENCES = 500;
/** … and within this many years of its start. */
export const MAX_SERIES_YEARS = 2;

/** Status moves made by `PATCH /api/lessons/<id>` with `status` (docs/rules.md, Status and replacement). REPLACED is reached
 * only by creating the replacement, and left only by deleting it. */
export const LESSON_TRANSITIONS: Record<LessonStatus, readonly LessonStatus[]> = {
  NORMAL: ['TO_BE_REPLACED', 'CANCELED'],
  TO_BE_REPLACED: ['CANCELED'],
  REPLACED: [],
  CANCELED: ['NORMAL'],
};

/** True when a PATCH may move `from` to `to` (sending the current status is no move). */
export const canChangeStatus = (from: LessonStatus, to: LessonStatus) => from === to || LESSON_TRANSITIONS[from].includes(to);

/** Only a lesson marked "to be replaced" gets a replacement (kind 2, replaces_lesson_id). */
export const canBeReplaced = (status: LessonStatus) => status === 'TO_BE_REPLACED';

/** Numeric lesson kinds: 1 Normal, 2 Replacement, 3 Replaced. */
export const KIND = { NORMAL: 1, REPLACEMENT: 2, REPLACED: 3 } as const;

/** What two overlapping lessons may share: each is one exclusion constraint. */
export const CONFLICT_RESOURCES = ['room', 'teacher', 'class'] as const;
export type ConflictResource = (typeof CONFLICT_RESOURCES)[number];

/** A lesson in the way, as the 409 `conflict` answer names it: `{error: {code, message, lessons}}`. */
export interface LessonConflict {
  id: number;
  date: string;
  start_time: string;
  end_time: string;
  status: LessonStatus;
  teacher: ReferenceLabel | null;
  subject: ReferenceLabel | null;
  room: ReferenceLabel | null;
  class: ReferenceLabel | null;
  /** Which of the new lesson's room, teacher and class this one already holds. */
  clashes: ConflictResource[];
}

/** Minutes since midnight of an `HH:mm` time. */
export const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Half-open intervals: 17:00–18:00 and 18:00–19:00 do not overlap. */
export const timesOverlap = (a: { start_time: string; end_time: string }, b: { start_time: string; end_time: string }) =>
  minutesOf(a.start_time) < minutesOf(b.end_time) && minutesOf(b.start_time) < minutesOf(a.end_time);

/** docs/rules.md, Lessons: end after start, the same day. */
export function checkTimes(start: unknown, end: unknown): FieldErrors {
  if (typeof start !== 'string' || typeof end !== 'string') return {};
  return minutesOf(end) > minutesOf(start) ? {} : { end_time: 'too-small' };
}

// Dates are calendar days: computed in UTC so no daylight-saving change shifts them.
const toDay = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
const fromDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const DAY = 86_400_000;

export const addDays = (date: string, days: number) => fromDay(toDay(date) + days * DAY);

/** ISO weekday, 1 Monday to 7 Sunday. */
export const isoWeekday = (date: string) => ((new Date(toDay(date)).getUTCDay() + 6) % 7) + 1;

/** The same day `years` later (29 February becomes 28 February). */
export function addYears(date: string, years: number) {
  const y = Number(date.slice(0, 4)) + years;
  const md = date.slice(5);
  const candidate = `${String(y).padStart(4, '0')}-${md}`;
  return md === '02-29' && fromDay(toDay(candidate)) !== candidate ? `${String(y).padStart(4, '0')}-02-28` : candidate;
}

export interface RecurrenceRule {
  repeat: Recurrence;
  repeat_every?: number | null;
  weekdays?: readonly number[] | null;
  start_date: string;
  end_type?: RecurrenceEnd | null;
  occurrences?: number | null;
  until_date?: string | null;
  dates?: readonly string[] | null;
}

export type Expansion =
  | { ok: true; dates: string[]; rule: Required<{ [K in keyof RecurrenceRule]: RecurrenceRule[K] | null }> }
  | { ok: false; fields: FieldErrors };

/**
 * The dates of a series, or why it is refused (field codes). DAILY: every N days from
 * start_date. WEEKLY: every N weeks (counted from start_date's week) on `weekdays`, by default
 * start_date's weekday. CUSTOM: the hand-picked `dates`. DAILY and WEEKLY end AFTER
 * `occurrences` or ON_DATE `until_date`. Never more than MAX_OCCURRENCES, never past
 * MAX_SERIES_YEARS from start_date. The returned rule drops what its repeat does not use.
 */
export function expandRecurrence(input: RecurrenceRule): Expansion {
  const fields: FieldErrors = {};
  const start = input.start_date;
  const horizon = addYears(start, MAX_SERIES_YEARS);
  const every = input.repeat_every ?? 1;

  if (input.repeat === 'CUSTOM') {
    const dates = [...new Set(input.dates ?? [])].sort();
    if (!dates.length) return { ok: false, fields: { dates: 'required' } };
    if (dates.length > MAX_OCCURRENCES) return { ok: false, fields: { dates: 'too-long' } };
    if (dates[0]! < start) return { ok: false, fields: { dates: 'too-small' } };
    if (dates[dates.length - 1]! > horizon) return { ok: false, fields: { dates: 'too-large' } };
    return {
      ok: true,
      dates,
      rule: { repeat: 'CUSTOM', repeat_every: null, weekdays: null, start_date: start, end_type: null, occurrences: null, until_date: null, dates },
    };
  }

  const weekdays = input.repeat === 'WEEKLY' ? [...new Set(input.weekdays?.length ? input.weekdays : [isoWeekday(start)])].sort() : null;
  if (!input.end_type) fields.end_type = 'required';
  else if (input.end_type === 'AFTER' && !input.occurrences) fields.occurrences = 'required';
  else if (input.end_type === 'ON_DATE') {
    if (!input.until_date) fields.until_date = 'required';
    else if (input.until_date < start) fields.until_date = 'too-small';
    else if (input.until_date > horizon) fields.until_date = 'too-large';
  }
  if (Object.keys(fields).length) return { ok: false, fields };

  const last = input.end_type === 'ON_DATE' ? input.until_date! : horizon;
  const limit = input.end_type === 'AFTER' ? input.occurrences! : Infinity;
  const dates: string[] = [];
  if (input.repeat === 'DAILY') {
    for (let d = start; d <= last && dates.length < limit && dates.length <= MAX_OCCURRENCES; d = addDays(d, every)) dates.push(d);
  } else {
    const weekStart = addDays(start, 1 - isoWeekday(start));
    for (let w = weekStart; w <= last && dates.length < limit && dates.length <= MAX_OCCURRENCES; w = addDays(w, 7 * every)) {
      for (const wd of weekdays!) {
        const d = addDays(w, wd - 1);
        if (d >= start && d <= last && dates.length < limit) dates.push(d);
      }
    }
  }
  if (input.end_type === 'AFTER' && dates.length < limit) return { ok: false, fields: { occurrences: 'too-large' } };
  if (dates.length > MAX_OCCURRENCES) return { ok: false, fields: { [input.end_type === 'ON_DATE' ? 'until_date' : 'occurrences']: 'too-large' } };
  if (!dates.length) return { ok: false, fields: { until_date: 'too-small' } };
  return {
    ok: true,
    dates,
    rule: {
      repeat: input.repeat,
      repeat_every: every,
      weekdays,
      start_date: start,
      end_type: input.end_type!,
      occurrences: input.end_type === 'AFTER' ? input.occurrences! : null,
      until_date: input.end_type === 'ON_DATE' ? input.until_date! : null,
      dates: null,
    },
  };
}

/** How a change of a series reaches its lessons (`bulk_update`). */
export const SERIES_SCOPES = ['this', 'following', 'all'] as const;
export type SeriesScope = (typeof SERIES_SCOPES)[number];
