/**
 * GET /api/lessons/calendar: every lesson of a date range (at most six weeks, the month
 * view), unpaged, in time order, each with what the calendar draws (times, status, kind,
 * labels, the type's colour) in the compact form of domain/calendar.ts. What the calendar
 * screen and the bench call; a TEACHER gets own lessons only (the spec's scope).
 */
import { and, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  addDays,
  CALENDAR_COLUMNS,
  CALENDAR_LABELS,
  DomainError,
  FIELD_REGISTRY,
  isRealDate,
  LESSON_STATUSES,
  type CalendarColumn,
  type CalendarLabelName,
  type FieldErrors,
} from '../../../domain/index';
import type { Tx } from '../../db/types';
import { queryRows } from '../../db/statements';
import { handReadQuery } from '../../plugins/openapi-document';
import { calendarRevisions, classes, lessons, lessonTypes, rooms, subjects, teachers } from '../../db/schema/index';
import { baseWhere } from '../../engine/read';
import { CalendarCache, hash, type CachedRange } from './calendar-cache';
import type { Ctx } from '../../engine/spec';
import { lessonsSpec, ownOnly } from './spec';

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

/** The calendar's query for the route schema and the API description; parseCalendarQuery checks it. */
export const CALENDAR_QUERY = handReadQuery(
  {
    from: { description: `First day, YYYY-MM-DD.` },
    to: { description: `Last day, YYYY-MM-DD: from \`from\` to at most ${MAX_CALENDAR_DAYS - 1} days later.` },
    status: { description: `Only lessons of these statuses: ${LESSON_STATUSES.join(', ')}.`, many: true },
    ...Object.fromEntries(Object.keys(ID_FILTERS).map((name) => [name, { description: `Only lessons with one of these ${name} ids.`, many: true }])),
  },
  ['from', 'to'],
);

export interface CalendarQuery {
  from: string;
  to: string;
  filters: SQL[];
  /** The query in one canonical string (filters sorted): the cache's key. */
  key: string;
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
  const parts: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'from' || key === 'to' || value === undefined) continue;
    const values = list(value);
    if (values.length > 50) {
      fields[key.slice(0, 64)] = 'too-long';
      continue;
    }
    if (key === 'status') {
      if (values.some((v) => !(LESSON_STATUSES as readonly string[]).includes(v))) fields.status = 'invalid-option';
      else if (values.length) {
        filters.push(inArray(lessons.status, values));
        parts.push(`status=${[...values].sort().join(',')}`);
      }
      continue;
    }
    const column = ID_FILTERS[key];
    if (!column) {
      fields[key.slice(0, 64)] = 'unknown-field';
      continue;
    }
    const ids = values.map((v) => FIELD_REGISTRY.REFERENCE.filter({ name: key, type: 'REFERENCE' }, v));
    if (ids.some((v) => v === undefined)) fields[key] = 'invalid';
    else if (ids.length) {
      filters.push(inArray(column, ids as number[]));
      parts.push(`${key}=${(ids as number[]).sort((a, b) => a - b).join(',')}`);
    }
  }
  if (Object.keys(fields).length) throw new DomainError('validation', 'The calendar query is not valid.', fields);
  return { from: from!, to: to!, filters, key: [from, to, ...parts.sort()].join('&') };
}

/** Each column of a calendar row as the database writes it. */
const ROW_VALUES: Record<CalendarColumn, SQL | AnyPgColumn> = {
  id: lessons.id,
  version: lessons.version,
  date: lessons.date,
  start_time: sql`to_char(${lessons.startTime}, 'HH24:MI')`,
  end_time: sql`to_char(${lessons.endTime}, 'HH24:MI')`,
  status: lessons.status,
  kind: lessons.kind,
  teacher_id: lessons.teacherId,
  subject_id: lessons.subjectId,
  room_id: lessons.roomId,
  class_id: lessons.classId,
  lesson_type_id: lessons.lessonTypeId,
  recurring_lesson_id: lessons.recurringLessonId,
  replaces_lesson_id: lessons.replacesLessonId,
  detached: lessons.detached,
};

/**
 * The labels of the references the picked lessons use, once each, keyed by id. Reads the
 * picked rows through the alias `lessons` so drizzle's column names resolve to them.
 */
function labelsOf(ctx: Ctx, name: CalendarLabelName): SQL {
  const reference: Record<CalendarLabelName, AnyPgColumn> = {
    teacher: lessons.teacherId,
    subject: lessons.subjectId,
    room: lessons.roomId,
    class: lessons.classId,
    lesson_type: lessons.lessonTypeId,
  };
  const used = sql`(select ${reference[name]} from picked ${lessons} where ${reference[name]} is not null)`;
  const of = (table: typeof subjects | typeof rooms | typeof classes | typeof lessonTypes | typeof teachers, value: SQL) =>
    sql`(select coalesce(json_object_agg(${table.id}, ${value} order by ${table.id}), '{}'::json)
      from ${table} where ${table.tenantId} = ${ctx.tenantId} and ${table.id} in ${used})`;
  switch (name) {
    case 'teacher':
      // a soft-deleted teacher keeps the id and loses the name, as everywhere else
      return of(
        teachers,
        sql`case when ${teachers.deletedAt} is null then json_build_object('name', trim(${teachers.firstName} || ' ' || ${teachers.lastName}))
          else json_build_object('name', null, 'deleted', true) end`,
      );
    case 'subject':
      return of(subjects, sql`json_build_object('name', ${subjects.name})`);
    case 'room':
      return of(rooms, sql`json_build_object('name', ${rooms.name})`);
    case 'class':
      return of(classes, sql`json_build_object('name', ${classes.name})`);
    case 'lesson_type':
      return of(lessonTypes, sql`json_build_object('name', ${lessonTypes.name}, 'color', ${lessonTypes.color})`);
  }
}

