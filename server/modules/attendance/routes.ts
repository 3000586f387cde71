/**
 * Attendance (docs/rules.md, Attendance), under /api:
 *  - GET/PUT /lessons/:id/attendance: a lesson's roster (its class's students, plus anyone
 *    already marked) with each one's mark, and many marks at once. The lesson's teacher,
 *    ADMIN, SECRETARY and ROOT mark; another TEACHER is refused. Each change is in the history
 *    (entity `attendance`, the student's and the lesson's names beside the values), and an
 *    ABSENT mark writes its notices to the family in the same transaction (notices.ts).
 *  - GET /attendance: marks with their lesson, filtered by student, class, lesson, status and
 *    date range, paged and sorted; GET /attendance/rates: counts per status and the rate.
 * A TEACHER sees only her own lessons' marks, and of the students only their names.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ATTENDANCE_STATUSES, attendanceRate, DomainError, displayDate, isOwnOnly, type FieldErrors } from '../../../domain/index';
import type { Config } from '../../config';
import type { Actor } from '../../context';
import type { Database, Tx } from '../../db/types';
import { withTenant } from '../../db/doors';
import { withTenantReads } from '../../db/read-batch';
import { KeptStatements, queryRows, rowCount, writeStatement, writtenRows } from '../../db/statements';
import { readsConfirmingSession } from '../../plugins/auth';
import { history } from '../../db/schema/index';
import { answerSchema } from '../../engine/answers';
import { pagedQuery, pageOf } from '../../engine/list-query';
import { IdParams } from '../../engine/params';
import { ctxOf, sendPage } from '../../engine/routes';
import { actorKey, type Ctx } from '../../engine/spec';
import { armAbsenceNotices, cancelAbsenceNotices } from './notices';
import { leftBy } from '../contracts/enrolment';

const area = 'attendance' as const;
const Status = z.enum(ATTENDANCE_STATUSES);
const MAX_MARKS = 200;

const MarksBody = z.strictObject({
  marks: z
    .array(
      z.strictObject({
        student_id: z.number().int().positive().max(2_147_483_647),
        status: Status,
        note: z.string().trim().max(500).nullable().optional(),
      }),
    )
    .min(1)
    .max(MAX_MARKS),
});

const Label = z.object({ id: z.number().int(), name: z.string().nullable() }).nullable();
const Mark = z
  .object({
    id: z.number().int(),
    status: Status,
    note: z.string().nullable(),
    marked_by: z.number().int().nullable(),
    marked_by_name: z.string().nullable(),
    marked_at: z.string(),
    version: z.number().int(),
  })
  .nullable();
const RosterLine = z.object({
  student_id: z.number().int(),
  student: Label,
  in_class: z.boolean(),
  mark: Mark,
});
const LessonSummary = z.object({
  id: z.number().int(),
  date: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  status: z.string(),
  teacher_id: z.number().int().nullable(),
  class_id: z.number().int().nullable(),
  class: Label,
  subject_id: z.number().int().nullable(),
  subject: Label,
});
const RosterAnswer = z.object({ data: z.object({ lesson: LessonSummary, students: z.array(RosterLine) }) });

const ListRow = z.object({
  id: z.number().int(),
  lesson_id: z.number().int(),
  student_id: z.number().int(),
  student: Label,
  status: Status,
  note: z.string().nullable(),
  marked_by: z.number().int().nullable(),
  marked_at: z.string(),
  date: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  class_id: z.number().int().nullable(),
  class: Label,
  subject_id: z.number().int().nullable(),
  subject: Label,
  version: z.number().int(),
});
const ListAnswer = z.object({ data: z.array(ListRow), total: z.number().int() });
const Counts = z.object({ PRESENT: z.number().int(), ABSENT: z.number().int(), LATE: z.number().int(), EXCUSED: z.number().int() });
const RatesAnswer = z.object({ data: z.object({ total: z.number().int(), counts: Counts, rate: z.number().nullable() }) });

const idText = z
  .string()
  .regex(/^\d{1,10}$/)
  .transform(Number)
  .pipe(z.number().int().positive().max(2_147_483_647));
const dateText = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'invalid date');
const statusList = z.union([Status, z.array(Status).max(4)]).transform((v) => (Array.isArray(v) ? v : [v]));
const SORTS = { date: sql`l.date`, student: sql`s.last_name_sort collate "C"`, status: sql`a.status`, marked_at: sql`a.marked_at` } as const;
const sortText = z.string().max(100);

/** The pages of marks already written, by centre, actor and query (see GET /attendance). */
const keptPages = new KeptStatements(1000);

