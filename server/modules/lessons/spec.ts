/**
 * Lessons and recurring lessons on the generic CRUD engine. The hooks carry docs/rules.md's
 * Status and replacement (status moves and replacements) and Conflicts (under the booking
 * lock), and the TEACHER's narrow rights: own lessons only, and only their homework and notes.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  canBeReplaced,
  canChangeStatus,
  checkTimes,
  DomainError,
  isOwnOnly,
  KIND,
  LESSONS,
  RECURRING_LESSONS,
  SCHEDULE_FIELDS,
  TEACHER_LESSON_FIELDS,
  type LessonStatus,
} from '../../../domain/index';
import { classStudents, lessons, lessonTagLinks, recurringLessons, recurringLessonTagLinks, teachers } from '../../db/schema/index';
import type { Ctx, ResourceSpec } from '../../engine/spec';
import { historyView } from '../../engine/write';
import { recordHistoryMany, type HistoryEntry } from '../../engine/history';
import { lessonDeleted, lessonWaitingAgain, lessonWritten } from '../notifications/lesson-events';
import { assertNoConflicts, takeBookingLock, type Slot } from './conflicts';

export const ownOnly = (ctx: Ctx) => !!ctx.actor && isOwnOnly(ctx.actor.role, 'lessons');

/** The caller's own teacher rows (a TEACHER sign-in has one). */
const ownTeacher = (ctx: Ctx, column: AnyPgColumn): SQL =>
  sql`${column} in (select ${teachers.id} from ${teachers} where ${and(eq(teachers.tenantId, ctx.tenantId), eq(teachers.userId, ctx.actor!.id))})`;

const same = (a: unknown, b: unknown) =>
  JSON.stringify(Array.isArray(a) ? [...a].sort() : (a ?? null)) === JSON.stringify(Array.isArray(b) ? [...b].sort() : (b ?? null));

/** The fields of `input` whose value differs from the row's. */
export const changedFields = (input: Record<string, unknown>, before: Record<string, unknown>, names: readonly string[]) =>
  names.filter((n) => n in input && !same(input[n], before[n]));

/** Fields that move a lesson in the calendar, and so may make it clash. */
const PLACING = ['date', 'start_time', 'end_time', 'room_id', 'teacher_id', 'class_id'] as const;

export const slotOf = (row: Record<string, unknown>): Slot => ({
  date: row.date as string,
  start_time: row.start_time as string,
  end_time: row.end_time as string,
  room_id: (row.room_id as number | null | undefined) ?? null,
  teacher_id: (row.teacher_id as number | null | undefined) ?? null,
  class_id: (row.class_id as number | null | undefined) ?? null,
});

/** docs/rules.md, Lessons, on a row as it will be stored: 400 `end_time: too-small` when it ends before it starts. */
export function assertTimes(row: Record<string, unknown>) {
  const fields = checkTimes(row.start_time, row.end_time);
  if (Object.keys(fields).length)
    throw new DomainError('validation', 'The lesson must end after it starts.', fields, { details: { reason: 'end-before-start' } });
}

/** Locks a lesson of the tenant for a related change (an original and its replacement). */
async function lockLesson(tx: Parameters<NonNullable<ResourceSpec['remove']>>[0], tenantId: number, id: number) {
  const [row] = await tx
    .select({ id: lessons.id, status: lessons.status, kind: lessons.kind, version: lessons.version })
    .from(lessons)
    .where(and(eq(lessons.tenantId, tenantId), eq(lessons.id, id)))
    .for('update');
  return row;
}

const staffOnly = (ctx: Ctx) => {
  if (ownOnly(ctx)) {
    throw new DomainError('forbidden', 'Only the office changes lessons; a teacher edits homework and notes.', undefined, {
      details: { reason: 'office-only' },
    });
  }
};

