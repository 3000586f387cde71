/**
 * DEMO_DATA=1: a school year of lessons for the demo centre — two weekly series per class
 * from September to June, placed so that no room, teacher or class is double booked — and a
 * few lessons to be replaced, replaced and cancelled near today. Written through the same
 * series and lesson code as the API, once: a tenant that has lessons is left alone.
 */
import { and, asc, eq, gte, sql } from 'drizzle-orm';
import { addDays, isoWeekday } from '../../domain/index';
import type { Database, Tx } from '../db/types';
import { classes, classSubjects, lessons, lessonTypes, rooms, teachers, teacherSubjects } from '../db/schema/index';
import { createRow, updateRow } from '../engine/write';
import { createSeries } from '../modules/lessons/series';
import { lessonsSpec } from '../modules/lessons/spec';
import type { Registry } from '../engine/registry';
import { type DemoCtx, fillOnce } from './fill';

/** Afternoon slots, Monday to Friday. */
const SLOTS: Array<[string, string]> = [
  ['15:00', '16:30'],
  ['16:30', '18:00'],
  ['18:00', '19:30'],
  ['19:30', '21:00'],
];
const LESSONS_PER_CLASS = 2;

/** The school year around `today`: from 1 September to 30 June. */
export function schoolYear(today: string) {
  const year = Number(today.slice(0, 4)) - (Number(today.slice(5, 7)) < 7 ? 1 : 0);
  return { start: `${year}-09-01`, end: `${year + 1}-06-30` };
}

async function idsBy(rows: Promise<Array<{ owner: number; other: number }>>) {
  const map = new Map<number, number[]>();
  for (const r of await rows) map.set(r.owner, [...(map.get(r.owner) ?? []), r.other]);
  return map;
}

interface Booking {
  classId: number;
  subjectId: number;
  teacherId: number;
  roomId: number;
  weekday: number;
  slot: number;
}

/** Greedy and deterministic: each class's first subjects go to the first free day and slot with a free teacher and room. */
function plan(classIds: number[], classSubjectsOf: Map<number, number[]>, teachersOf: Map<number, number[]>, roomIds: number[]): Booking[] {
  const busy = new Set<string>();
  const bookings: Booking[] = [];
  classIds.forEach((classId, c) => {
    const subjectIds = (classSubjectsOf.get(classId) ?? []).filter((s) => teachersOf.has(s)).slice(0, LESSONS_PER_CLASS);
    subjectIds.forEach((subjectId, k) => {
      for (let d = 0; d < 5; d++) {
        const weekday = ((c + k * 2 + d) % 5) + 1;
        for (let slot = 0; slot < SLOTS.length; slot++) {
          if (busy.has(`c${classId}:${weekday}:${slot}`)) continue;
          const teacherId = teachersOf.get(subjectId)!.find((t) => !busy.has(`t${t}:${weekday}:${slot}`));
          const roomId = roomIds.find((r) => !busy.has(`r${r}:${weekday}:${slot}`));
          if (teacherId === undefined || roomId === undefined) continue;
          for (const key of [`c${classId}`, `t${teacherId}`, `r${roomId}`]) busy.add(`${key}:${weekday}:${slot}`);
          bookings.push({ classId, subjectId, teacherId, roomId, weekday, slot });
          return;
        }
      }
    });
  });
  return bookings;
}

