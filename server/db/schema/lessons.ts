/**
 * Lessons, recurring series and the teachers' calendar feeds (domain/resources/lessons.ts).
 * A lesson is wall-clock: a `date` and two `time`s in the tenant's zone, no instant, so a
 * weekly 17:00 stays 17:00 across daylight-saving changes. The exclusion constraints that
 * keep rooms, teachers and classes from double booking are in the custom migration
 * 0005_lessons_rules.sql (drizzle-kit cannot express them).
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, foreignKey, index, integer, jsonb, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, linkTable, rowMeta, wallTime } from './columns';
import { classes, lessonTags, lessonTypes, rooms, subjects } from './directory';
import { teachers } from './people';
import { tenants } from './platform';
import { id, search, tenantId } from './tenant-columns';

/** `time` read as HH:mm: both drivers hand back 'HH:mm:ss', the wire format has no seconds. */

/** Who, where, what and when in the day: shared by a series and its lessons. */
const schedule = () => ({
  startTime: wallTime('start_time').notNull(),
  endTime: wallTime('end_time').notNull(),
  teacherId: integer('teacher_id'),
  subjectId: integer('subject_id'),
  roomId: integer('room_id'),
  classId: integer('class_id'),
  lessonTypeId: integer('lesson_type_id'),
  notes: text('notes'),
});

export const recurringLessons = pgTable(
  'recurring_lessons',
  {
    tenantId: tenantId(),
    id: id(),
    ...schedule(),
    repeat: text('repeat').notNull(),
    repeatEvery: integer('repeat_every'),
    weekdays: jsonb('weekdays').$type<number[]>(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endType: text('end_type'),
    occurrences: integer('occurrences'),
    untilDate: date('until_date', { mode: 'string' }),
    dates: jsonb('dates').$type<string[]>(),
    search: search(),
    ...rowMeta(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('recurring_lessons_start_idx').on(t.tenantId, t.startDate),
    index('recurring_lessons_teacher_idx').on(t.tenantId, t.teacherId),
    index('recurring_lessons_class_idx').on(t.tenantId, t.classId),
    index('recurring_lessons_room_idx').on(t.tenantId, t.roomId),
    foreignKey({ columns: [t.tenantId, t.teacherId], foreignColumns: [teachers.tenantId, teachers.id] }),
    foreignKey({ columns: [t.tenantId, t.subjectId], foreignColumns: [subjects.tenantId, subjects.id] }),
    foreignKey({ columns: [t.tenantId, t.roomId], foreignColumns: [rooms.tenantId, rooms.id] }),
    foreignKey({ columns: [t.tenantId, t.classId], foreignColumns: [classes.tenantId, classes.id] }),
    foreignKey({ columns: [t.tenantId, t.lessonTypeId], foreignColumns: [lessonTypes.tenantId, lessonTypes.id] }),
    check('recurring_lessons_times_check', sql`${t.endTime} > ${t.startTime}`),
  ],
);

export const lessons = pgTable(
  'lessons',
  {
    tenantId: tenantId(),
    id: id(),
    date: date('date', { mode: 'string' }).notNull(),
    ...schedule(),
    homework: text('homework'),
    status: text('status').notNull().default('NORMAL'),
    /** 1 Normal, 2 Replacement, 3 Replaced. */
    kind: smallint('kind').notNull().default(1),
    replacesLessonId: integer('replaces_lesson_id'),
    recurringLessonId: integer('recurring_lesson_id'),
    /** Changed on its own: series edits pass it by unless asked. */
    detached: boolean('detached').notNull().default(false),
    search: search(),
    ...rowMeta(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // The calendar's week: every lesson of a date range in time order.
    index('lessons_date_idx').on(t.tenantId, t.date, t.startTime),
    index('lessons_teacher_date_idx').on(t.tenantId, t.teacherId, t.date),
    index('lessons_room_date_idx').on(t.tenantId, t.roomId, t.date),
    index('lessons_class_date_idx').on(t.tenantId, t.classId, t.date),
    index('lessons_subject_idx').on(t.tenantId, t.subjectId),
    index('lessons_lesson_type_idx').on(t.tenantId, t.lessonTypeId),
    index('lessons_recurring_idx').on(t.tenantId, t.recurringLessonId, t.date),
    index('lessons_replaces_idx').on(t.tenantId, t.replacesLessonId),
    index('lessons_status_idx').on(t.tenantId, t.status, t.date),
    foreignKey({ columns: [t.tenantId, t.teacherId], foreignColumns: [teachers.tenantId, teachers.id] }),
    foreignKey({ columns: [t.tenantId, t.subjectId], foreignColumns: [subjects.tenantId, subjects.id] }),
    foreignKey({ columns: [t.tenantId, t.roomId], foreignColumns: [rooms.tenantId, rooms.id] }),
    foreignKey({ columns: [t.tenantId, t.classId], foreignColumns: [classes.tenantId, classes.id] }),
    foreignKey({ columns: [t.tenantId, t.lessonTypeId], foreignColumns: [lessonTypes.tenantId, lessonTypes.id] }),
    // ON DELETE SET NULL (recurring_lesson_id) only: tenant_id must stay. drizzle-kit writes
    // "set null" for both columns, so 0004_lessons.sql carries the column list by hand.
    foreignKey({
      name: 'lessons_recurring_lesson_fk',
      columns: [t.tenantId, t.recurringLessonId],
      foreignColumns: [recurringLessons.tenantId, recurringLessons.id],
    }).onDelete('set null'),
    // No cascade: an original with a replacement is refused (409 in-use).
    foreignKey({ name: 'lessons_replaces_lesson_fk', columns: [t.tenantId, t.replacesLessonId], foreignColumns: [t.tenantId, t.id] }),
    check('lessons_times_check', sql`${t.endTime} > ${t.startTime}`),
    check('lessons_kind_check', sql`${t.kind} in (1, 2, 3)`),
    check('lessons_status_check', sql`${t.status} in ('NORMAL', 'TO_BE_REPLACED', 'REPLACED', 'CANCELED')`),
  ],
);

/** lessons.tag_ids */
export const lessonTagLinks = linkTable('lesson_tag_links', ['lessonId', 'lesson_id', () => lessons], ['tagId', 'tag_id', () => lessonTags]);

/** recurring_lessons.tag_ids */
export const recurringLessonTagLinks = linkTable(
  'recurring_lesson_tag_links',
  ['recurringLessonId', 'recurring_lesson_id', () => recurringLessons],
  ['tagId', 'tag_id', () => lessonTags],
);

/**
 * A teacher's private iCal link. Only the sha256 of its secret is kept, so the table alone
 * opens no calendar; a new link replaces the old one (one row per teacher).
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    tenantId: tenantId(),
    teacherId: integer('teacher_id').notNull(),
    secretHash: text('secret_hash').notNull(),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.teacherId] }),
    uniqueIndex('calendar_feeds_secret_key').on(t.tenantId, t.secretHash),
    foreignKey({ columns: [t.tenantId, t.teacherId], foreignColumns: [teachers.tenantId, teachers.id] }),
  ],
);

/**
 * How many times a centre's calendar has changed: triggers (0007_calendar_revisions.sql) add
 * one on every write to lessons or to what their labels show (teachers, subjects, rooms,
 * classes, lesson types). The calendar's cached weeks are valid while it stays the same.
 */
export const calendarRevisions = pgTable('calendar_revisions', {
  tenantId: integer('tenant_id')
    .primaryKey()
    .references(() => tenants.id),
  revision: bigint('revision', { mode: 'number' }).notNull().default(0),
});
