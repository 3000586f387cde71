/**
 * docs/rules.md, Conflicts: a room, a teacher or a class holds at most one NORMAL lesson at a time. Checked
 * before every write, for any number of candidate slots in one statement (a series checks all
 * its dates at once), so the 409 can name the lessons in the way; the exclusion constraints of
 * 0005_lessons_rules.sql are the guarantee behind it.
 */
import { sql } from 'drizzle-orm';
import { DomainError, type LessonConflict, type LessonStatus, type ReferenceLabel } from '../../../domain/index';
import type { Tx } from '../../db/types';
import { queryRows } from '../../db/statements';

/** A lesson as it would be booked. */
export interface Slot {
  date: string;
  start_time: string;
  end_time: string;
  room_id?: number | null;
  teacher_id?: number | null;
  class_id?: number | null;
}

/** At most this many lessons are named in one answer. */
export const MAX_LISTED_CONFLICTS = 100;

/** Key of the per-tenant booking lock (the other half is the tenant id). */
const BOOKING_LOCK = 734_520;

/**
 * Every lesson write of a tenant queues here first, before any row lock: two bookings of one
 * slot then meet in order (the second sees the first and answers 409) instead of both passing
 * the check and one dying on the constraint, and no two writers lock rows in opposite orders.
 */
export async function takeBookingLock(tx: Tx, tenantId: number) {
  await tx.execute(sql`select pg_advisory_xact_lock(${BOOKING_LOCK}::int, ${tenantId}::int)`);
}

interface ConflictRow {
  id: number;
  date: string;
  start_time: string;
  end_time: string;
  status: LessonStatus;
  teacher_id: number | null;
  teacher_name: string | null;
  teacher_deleted: boolean;
  subject_id: number | null;
  subject_name: string | null;
  room_id: number | null;
  room_name: string | null;
  class_id: number | null;
  class_name: string | null;
  room: boolean;
  teacher: boolean;
  class: boolean;
}

const label = (id: number | null, name: string | null): ReferenceLabel | null => (id === null ? null : { id, name });

/** The NORMAL lessons that overlap any of the slots on a shared room, teacher or class; `exclude` are lessons being rewritten. */
export async function findConflicts(tx: Tx, tenantId: number, slots: readonly Slot[], exclude: readonly number[] = []): Promise<LessonConflict[]> {
  const candidates = slots.map((s) => ({
    date: s.date,
    start_time: s.start_time,
    end_time: s.end_time,
    room_id: s.room_id ?? null,
    teacher_id: s.teacher_id ?? null,
    class_id: s.class_id ?? null,
  }));
  if (!candidates.some((c) => c.room_id !== null || c.teacher_id !== null || c.class_id !== null)) return [];
  const rows = await queryRows<ConflictRow>(
    tx,
    sql`with c as (
          select * from jsonb_to_recordset(${JSON.stringify(candidates)}::jsonb)
            as c(date date, start_time time, end_time time, room_id int, teacher_id int, class_id int)
        )
        select l.id, to_char(l.date, 'YYYY-MM-DD') as date, to_char(l.start_time, 'HH24:MI') as start_time,
               to_char(l.end_time, 'HH24:MI') as end_time, l.status,
               l.teacher_id, trim(t.first_name || ' ' || t.last_name) as teacher_name, (t.deleted_at is not null) as teacher_deleted,
               l.subject_id, s.name as subject_name, l.room_id, r.name as room_name, l.class_id, k.name as class_name,
               coalesce(bool_or(l.room_id = c.room_id), false) as room,
               coalesce(bool_or(l.teacher_id = c.teacher_id), false) as teacher,
               coalesce(bool_or(l.class_id = c.class_id), false) as class
        from c
        join lessons l on l.tenant_id = ${tenantId} and l.date = c.date and l.status = 'NORMAL'
          and l.start_time < c.end_time and c.start_time < l.end_time
          and (l.room_id = c.room_id or l.teacher_id = c.teacher_id or l.class_id = c.class_id)
          and l.id not in (select value::int from jsonb_array_elements_text(${JSON.stringify(exclude)}::jsonb))
        left join teachers t on t.tenant_id = l.tenant_id and t.id = l.teacher_id
        left join subjects s on s.tenant_id = l.tenant_id and s.id = l.subject_id
        left join rooms r on r.tenant_id = l.tenant_id and r.id = l.room_id
        left join classes k on k.tenant_id = l.tenant_id and k.id = l.class_id
        group by l.id, l.date, l.start_time, l.end_time, l.status, l.teacher_id, t.first_name, t.last_name, t.deleted_at,
                 l.subject_id, s.name, l.room_id, r.name, l.class_id, k.name
        order by l.date, l.start_time, l.id
        limit ${MAX_LISTED_CONFLICTS}`,
  );
  return rows.map((r) => ({
    id: r.id,
    date: r.date,
    start_time: r.start_time,
    end_time: r.end_time,
    status: r.status,
    teacher: r.teacher_id === null ? null : r.teacher_deleted ? { id: r.teacher_id, name: null, deleted: true } : label(r.teacher_id, r.teacher_name),
    subject: label(r.subject_id, r.subject_name),
    room: label(r.room_id, r.room_name),
    class: label(r.class_id, r.class_name),
    clashes: (['room', 'teacher', 'class'] as const).filter((k) => r[k]),
  }));
}

/** 409 `conflict` naming the lessons in the way, or nothing. */
export async function assertNoConflicts(tx: Tx, tenantId: number, slots: readonly Slot[], exclude: readonly number[] = []) {
  const lessons = await findConflicts(tx, tenantId, slots, exclude);
  if (!lessons.length) return;
  const many = lessons.length === 1 ? 'another lesson' : `${lessons.length}${lessons.length === MAX_LISTED_CONFLICTS ? '+' : ''} lessons`;
  // count: the lessons listed (at most MAX_LISTED_CONFLICTS; `lessons` says which).
  throw new DomainError('conflict', `This overlaps ${many} in the same room, with the same teacher or the same class.`, undefined, {
    details: { reason: 'overlap', count: lessons.length, lessons },
  });
}
