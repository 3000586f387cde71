/**
 * The lesson events that notify someone, called from the lessons' write hooks inside the
 * write's transaction: a teacher hears of her lesson created, moved, cancelled or marked to
 * be replaced (of a new series, and of a change to many lessons of a series at once, once
 * per change); the office (ADMIN and SECRETARY, but not whoever did it) hears of a lesson
 * waiting for a replacement (of many at once, once).
 */
import { calendarLink, displayDate, lessonLink, type NotificationKind as NewNotificationKind, type NotificationParams } from '../../../domain/index';
import type { Ctx, Data } from '../../engine/spec';
import { sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../../db/types';
import { queryRows } from '../../db/statements';
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

/**
 * A lesson deleted while it was still to be given: off its teacher's timetable, as a
 * cancellation is. The link opens the calendar, since the lesson is gone.
 */
export async function lessonDeleted(tx: Tx, ctx: Ctx, before: Data): Promise<void> {
  if (before.status !== 'NORMAL' && before.status !== 'TO_BE_REPLACED') return;
  await notify(tx, ctx.tenantId, [
    { kind: 'lesson-canceled', params: lessonParams(before), link: calendarLink, recipients: teacherAccount(ctx.tenantId, before.teacher_id as number | null) },
  ]);
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

/**
 * One lesson of a change to many at once (a series changed or deleted "all" or "this and
 * following"): as it was (null: made by the change) and as it is (null: deleted by it). Rows
 * carry at least id, date, times, room, teacher and status; `before` rows also their labels.
 */
export interface LessonChange {
  before: Row | null;
  after: Row | null;
}

type Happening = 'moved' | 'canceled' | 'added' | 'to-be-replaced';
interface TeacherEvent {
  teacherId: number;
  what: Happening;
  before: Row | null;
  after: Row | null;
  /** A lesson deleted or made by the change: a deleted one and a new one of one teacher may be a move. */
  bare?: boolean;
}

const KIND_OF: Record<Happening, NewNotificationKind> = {
  moved: 'series-moved',
  canceled: 'series-canceled',
  added: 'series-added',
  'to-be-replaced': 'series-to-be-replaced',
};

const dayOf = (e: { before: Row | null; after: Row | null }) => {
  const row = (e.after ?? e.before)!;
  return `${row.date} ${row.start_time} ${String(row.id ?? '').padStart(12, '0')}`;
};
const byDay = <T extends { before: Row | null; after: Row | null }>(list: T[]) => [...list].sort((a, b) => (dayOf(a) < dayOf(b) ? -1 : 1));
const placed = (before: Row, after: Row) => PLACING.some((f) => (before[f] ?? null) !== (after[f] ?? null));

/** What one lesson's change means to whom, as a single lesson's write tells it (lessonWritten). */
function eventsOf({ before, after }: LessonChange, waiting: Row[]): TeacherEvent[] {
  const teacherOf = (row: Row) => (row.teacher_id as number | null | undefined) ?? null;
  const out: TeacherEvent[] = [];
  const push = (row: Row, what: Happening, bare = false) => {
    const teacherId = teacherOf(row);
    if (teacherId) out.push({ teacherId, what, before, after, bare });
  };
  if (!before) {
    if (after?.status === 'NORMAL') push(after, 'added', true);
  } else if (!after) {
    if (before.status === 'NORMAL') push(before, 'canceled', true);
  } else {
    const from = before.status;
    const to = after.status;
    if (from !== to && to === 'CANCELED') push(after, 'canceled');
    else if (from !== to && to === 'TO_BE_REPLACED') {
      push(after, 'to-be-replaced');
      waiting.push(after);
    } else if (from !== to && to === 'NORMAL') push(after, 'added');
    else if (teacherOf(before) !== teacherOf(after) && to === 'NORMAL') {
      push(after, 'added');
      push(before, 'canceled');
    } else if (placed(before, after) && to !== 'CANCELED') push(after, 'moved');
  }
  return out;
}

/**
 * A teacher's lessons deleted and made by one change are moves: first those on the same
 * date (no news when nothing else differs either), then the rest in date order.
 */
function pairMoves(events: TeacherEvent[]): TeacherEvent[] {
  const gone = byDay(events.filter((e) => e.bare && e.what === 'canceled'));
  const made = byDay(events.filter((e) => e.bare && e.what === 'added'));
  if (!gone.length || !made.length) return events;
  const rest = events.filter((e) => !gone.includes(e) && !made.includes(e));
  const moves: TeacherEvent[] = [];
  const pair = (g: TeacherEvent, m: TeacherEvent) => {
    gone.splice(gone.indexOf(g), 1);
    made.splice(made.indexOf(m), 1);
    if (placed(g.before!, m.after!)) moves.push({ teacherId: g.teacherId, what: 'moved', before: g.before, after: m.after });
  };
  for (const g of [...gone]) {
    const m = made.find((x) => x.after!.date === g.before!.date);
    if (m) pair(g, m);
  }
  while (gone.length && made.length) pair(gone[0]!, made[0]!);
  return [...rest, ...gone, ...made, ...moves];
}

/** The texts of a bulk notification: the first lesson it is about, as it is now (or was, if deleted). */
async function firstParams(q: Queryable, tenantId: number, first: { before: Row | null; after: Row | null }) {
  const loaded = first.after?.id ? await loadLessonParams(q, tenantId, Number(first.after.id)) : undefined;
  return loaded ?? lessonParams((first.after ?? first.before)!);
}

/**
 * A change to many lessons at once: each teacher concerned hears of it once, in a summary of
 * how many of her lessons moved, were cancelled, were given to her or will be replaced (one
 * text for a mix), opening the first of them; the office (but whoever did it) hears once of
 * the lessons that now wait for a replacement. Nothing when nobody's timetable changed.
 */
export async function lessonsChanged(tx: Tx, ctx: Ctx, changes: LessonChange[]): Promise<void> {
  const waiting: Row[] = [];
  const byTeacher = new Map<number, TeacherEvent[]>();
  for (const change of changes)
    for (const event of eventsOf(change, waiting)) {
      const list = byTeacher.get(event.teacherId) ?? [];
      list.push(event);
      byTeacher.set(event.teacherId, list);
    }

  const items: NewNotification[] = [];
  for (const [teacherId, all] of byTeacher) {
    const events = byDay(pairMoves(all));
    if (!events.length) continue;
    const first = events[0]!;
    const kinds = new Set(events.map((e) => e.what));
    const kind = kinds.size === 1 ? KIND_OF[first.what] : 'series-changed';
    const params: NotificationParams = { ...(await firstParams(tx, ctx.tenantId, first)), count: events.length };
    if (kind === 'series-moved') Object.assign(params, { from_date: displayDate(String(first.before!.date)), from_start: String(first.before!.start_time) });
    // A lesson deleted by the change opens nothing: the calendar then.
    const link = first.after?.id ? lessonLink(Number(first.after.id)) : calendarLink;
    items.push({ kind, params, link, recipients: teacherAccount(ctx.tenantId, teacherId) });
  }
  if (waiting.length) {
    const [first] = byDay(waiting.map((after) => ({ before: null, after })));
    const actorId = ctx.actor?.kind === 'user' ? ctx.actor.id : null;
    items.push({
      kind: 'series-waiting',
      params: { ...(await firstParams(tx, ctx.tenantId, first!)), count: waiting.length },
      link: lessonLink(Number(first!.after!.id)),
      recipients: officeStaff(ctx.tenantId, actorId),
    });
  }
  if (items.length) await notify(tx, ctx.tenantId, items);
}