const ListQuery = pagedQuery({
  student_id: idText.optional(),
  class_id: idText.optional(),
  lesson_id: idText.optional(),
  status: statusList.optional(),
  date_gte: dateText.optional(),
  date_lte: dateText.optional(),
  _sort: sortText.optional(),
  _order: sortText.optional(),
});
const RatesQuery = z.strictObject({
  student_id: idText.optional(),
  class_id: idText.optional(),
  from: dateText.optional(),
  to: dateText.optional(),
});

interface LessonRow {
  id: number;
  date: string;
  start_time: string;
  end_time: string;
  status: string;
  teacher_id: number | null;
  teacher_user_id: number | null;
  class_id: number | null;
  class_name: string | null;
  subject_id: number | null;
  subject_name: string | null;
}

const teaches = (ctx: Ctx) => !!ctx.actor && isOwnOnly(ctx.actor.role, area);

/** A TEACHER's own lessons (as a condition on the lessons aliased `l`). */
const ownLessons = (ctx: Ctx): SQL => sql`l.teacher_id in (select t.id from teachers t where t.tenant_id = ${ctx.tenantId} and t.user_id = ${ctx.actor!.id})`;

async function loadLesson(tx: Tx, tenantId: number, id: number, lock: boolean): Promise<LessonRow> {
  const [lesson] = await queryRows<LessonRow>(
    tx,
    sql`select l.id, to_char(l.date, 'YYYY-MM-DD') as date, to_char(l.start_time, 'HH24:MI') as start_time, to_char(l.end_time, 'HH24:MI') as end_time,
               l.status, l.teacher_id, t.user_id as teacher_user_id, l.class_id, c.name as class_name, l.subject_id, sb.name as subject_name
        from lessons l
        left join teachers t on t.tenant_id = l.tenant_id and t.id = l.teacher_id
        left join classes c on c.tenant_id = l.tenant_id and c.id = l.class_id
        left join subjects sb on sb.tenant_id = l.tenant_id and sb.id = l.subject_id
        where l.tenant_id = ${tenantId} and l.id = ${id}
        ${lock ? sql`for no key update of l` : sql``}`,
  );
  if (!lesson) throw new DomainError('not-found');
  return lesson;
}

/** docs/rules.md, Attendance: the lesson's teacher, or the office. */
function assertMayMark(ctx: Ctx, lesson: LessonRow) {
  if (teaches(ctx) && lesson.teacher_user_id !== ctx.actor!.id) {
    throw new DomainError('forbidden', 'Only the teacher of the lesson or the office marks its attendance.');
  }
}

interface RosterRow {
  student_id: number;
  first_name: string | null;
  last_name: string | null;
  in_class: boolean;
  /** INACTIVE, or left the centre by the lesson's date: her family is sent no absence notice. */
  gone: boolean;
  mark_id: number | null;
  status: string | null;
  note: string | null;
  marked_by: number | null;
  marked_by_name: string | null;
  marked_at: Date | string | null;
  version: number | null;
}

/**
 * The roster of a lesson by its id alone (its class's students are found through the lesson),
 * so that a read can send it together with the lesson's own row, in one round trip.
 */
async function rosterOf(tx: Tx, tenantId: number, lessonId: number): Promise<RosterRow[]> {
  // docs/rules.md, Attendance and Contracts: an INACTIVE student, or one who had left by the
  // lesson's date (withdrawn), is not offered; a mark she already has still shows.
  return queryRows<RosterRow>(
    tx,
    sql`with lesson as (
          select l.class_id, l.date from lessons l where l.tenant_id = ${tenantId} and l.id = ${lessonId}
        ), members as (
          select cs.student_id from class_students cs
          join lesson l on l.class_id = cs.class_id
          join students m on m.tenant_id = cs.tenant_id and m.id = cs.student_id
          where cs.tenant_id = ${tenantId} and m.status <> 'INACTIVE' and not ${leftBy(sql`cs.tenant_id`, sql`cs.student_id`, sql`l.date`)}
        ), marked as (
          select a.student_id from attendance a where a.tenant_id = ${tenantId} and a.lesson_id = ${lessonId}
        )
        select s.id as student_id, s.first_name, s.last_name, (s.id in (select student_id from members)) as in_class,
               (s.status = 'INACTIVE' or ${leftBy(sql`s.tenant_id`, sql`s.id`, sql`(select date from lesson)`)}) as gone,
               a.id as mark_id, a.status, a.note, a.marked_by,
               nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as marked_by_name,
               a.marked_at, a.version
        from students s
        left join attendance a on a.tenant_id = s.tenant_id and a.lesson_id = ${lessonId} and a.student_id = s.id
        left join users u on u.tenant_id = a.tenant_id and u.id = a.marked_by
        where s.tenant_id = ${tenantId} and (s.id in (select student_id from members) or s.id in (select student_id from marked))
        order by s.last_name_sort collate "C", s.first_name_sort collate "C", s.id`,
  );
}

