/**
 * GET /api/lessons/calendar: every lesson of a date range (at most six weeks, the month
 * view), unpaged, in time order, in the list's row shape. What the calendar screen and the
 * bench call; a TEACHER gets own lessons only (the spec's scope).
 */
import { and, asc, gte, inArray, lte, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { addDays, DomainError, FIELD_REGISTRY, isRealDate, LESSON_STATUSES, type FieldErrors } from '../../../domain/index';
import type { Tx } from '../../db/client';
import { lessons } from '../../db/schema/index';
import { baseWhere, loadRows } from '../crud/read';
import type { Registry } from '../crud/registry';
import type { Ctx, Data } from '../crud/spec';
import { lessonsSpec } from './spec';

/** The month view shows six weeks: the widest range one request may ask for, in days. */
export const MAX_CALENDAR_DAYS = 42;
/** A guard, not a page size: six busy weeks of a large centre stay far below it. */
const MAX_CALENDAR_ROWS = 20_000;

type RawQuery = Record<string, string | string[] | undefined>;

const ID_FILTERS: Record<string, AnyPgColumn> = {
  teacher_id: lessons.teacherId,
  class_id: lessons.classId,
  room_id: lessons.roomId,
  subject_id: lessons.subjectId,
};

export interface CalendarQuery {
  from: string;
  to: string;
  filters: SQL[];
}

/** Reads and checks the query; anything unknown or malformed is a 400 on that name. */
export function parseCalendarQuery(raw: RawQuery): CalendarQuery {
  const fields: FieldErrors = {};
  const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  const day = (key: 'from' | 'to') => {
    const v = raw[key];
    if (v === undefined || v === '') fields[key] = 'required';
    else if (typeof v !== 'string' || !isRealDate(v)) fields[key] = 'invalid-format';
    else return v;
    return undefined;
  };
  const from = day('from');
  const to = day('to');
  if (from && to) {
    if (to < from) fields.to = 'too-small';
    else if (to > addDays(from, MAX_CALENDAR_DAYS - 1)) fields.to = 'too-large';
  }
  const filters: SQL[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'from' || key === 'to' || value === undefined) continue;
    const values = list(value);
    if (values.length > 50) {
      fields[key.slice(0, 64)] = 'too-long';
      continue;
    }
    if (key === 'status') {
      if (values.some((v) => !(LESSON_STATUSES as readonly string[]).includes(v))) fields.status = 'invalid-option';
      else if (values.length) filters.push(inArray(lessons.status, values));
      continue;
    }
    const column = ID_FILTERS[key];
    if (!column) {
      fields[key.slice(0, 64)] = 'unknown-field';
      continue;
    }
    const ids = values.map((v) => FIELD_REGISTRY.REFERENCE.filter({ name: key, type: 'REFERENCE' }, v));
    if (ids.some((v) => v === undefined)) fields[key] = 'invalid';
    else if (ids.length) filters.push(inArray(column, ids as number[]));
  }
  if (Object.keys(fields).length) throw new DomainError('validation', 'The calendar query is not valid.', fields);
  return { from: from!, to: to!, filters };
}

export async function calendarLessons(tx: Tx, registry: Registry, ctx: Ctx, query: CalendarQuery): Promise<{ data: Data[]; total: number }> {
  const where = [...baseWhere(lessonsSpec, ctx), gte(lessons.date, query.from), lte(lessons.date, query.to), ...query.filters];
  const { rows } = await loadRows(tx, registry, ctx, lessonsSpec, {
    where: [and(...where)!],
    order: [asc(lessons.date), asc(lessons.startTime), asc(lessons.id)],
    limit: MAX_CALENDAR_ROWS,
  });
  return { data: rows, total: rows.length };
}