/**
 * The calendar's lessons as one JSON text in the compact form of domain/calendar.ts, built by
 * the database in one statement: a week of a busy centre is over a thousand lessons, and
 * mapping them row by row in Node (plus a statement per label) cost more than the query. Each
 * lesson is an array of plain values; each label is written once per answer, not per lesson
 * (a week of 1,248 lessons: about 115 KB instead of 560 KB). The lesson's view reads the full row.
 */
export async function buildCalendar(tx: Tx, ctx: Ctx, query: CalendarQuery): Promise<string> {
  const where = and(...baseWhere(lessonsSpec, ctx), gte(lessons.date, query.from), lte(lessons.date, query.to), ...query.filters);
  const order = sql`${lessons.date}, ${lessons.startTime}, ${lessons.id}`;
  const row = sql.join(
    CALENDAR_COLUMNS.map((c) => sql`${ROW_VALUES[c]}`),
    sql`, `,
  );
  const labels = sql.join(
    (Object.keys(CALENDAR_LABELS) as CalendarLabelName[]).map((name) => sql`${name}::text, ${labelsOf(ctx, name)}`),
    sql`, `,
  );
  const [answer] = await queryRows<{ body: string }>(
    tx,
    sql`with picked as (select * from ${lessons} where ${where} order by ${order} limit ${MAX_CALENDAR_ROWS})
      select json_build_object(
        'columns', ${JSON.stringify(CALENDAR_COLUMNS)}::json,
        'rows', (select coalesce(json_agg(json_build_array(${row}) order by ${order}), '[]'::json) from picked ${lessons}),
        'labels', json_build_object(${labels}),
        'total', (select count(*) from picked)
      )::text as body`,
  );
  return answer!.body;
}

/** The answer's form (domain/calendar.ts); moved when it changes. */
const CALENDAR_FORM = 'c2';

/** The week a whole office looks at is built once per change of the calendar. */
const cache = new CalendarCache();

type CalendarAnswer = { range: CachedRange; etag: string };

const cacheKey = (ctx: Ctx, query: CalendarQuery) => `${ctx.tenantId}|${ownOnly(ctx) ? `own:${ctx.actor!.id}` : 'all'}|${query.key}`;
// The form's version is part of the tag: a browser holding a week in an older form gets the new one.
const etagOf = (key: string, revision: number) => `W/"${CALENDAR_FORM}.${revision}-${hash(key)}"`;

/**
 * The centre's revision as a statement of its own (the tenant id, an integer, written in),
 * for the route to read with the session check: a cached range then costs no other read.
 */
export const revisionStatement = (tenantId: number) =>
  `select coalesce((select revision from calendar_revisions where tenant_id = ${tenantId}), 0)::int as revision`;

/** The revision revisionStatement read, from its rows. */
export const revisionOf = (rows: Record<string, unknown>[] | undefined) => (rows?.[0] ? Number(rows[0].revision) : undefined);

/** The cached range for the revision the request read, if any. */
export function cachedCalendar(ctx: Ctx, query: CalendarQuery, revision: number): CalendarAnswer | undefined {
  const key = cacheKey(ctx, query);
  const range = cache.get(key, revision);
  return range && { range, etag: etagOf(key, revision) };
}

/**
 * The calendar's JSON and its ETag. The centre's revision (calendar_revisions, moved by
 * triggers on every write that changes what the calendar shows) is read first, here or with
 * the session check (`known`): a cached body of the same revision is what the query would
 * build now, also when another process made the last change. A body built after the revision
 * was read is as new as that revision or newer, so it may be kept under it. A TEACHER's view
 * is cached apart (own lessons).
 */
export async function calendarLessons(tx: Tx, ctx: Ctx, query: CalendarQuery, known?: number): Promise<CalendarAnswer> {
  let revision = known;
  if (revision === undefined) {
    const [row] = await queryRows<{ revision: string | number }>(
      tx,
      sql`select coalesce((select ${calendarRevisions.revision} from ${calendarRevisions} where ${calendarRevisions.tenantId} = ${ctx.tenantId}), 0) as revision`,
    );
    revision = Number(row!.revision);
  }
  const key = cacheKey(ctx, query);
  const range = cache.get(key, revision) ?? cache.put(key, revision, await buildCalendar(tx, ctx, query));
  return { range, etag: etagOf(key, revision) };
}
