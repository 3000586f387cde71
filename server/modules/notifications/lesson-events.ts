/**
 * The lesson events that notify someone, called from the lessons' write hooks inside the
 * write's transaction: a teacher hears of her lesson created, moved, cancelled or marked to
 * be replaced (and of a new series, once for the whole series); the office (ADMIN and
 * SECRETARY, but not whoever did it) hears of a lesson waiting for a replacement.
 */
import { displayDate, lessonLink, type NotificationKind as NewNotificationKind, type NotificationParams } from '../../../domain/index';
import type { Ctx, Data } from '../crud/spec';
import { sql } from 'drizzle-orm';
import { queryRows, type Queryable, type Tx } from '../../db/client';
import { notify, officeStaff, teacherAccount, type NewNotification } from './create';

type Row = Record<string, unknown>;
const labelOf = (value: unknown): string | undefined => {
  const name = (value as { name?: unknown } | null | undefined)?.name;
  return typeof name === 'string' && name ? name : undefined;
};

/** What the texts show of a lesson: its subject (or class), teacher, day and times. */
export function lessonParams(row: Row): NotificationParams {
  return {
    subject: labelOf(row.subject) ?? labelOf(row.class) ?? '—',
    teacher: labelOf(row.teacher) ?? '—',
    date: displayDate(String(row.date)),
    start: String(row.start_time),
    end: String(row.end_time),
  };
}

const PLACING = ['date', 'start_time', 'end_time', 'room_id'] as const;

export async function lessonWritten(tx: Tx, ctx: Ctx, before: Data | null, after: Data): Promise<void> {
  const actorId = ctx.actor?.kind === 'user' ? ctx.actor.id : null;
  const params = lessonParams(after);
  const link = lessonLink(after.id);
  const toTeacher = (kind: NewNotificationKind, teacherId: unknown, extra: NotificationParams = {}): NewNotification => ({
    kind,
    params: { ...params, ...extra },
    link,
    recipients: teacherAccount(ctx.tenantId, teacherId as number | null),
  });
  const items: NewNotification[] = [];
  if (!before) {
    if (after.status === 'NORMAL') items.push(toTeacher('lesson-created', after.teacher_id));
  } else {
    const from = before.status;
    const to = after.status;
    const teacherChanged = before.teacher_id !== after.teacher_id;
    if (from !== to && to === 'CANCELED') items.push(toTeacher('lesson-canceled', after.teacher_id));
    else if (from !== to && to === 'TO_BE_REPLACED') {
      items.push(toTeacher('lesson-to-be-replaced', after.teacher_id));
      items.push({ kind: 'lesson-waiting', params, link, recipients: officeStaff(ctx.tenantId, actorId) });
    } else if (from !== to && to === 'NORMAL') items.push(toTeacher('lesson-created', after.teacher_id));
    else if (teacherChanged && to === 'NORMAL') {
      // For the new teacher it is a new lesson; for the one before, it is off her timetable.
      items.push(toTeacher('lesson-created', after.teacher_id));
      items.push({ ...toTeacher('lesson-canceled', before.teacher_id), params: { ...params, teacher: labelOf(before.teacher) ?? '—' } });
    } else if (PLACING.some((f) => before[f] !== after[f]) && to !== 'CANCELED') {
      items.push(toTeacher('lesson-moved', after.teacher_id, { from_date: displayDate(String(before.date)), from_start: String(before.start_time) }));
    }
  }
  if (items.length) await notify(tx, ctx.tenantId, items);
}

/** A lesson's texts read from the database (for a lesson the write did not load). */
export async function loadLessonParams(q: Queryable, tenantId: number, lessonId: number): Promise<NotificationParams | undefined> {
  const [row] = await queryRows<{ date: string; start_time: string; end_time: string; subject: string | null; class: string | null; teacher: string | null }>(
    q,
    sql`select to_char(l.date, 'YYYY-MM-DD') as date, to_char(l.start_time, 'HH24:MI') as start_time, to_char(l.end_time, 'HH24:MI') as end_time,
               s.name as subject, c.name as class, nullif(trim(t.first_name || ' ' || t.last_name), '') as teacher
        from lessons l
        left join subjects s on s.tenant_id = l.tenant_id and s.id = l.subject_id
        left join classes c on c.tenant_id = l.tenant_id and c.id = l.class_id
        left join teachers t on t.tenant_id = l.tenant_id and t.id = l.teacher_id
        where l.tenant_id = ${tenantId} and l.id = ${lessonId}`,
  );
  if (!row) return undefined;
  return lessonParams({ ...row, subject: { name: row.subject }, class: { name: row.class }, teacher: { name: row.teacher } });
}

/** A replacement was deleted: its original waits for one again. */
export async function lessonWaitingAgain(tx: Tx, ctx: Ctx, originalId: number): Promise<void> {
  const params = await loadLessonParams(tx, ctx.tenantId, originalId);
  if (!params) return;
  const actorId = ctx.actor?.kind === 'user' ? ctx.actor.id : null;
  await notify(tx, ctx.tenantId, [{ kind: 'lesson-waiting', params, link: lessonLink(originalId), recipients: officeStaff(ctx.tenantId, actorId) }]);
}

/** A new series: one notification to its teacher for all its lessons, opening the first. */
export async function seriesCreated(tx: Tx, ctx: Ctx, teacherId: number | null, lessonIds: number[]): Promise<void> {
  const first = Math.min(...lessonIds);
  const params = teacherId && lessonIds.length ? await loadLessonParams(tx, ctx.tenantId, first) : undefined;
  if (!params) return;
  await notify(tx, ctx.tenantId, [
    { kind: 'series-created', params: { ...params, count: lessonIds.length }, link: lessonLink(first), recipients: teacherAccount(ctx.tenantId, teacherId) },
  ]);
}