export const lessonsSpec: ResourceSpec = {
  def: LESSONS,
  table: lessons,
  label: sql`(to_char(${lessons.date}, 'YYYY-MM-DD') || ' ' || to_char(${lessons.startTime}, 'HH24:MI'))`,
  links: { tag_ids: { table: lessonTagLinks, tenantId: lessonTagLinks.tenantId, owner: lessonTagLinks.lessonId, other: lessonTagLinks.tagId } },
  shown: {
    // Outer columns by their table name: drizzle leaves single-table selects unqualified,
    // which inside a subquery would name the subquery's own columns.
    color: sql<string | null>`(select lt.color from lesson_types lt where lt.tenant_id = lessons.tenant_id and lt.id = lessons.lesson_type_id)`,
    replaced_by: sql<
      number | null
    >`(select r.id from lessons r where r.tenant_id = lessons.tenant_id and r.replaces_lesson_id = lessons.id order by r.id limit 1)`,
  },
  scope: (ctx) => (ownOnly(ctx) ? ownTeacher(ctx, lessons.teacherId) : undefined),
  async listExtras(_tx, ctx) {
    // student_id=7: the lessons of the classes student 7 is in (the student's Lessons tab).
    // has_absences=true|false: lessons with (without) an ABSENT mark.
    return {
      fields: [
        { name: 'student_id', type: 'REFERENCE', reference: 'students', filterable: true },
        { name: 'has_absences', type: 'BOOLEAN', filterable: true },
      ],
      where(query) {
        const absences = query.filters.find((f) => f.field === 'has_absences');
        const where: SQL[] = [];
        if (absences) {
          if (absences.op !== 'eq' || absences.values.length !== 1) {
            throw new DomainError('validation', 'The list query is not valid.', {
              [`has_absences${absences.op === 'eq' ? '' : `_${absences.op}`}`]: 'invalid-option',
            });
          }
          const wanted = absences.values[0] === true || absences.values[0] === 'true';
          where.push(
            sql`${wanted ? sql`` : sql`not `}exists (select 1 from attendance a where a.tenant_id = lessons.tenant_id and a.lesson_id = lessons.id and a.status = 'ABSENT')`,
          );
        }
        const filter = query.filters.find((f) => f.field === 'student_id');
        if (!filter) return where;
        if (filter.op !== 'eq') {
          throw new DomainError('validation', 'The list query is not valid.', { [`student_id_${filter.op}`]: 'invalid-option' });
        }
        return [
          ...where,
          sql`${lessons.classId} in (select cs.class_id from ${classStudents} cs where cs.tenant_id = ${ctx.tenantId} and cs.student_id in (${sql.join(
            filter.values.map((v) => sql`${v}`),
            sql`, `,
          )}))`,
        ];
      },
    };
  },
  guard: staffOnly,
  lockWrites: (tx, ctx) => takeBookingLock(tx, ctx.tenantId),
  canWrite(ctx, _before, input) {
    if (!ownOnly(ctx)) return;
    const allowed: readonly string[] = TEACHER_LESSON_FIELDS;
    if (!input || Object.keys(input).some((k) => !allowed.includes(k))) {
      throw new DomainError('forbidden', 'A teacher may change only the homework and notes of own lessons.', undefined, {
        details: { reason: 'teacher-homework-only' },
      });
    }
  },
  async beforeWrite({ tx, ctx, input, before }) {
    if (!before) {
      if (input.status !== 'NORMAL') {
        throw new DomainError('validation', 'A new lesson is NORMAL.', { status: 'invalid-option' }, { details: { reason: 'new-lesson-normal' } });
      }
      assertTimes(input);
      let kind: number = KIND.NORMAL;
      const originalId = input.replaces_lesson_id as number | null | undefined;
      if (originalId) {
        // assertReferences has checked it is a lesson of this tenant.
        const original = await lockLesson(tx, ctx.tenantId, originalId);
        if (!original) {
          throw new DomainError(
            'validation',
            'A referenced record does not exist.',
            { replaces_lesson_id: 'invalid' },
            { details: { reason: 'reference-missing' } },
          );
        }
        if (!canBeReplaced(original.status as LessonStatus)) {
          throw new DomainError('conflict', `Only a lesson to be replaced gets a replacement; this one is ${original.status}.`, undefined, {
            details: { reason: 'not-to-be-replaced', status: original.status },
          });
        }
        kind = KIND.REPLACEMENT;
      }
      await assertNoConflicts(tx, ctx.tenantId, [slotOf(input)]);
      return { kind, detached: false };
    }

    const from = before.status as LessonStatus;
    const to = (input.status as LessonStatus | undefined) ?? from;
    if (!canChangeStatus(from, to)) {
      throw new DomainError('conflict', `A lesson cannot move from ${from} to ${to}.`, undefined, { details: { reason: 'status-move', from, to } });
    }
    const after = { ...before, ...input };
    if ('start_time' in input || 'end_time' in input) assertTimes(after);
    const extra: Record<string, unknown> = {};
    if (before.recurring_lesson_id !== null && !before.detached && changedFields(input, before, SCHEDULE_FIELDS).length) extra.detached = true;
    const moved = changedFields(input, before, PLACING).length > 0;
    if (to === 'NORMAL' && (moved || from !== 'NORMAL')) await assertNoConflicts(tx, ctx.tenantId, [slotOf(after)], [before.id]);
    return extra;
  },
  async afterWrite({ tx, ctx, before, after }) {
    await lessonWritten(tx, ctx, before, after);
    const originalId = after.replaces_lesson_id as number | null;
    if (before || !originalId) return;
    // The original is replaced now: it keeps its place in the calendar, marked kind 3.
    await tx
      .update(lessons)
      .set({ status: 'REPLACED', kind: KIND.REPLACED, version: sql`${lessons.version} + 1`, updatedAt: sql`now()` })
      .where(and(eq(lessons.tenantId, ctx.tenantId), eq(lessons.id, originalId)));
    await recordHistoryMany(tx, ctx.tenantId, ctx.actor, [
      {
        entity: 'lessons',
        entityId: originalId,
        action: 'update',
        before: { status: 'TO_BE_REPLACED', kind: KIND.NORMAL },
        after: { status: 'REPLACED', kind: KIND.REPLACED },
      },
    ]);
  },
  async remove(tx, ctx, before) {
    if (before.replaced_by !== null && before.replaced_by !== undefined) {
      throw new DomainError('in-use', 'This lesson has a replacement; delete the replacement first.', undefined, {
        details: { reason: 'has-replacement', uses: { lessons: 1 }, used_by: ['1 lessons'] },
      });
    }
    await tx.delete(lessons).where(and(eq(lessons.tenantId, ctx.tenantId), eq(lessons.id, before.id)));
    const entries: HistoryEntry[] = [{ entity: 'lessons', entityId: before.id, action: 'delete', before: historyView(lessonsSpec, before) }];
    await lessonDeleted(tx, ctx, before);
    const originalId = before.replaces_lesson_id as number | null;
    if (originalId) {
      // docs/rules.md, Status and replacement: without its replacement, the original waits to be replaced again.
      const original = await lockLesson(tx, ctx.tenantId, originalId);
      if (original) {
        await tx
          .update(lessons)
          .set({ status: 'TO_BE_REPLACED', kind: KIND.NORMAL, version: sql`${lessons.version} + 1`, updatedAt: sql`now()` })
          .where(and(eq(lessons.tenantId, ctx.tenantId), eq(lessons.id, originalId)));
        entries.push({
          entity: 'lessons',
          entityId: originalId,
          action: 'update',
          before: { status: original.status, kind: original.kind },
          after: { status: 'TO_BE_REPLACED', kind: KIND.NORMAL },
        });
        await lessonWaitingAgain(tx, ctx, originalId);
      }
    }
    await recordHistoryMany(tx, ctx.tenantId, ctx.actor, entries);
  },
};