/** One lesson to be replaced, one replaced (its replacement on that week's Saturday), one cancelled. */
async function statusExamples(tx: Tx, ctx: DemoCtx, from: string, replacementType: number | undefined) {
  const upcoming = await tx
    .select({ id: lessons.id })
    .from(lessons)
    .where(and(eq(lessons.tenantId, ctx.tenantId), gte(lessons.date, from)))
    .orderBy(asc(lessons.date), asc(lessons.startTime))
    .limit(9);
  const pick = [upcoming[1], upcoming[4], upcoming[7]];
  if (pick.some((p) => !p)) return;
  const [toReplace, replaced, cancelled] = pick as Array<{ id: number }>;
  const mark = async (id: number, status: string) => {
    const row = await updateRow(tx, ctx.registry, ctx, lessonsSpec, id, { status }, undefined);
    return row;
  };
  await mark(toReplace.id, 'TO_BE_REPLACED');
  const original = await mark(replaced.id, 'TO_BE_REPLACED');
  const date = original.date as string;
  await createRow(tx, ctx.registry, ctx, lessonsSpec, {
    date: addDays(date, 6 - isoWeekday(date)),
    start_time: '10:00',
    end_time: '11:30',
    teacher_id: original.teacher_id,
    subject_id: original.subject_id,
    room_id: original.room_id,
    class_id: original.class_id,
    lesson_type_id: replacementType ?? original.lesson_type_id,
    notes: 'Αναπλήρωση του μαθήματος της εβδομάδας.',
    status: 'NORMAL',
    replaces_lesson_id: original.id,
  });
  await mark(cancelled.id, 'CANCELED');
}

export async function ensureDemoLessons(
  database: Database,
  registry: Registry,
  tenantId: number,
  today = new Date().toISOString().slice(0, 10),
): Promise<void> {
  await fillOnce(database, registry, tenantId, lessons, async (tx, ctx) => {
    const classIds = (await tx.select({ id: classes.id }).from(classes).where(eq(classes.tenantId, tenantId)).orderBy(asc(classes.id))).map((r) => r.id);
    const roomIds = (await tx.select({ id: rooms.id }).from(rooms).where(eq(rooms.tenantId, tenantId)).orderBy(asc(rooms.id))).map((r) => r.id);
    const types = await tx
      .select({ id: lessonTypes.id, entity: lessonTypes.entity })
      .from(lessonTypes)
      .where(eq(lessonTypes.tenantId, tenantId))
      .orderBy(asc(lessonTypes.id));
    const classSubjectsOf = await idsBy(
      tx
        .select({ owner: classSubjects.classId, other: classSubjects.subjectId })
        .from(classSubjects)
        .where(eq(classSubjects.tenantId, tenantId))
        .orderBy(asc(classSubjects.subjectId)),
    );
    const teachersOf = await idsBy(
      tx
        .select({ owner: teacherSubjects.subjectId, other: teacherSubjects.teacherId })
        .from(teacherSubjects)
        .innerJoin(teachers, and(eq(teachers.tenantId, teacherSubjects.tenantId), eq(teachers.id, teacherSubjects.teacherId)))
        .where(and(eq(teacherSubjects.tenantId, tenantId), sql`${teachers.deletedAt} is null`))
        .orderBy(asc(teacherSubjects.teacherId)),
    );
    if (!classIds.length || !roomIds.length) return;

    const term = schoolYear(today);
    // Most series are ordinary lessons; every third is revision, so the calendar shows its colours.
    const normalTypes = types.filter((t) => t.entity === 'NORMAL').map((t) => t.id);
    for (const [i, b] of plan(classIds, classSubjectsOf, teachersOf, roomIds).entries()) {
      const [start_time, end_time] = SLOTS[b.slot]!;
      await createSeries(tx, registry, ctx, {
        start_time,
        end_time,
        teacher_id: b.teacherId,
        subject_id: b.subjectId,
        room_id: b.roomId,
        class_id: b.classId,
        lesson_type_id: normalTypes.length ? normalTypes[i % 3 === 2 ? normalTypes.length - 1 : 0]! : null,
        tag_ids: [],
        notes: null,
        repeat: 'WEEKLY',
        repeat_every: 1,
        weekdays: [b.weekday],
        start_date: term.start,
        end_type: 'ON_DATE',
        until_date: term.end,
      });
    }
    await statusExamples(tx, ctx, today > term.start ? today : term.start, types.find((t) => t.entity === 'REPLACEMENT')?.id);
  });
}