const nameOf = (first: string | null, last: string | null) => `${first ?? ''} ${last ?? ''}`.trim() || null;
const instant = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function rosterAnswer(lesson: LessonRow, rows: RosterRow[]) {
  return {
    data: {
      lesson: {
        id: lesson.id,
        date: lesson.date,
        start_time: lesson.start_time,
        end_time: lesson.end_time,
        status: lesson.status,
        teacher_id: lesson.teacher_id,
        class_id: lesson.class_id,
        class: lesson.class_id === null ? null : { id: lesson.class_id, name: lesson.class_name },
        subject_id: lesson.subject_id,
        subject: lesson.subject_id === null ? null : { id: lesson.subject_id, name: lesson.subject_name },
      },
      students: rows.map((r) => ({
        student_id: r.student_id,
        student: { id: r.student_id, name: nameOf(r.first_name, r.last_name) },
        in_class: !!r.in_class,
        mark:
          r.mark_id === null
            ? null
            : {
                id: r.mark_id,
                status: r.status as (typeof ATTENDANCE_STATUSES)[number],
                note: r.note,
                marked_by: r.marked_by,
                marked_by_name: r.marked_by_name,
                marked_at: instant(r.marked_at)!,
                version: Number(r.version),
              },
      })),
    },
  };
}

const who = (actor: Actor | null) => ({
  userId: actor?.id ?? null,
  userIsRoot: actor?.kind === 'root',
  userName: actor ? [actor.firstName, actor.lastName].filter(Boolean).join(' ') || actor.username : '',
});