/** A series' lessons, as its read-only summary fields. */
const ofSeries = (expr: SQL) =>
  sql`(select ${expr} from lessons l where l.tenant_id = recurring_lessons.tenant_id and l.recurring_lesson_id = recurring_lessons.id)`;

export const recurringLessonsSpec: ResourceSpec = {
  def: RECURRING_LESSONS,
  table: recurringLessons,
  label: sql`(to_char(${recurringLessons.startDate}, 'YYYY-MM-DD') || ' ' || to_char(${recurringLessons.startTime}, 'HH24:MI'))`,
  links: {
    tag_ids: {
      table: recurringLessonTagLinks,
      tenantId: recurringLessonTagLinks.tenantId,
      owner: recurringLessonTagLinks.recurringLessonId,
      other: recurringLessonTagLinks.tagId,
    },
  },
  computed: {
    lesson_count: ofSeries(sql`count(*)::int`),
    first_date: ofSeries(sql`to_char(min(l.date), 'YYYY-MM-DD')`),
    last_date: ofSeries(sql`to_char(max(l.date), 'YYYY-MM-DD')`),
  },
  scope: (ctx) => (ownOnly(ctx) ? ownTeacher(ctx, recurringLessons.teacherId) : undefined),
  guard: staffOnly,
  lockWrites: (tx, ctx) => takeBookingLock(tx, ctx.tenantId),
  async listExtras() {
    // weekdays is a JSON list: weekdays=2 means "repeats on Tuesday".
    return {
      fields: [{ name: 'weekdays', type: 'WEEKDAYS', filterable: true }],
      where(query) {
        const filter = query.filters.find((f) => f.field === 'weekdays');
        if (!filter) return [];
        return [
          sql`(${sql.join(
            filter.values.map((v) => sql`${recurringLessons.weekdays} @> ${JSON.stringify([v])}::jsonb`),
            sql` or `,
          )})`,
        ];
      },
    };
  },
};