export const attendanceRoutes: FastifyPluginAsyncZod<{ database: Database; config: Config }> = async (app, { database, config }) => {
  app.get(
    '/lessons/:id/attendance',
    {
      config: { access: { area, action: 'read' } },
      schema: {
        tags: ['attendance'],
        summary: "The lesson's roster (its class's students, plus anyone already marked), each with its mark or none",
        params: IdParams,
        response: { 200: answerSchema(RosterAnswer) },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      return withTenantReads(database, ctx.tenantId, async (tx) => {
        // The lesson and its roster travel together; the roster is answered only if she may mark.
        const [lesson, roster] = await Promise.all([loadLesson(tx, ctx.tenantId, request.params.id, false), rosterOf(tx, ctx.tenantId, request.params.id)]);
        assertMayMark(ctx, lesson);
        return rosterAnswer(lesson, roster);
      });
    },
  );

  app.put(
    '/lessons/:id/attendance',
    {
      config: { access: { area, action: 'update' } },
      schema: {
        tags: ['attendance'],
        summary: 'Sets many marks of the lesson at once (students on its roster only); answers the roster',
        params: IdParams,
        body: MarksBody,
        response: { 200: answerSchema(RosterAnswer) },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      const { marks } = request.body;
      return withTenant(database, ctx.tenantId, async (tx) => {
        const lesson = await loadLesson(tx, ctx.tenantId, request.params.id, true);
        assertMayMark(ctx, lesson);
        const roster = await rosterOf(tx, ctx.tenantId, lesson.id);
        const byStudent = new Map(roster.map((r) => [r.student_id, r]));
        const fields: FieldErrors = {};
        const seen = new Set<number>();
        marks.forEach((mark, i) => {
          if (!byStudent.has(mark.student_id)) fields[`marks.${i}.student_id`] = 'invalid';
          else if (seen.has(mark.student_id)) fields[`marks.${i}.student_id`] = 'duplicate';
          seen.add(mark.student_id);
        });
        if (Object.keys(fields).length) throw new DomainError('validation', 'Every mark must be of a student on the lesson roster, once.', fields);

        const markedBy = ctx.actor?.kind === 'user' ? ctx.actor.id : null;
        const lessonLabel = [lesson.subject_name, lesson.class_name].filter(Boolean).join(' · ');
        const entries: (typeof history.$inferInsert)[] = [];
        for (const mark of marks) {
          const before = byStudent.get(mark.student_id)!;
          const note = mark.note === undefined ? (before.note ?? null) : mark.note || null;
          if (before.mark_id !== null && before.status === mark.status && (before.note ?? null) === note) continue;
          const [row] = await queryRows<{ id: number }>(
            tx,
            sql`insert into attendance (tenant_id, lesson_id, student_id, status, note, marked_by, marked_at)
                values (${ctx.tenantId}, ${lesson.id}, ${mark.student_id}, ${mark.status}, ${note}, ${markedBy}, now())
                on conflict (tenant_id, lesson_id, student_id) do update
                  set status = excluded.status, note = excluded.note, marked_by = excluded.marked_by, marked_at = now(),
                      version = attendance.version + 1, updated_at = now()
                returning id`,
          );
          const name = nameOf(before.first_name, before.last_name) ?? '—';
          const changes: Record<string, { old: unknown; new: unknown }> = {
            student: { old: name, new: name },
            lesson: { old: `${lesson.date} ${lesson.start_time} ${lessonLabel}`.trim(), new: `${lesson.date} ${lesson.start_time} ${lessonLabel}`.trim() },
          };
          if (before.mark_id === null) {
            changes.lesson_id = { old: null, new: lesson.id };
            changes.student_id = { old: null, new: mark.student_id };
          }
          if (before.status !== mark.status) changes.status = { old: before.status, new: mark.status };
          if ((before.note ?? null) !== note) changes.note = { old: before.note ?? null, new: note };
          entries.push({
            tenantId: ctx.tenantId,
            entity: 'attendance',
            entityId: row!.id,
            action: before.mark_id === null ? 'create' : 'update',
            changes,
            ...who(ctx.actor),
          });

          if (mark.status === 'ABSENT' && before.status !== 'ABSENT' && !before.gone) {
            await armAbsenceNotices(tx, {
              tenantId: ctx.tenantId,
              lesson: {
                id: lesson.id,
                date: displayDate(lesson.date),
                start: lesson.start_time,
                end: lesson.end_time,
                subject: lesson.subject_name,
                className: lesson.class_name,
              },
              student: { id: mark.student_id, name },
              graceSeconds: config.absenceGraceSeconds,
              except: markedBy,
              origin: ctx.origin,
            });
          } else if (before.status === 'ABSENT' && mark.status !== 'ABSENT') {
            await cancelAbsenceNotices(tx, ctx.tenantId, lesson.id, mark.student_id);
          }
        }
        if (entries.length) await tx.insert(history).values(entries);
        return rosterAnswer(lesson, await rosterOf(tx, ctx.tenantId, lesson.id));
      });
    },
  );

  /**
   * The conditions of a list or a rate (marks aliased `a`, lessons `l`), and whether they name
   * the lesson (what a count then has to join).
   */
  const conditions = (ctx: Ctx, q: { student_id?: number; class_id?: number; lesson_id?: number; status?: string[]; from?: string; to?: string }) => {
    const where: SQL[] = [sql`a.tenant_id = ${ctx.tenantId}`];
    if (q.student_id !== undefined) where.push(sql`a.student_id = ${q.student_id}`);
    if (q.class_id !== undefined) where.push(sql`l.class_id = ${q.class_id}`);
    if (q.lesson_id !== undefined) where.push(sql`a.lesson_id = ${q.lesson_id}`);
    if (q.status?.length)
      where.push(
        sql`a.status in (${sql.join(
          q.status.map((s) => sql`${s}`),
          sql`, `,
        )})`,
      );
    if (q.from) where.push(sql`l.date >= ${q.from}::date`);
    if (q.to) where.push(sql`l.date <= ${q.to}::date`);
    if (teaches(ctx)) where.push(ownLessons(ctx));
    return { where: sql.join(where, sql` and `), lessons: q.class_id !== undefined || !!q.from || !!q.to || teaches(ctx) };
  };
  const FROM = sql`from attendance a
    join lessons l on l.tenant_id = a.tenant_id and l.id = a.lesson_id
    join students s on s.tenant_id = a.tenant_id and s.id = a.student_id
    left join classes c on c.tenant_id = l.tenant_id and c.id = l.class_id
    left join subjects sb on sb.tenant_id = l.tenant_id and sb.id = l.subject_id`;
  // What a count needs: conditions name only marks and lessons, and every mark's student and
  // lesson exist (their foreign keys), so a join only costs a lookup per mark, and the lesson's
  // is made only where a condition names the lesson.
  const countedFrom = (lessons: boolean) =>
    lessons ? sql`from attendance a join lessons l on l.tenant_id = a.tenant_id and l.id = a.lesson_id` : sql`from attendance a`;

  /**
   * A page of marks and their count as one statement: the database shapes the page as the
   * answer's JSON beside its count, and the text goes out as it is (the page keeps the order of
   * its sorted subquery, as json_agg reads it).
   */
  const pageStatement = (ctx: Ctx, q: z.infer<typeof ListQuery>) => {
    const { start, end } = pageOf(q);
    const sorts = (q._sort ?? 'date').split(',');
    const orders = (q._order ?? '').split(',');
    const order: SQL[] = [];
    sorts.forEach((name, i) => {
      const expr = SORTS[name as keyof typeof SORTS];
      if (!expr) throw new DomainError('validation', 'The list query is not valid.', { _sort: 'invalid-option' });
      const dir = orders[i] || (name === 'date' ? 'desc' : 'asc');
      if (dir !== 'asc' && dir !== 'desc') throw new DomainError('validation', 'The list query is not valid.', { _order: 'invalid-option' });
      order.push(sql`${expr} ${sql.raw(dir)}`);
      if (name === 'date') order.push(sql`l.start_time ${sql.raw(dir)}`);
    });
    const { where, lessons } = conditions(ctx, { ...q, from: q.date_gte, to: q.date_lte });
    return sql`select coalesce((select json_agg(p) from (
        select a.id, a.lesson_id, a.student_id,
          json_build_object('id', a.student_id, 'name', nullif(trim(coalesce(s.first_name, '') || ' ' || coalesce(s.last_name, '')), '')) as student,
          a.status, a.note, a.marked_by, to_char(a.marked_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as marked_at,
          to_char(l.date, 'YYYY-MM-DD') as date, to_char(l.start_time, 'HH24:MI') as start_time, to_char(l.end_time, 'HH24:MI') as end_time,
          l.class_id, case when l.class_id is not null then json_build_object('id', l.class_id, 'name', c.name) end as class,
          l.subject_id, case when l.subject_id is not null then json_build_object('id', l.subject_id, 'name', sb.name) end as subject,
          a.version
        ${FROM} where ${where}
        order by ${sql.join(order, sql`, `)}, a.id
        limit ${rowCount(end - start)} offset ${rowCount(start)}) p), '[]'::json)::text as data,
      (select count(*)::int ${countedFrom(lessons)} where ${where}) as total`;
  };

  app.get(
    '/attendance',
    {
      config: { access: { area, action: 'list' }, sessionInReads: true },
      schema: {
        tags: ['attendance'],
        summary: 'Marks with their lesson, newest lesson first by default; filters student_id, class_id, lesson_id, status, date_gte, date_lte',
        querystring: ListQuery,
        response: { 200: answerSchema(ListAnswer) },
      },
    },
    async (request, reply) =>
      // The session check travels with the page (sessionInReads); what the page shows follows the actor, so all is built inside.
      readsConfirmingSession(request, async (first) => {
        const ctx = ctxOf(request);
        const q = request.query;
        // The same page asked again is sent as written (what the page holds follows the centre,
        // the actor and the query alone).
        const key = `${ctx.tenantId}|${actorKey(ctx)}|${JSON.stringify(q)}`;
        const statement = keptPages.get(key) ?? keptPages.keep(key, writeStatement(pageStatement(ctx, q), { valuesInText: true }));
        // One statement behind the tenant settings (one round trip).
        const [row] = await withTenantReads(database, ctx.tenantId, (tx) => writtenRows<{ data: string; total: number }>(tx, statement), first);
        const total = Number(row?.total ?? 0);
        return sendPage(reply, { data: [], total, json: `{"data":${row!.data},"total":${total}}` });
      }),
  );

  app.get(
    '/attendance/rates',
    {
      config: { access: { area, action: 'list' } },
      schema: {
        tags: ['attendance'],
        summary: 'Counts per status over the marks a student or class has from `from` to `to`, and the rate (present or late over all)',
        querystring: RatesQuery,
        response: { 200: answerSchema(RatesAnswer) },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      const { where, lessons } = conditions(ctx, request.query);
      const rows = await withTenantReads(database, ctx.tenantId, (tx) =>
        queryRows<{ status: string; n: number }>(tx, sql`select a.status, count(*)::int as n ${countedFrom(lessons)} where ${where} group by a.status`),
      );
      const counts = { PRESENT: 0, ABSENT: 0, LATE: 0, EXCUSED: 0 };
      for (const r of rows) if (r.status in counts) counts[r.status as keyof typeof counts] = Number(r.n);
      const total = counts.PRESENT + counts.ABSENT + counts.LATE + counts.EXCUSED;
      return { data: { total, counts, rate: attendanceRate(counts) } };
    },
  );
};
