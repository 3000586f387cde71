/**
 * A teacher's private calendar feed: a secret link to an iCal document of their lessons that
 * a calendar app polls without signing in. Only the secret's sha256 is stored; making a new
 * link replaces the old one, revoking deletes it. The staff manage any teacher's link, a
 * TEACHER only their own (also at /api/mydata/calendar-feed).
 */
import { and, asc, eq, gte, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash, randomBytes } from 'node:crypto';
import { addDays, can, DomainError, isOwnOnly } from '../../../domain/index';
import { actorOf, type Actor } from '../../context';
import type { Database, Tx } from '../../db/types';
import { withTenant } from '../../db/doors';
import { calendarFeeds, classes, lessons, rooms, subjects, teachers } from '../../db/schema/index';
import { hostTenant, findTenantBySlug } from '../../plugins/tenancy';
import { recordHistory } from '../../engine/history';
import { ctxOf } from '../../engine/routes';
import { iso, parseId } from '../../engine/params';
import { icalendar, todayIn } from './ical';

/** The feed shows lessons from this many days back … */
const FEED_PAST_DAYS = 90;
/** … to this many days ahead. */
const FEED_FUTURE_DAYS = 400;
const SECRET_RE = /^([A-Za-z0-9_-]{43})\.ics$/;

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

interface TeacherRow {
  id: number;
  userId: number;
  name: string;
  deleted: boolean;
}

async function findTeacher(tx: Tx, tenantId: number, where: ReturnType<typeof eq>): Promise<TeacherRow | undefined> {
  const [row] = await tx
    .select({
      id: teachers.id,
      userId: teachers.userId,
      name: sql<string>`trim(${teachers.firstName} || ' ' || ${teachers.lastName})`,
      deleted: sql<boolean>`(${teachers.deletedAt} is not null)`,
    })
    .from(teachers)
    .where(and(eq(teachers.tenantId, tenantId), where));
  return row;
}

/** The matrix narrows this user to one teacher row: her own (TEACHER). */
const ownTeacherOnly = (actor: Actor) => actor.kind === 'user' && isOwnOnly(actor.role, 'teachers');

/** The teacher whose feed `actor` may manage, or 404 (a TEACHER asking about someone else learns nothing). */
async function teacherFor(tx: Tx, tenantId: number, actor: Actor, teacherId: number | 'mine') {
  const teacher =
    teacherId === 'mine'
      ? ownTeacherOnly(actor)
        ? await findTeacher(tx, tenantId, and(eq(teachers.userId, actor.id), isNull(teachers.deletedAt))!)
        : undefined
      : await findTeacher(tx, tenantId, eq(teachers.id, teacherId));
  if (!teacher) throw new DomainError('not-found');
  if (!can(actor.role, 'teachers', 'read')) throw new DomainError('not-found');
  if (isOwnOnly(actor.role, 'teachers') && !(actor.kind === 'user' && teacher.userId === actor.id)) throw new DomainError('not-found');
  return teacher;
}

async function feedOf(tx: Tx, tenantId: number, teacherId: number) {
  const [row] = await tx
    .select({ createdAt: calendarFeeds.createdAt })
    .from(calendarFeeds)
    .where(and(eq(calendarFeeds.tenantId, tenantId), eq(calendarFeeds.teacherId, teacherId)));
  return row;
}

function feedRoutesAt(app: FastifyInstance, database: Database, path: string, area: 'teachers' | 'mydata', idOf: (request: FastifyRequest) => number | 'mine') {
  const tag = { tags: ['calendar-feed'] };
  const access = area === 'mydata' ? ({ area: 'mydata', action: 'read' } as const) : 'signed-in';
  const writeAccess = area === 'mydata' ? ({ area: 'mydata', action: 'update' } as const) : 'signed-in';
  const run = <T>(request: FastifyRequest, fn: (tx: Tx, tenantId: number, actor: Actor, teacher: TeacherRow) => Promise<T>) => {
    const ctx = ctxOf(request);
    const actor = actorOf(request);
    const id = idOf(request);
    return withTenant(database, ctx.tenantId, async (tx) => fn(tx, ctx.tenantId, actor, await teacherFor(tx, ctx.tenantId, actor, id)));
  };

  app.get(path, { config: { access }, schema: { ...tag, summary: 'Whether the teacher has a calendar link' } }, async (request) =>
    run(request, async (tx, tenantId, _actor, teacher) => {
      const feed = await feedOf(tx, tenantId, teacher.id);
      return { data: { active: !!feed, created_at: iso(feed?.createdAt) } };
    }),
  );

  app.post(
    path,
    {
      config: { access: writeAccess },
      schema: {
        ...tag,
        summary: 'A new calendar link (the old one stops working)',
        response: {
          201: {
            type: 'object',
            properties: {
              data: { type: 'object', properties: { active: { type: 'boolean' }, url: { type: 'string' }, created_at: { type: 'string', nullable: true } } },
            },
          },
        },
      },
    },
    async (request, reply: FastifyReply) => {
      const secret = randomBytes(32).toString('base64url');
      const data = await run(request, async (tx, tenantId, actor, teacher) => {
        if (teacher.deleted) throw new DomainError('not-found');
        const before = await feedOf(tx, tenantId, teacher.id);
        const [row] = await tx
          .insert(calendarFeeds)
          .values({ tenantId, teacherId: teacher.id, secretHash: hashSecret(secret) })
          .onConflictDoUpdate({ target: [calendarFeeds.tenantId, calendarFeeds.teacherId], set: { secretHash: hashSecret(secret), createdAt: sql`now()` } })
          .returning({ createdAt: calendarFeeds.createdAt });
        await recordHistory(tx, tenantId, actor, {
          entity: 'calendar-feeds',
          entityId: teacher.id,
          action: before ? 'update' : 'create',
          before: before ? { active: true, created_at: iso(before.createdAt) } : null,
          after: { active: true, created_at: iso(row!.createdAt) },
        });
        return { active: true, url: `${request.protocol}://${request.host}/ical/${secret}.ics`, created_at: iso(row!.createdAt) };
      });
      return reply.code(201).send({ data });
    },
  );

  app.delete(path, { config: { access: writeAccess }, schema: { ...tag, summary: 'Revoke the calendar link' } }, async (request, reply: FastifyReply) => {
    await run(request, async (tx, tenantId, actor, teacher) => {
      const gone = await tx
        .delete(calendarFeeds)
        .where(and(eq(calendarFeeds.tenantId, tenantId), eq(calendarFeeds.teacherId, teacher.id)))
        .returning({ createdAt: calendarFeeds.createdAt });
      if (gone.length) {
        await recordHistory(tx, tenantId, actor, {
          entity: 'calendar-feeds',
          entityId: teacher.id,
          action: 'delete',
          before: { active: true, created_at: iso(gone[0]!.createdAt) },
        });
      }
    });
    return reply.code(204).send();
  });
}

export function calendarFeedRoutes(app: FastifyInstance, database: Database) {
  feedRoutesAt(app, database, '/api/teachers/:id/calendar-feed', 'teachers', (request) => parseId((request.params as { id?: string }).id));
  feedRoutesAt(app, database, '/api/mydata/calendar-feed', 'mydata', () => 'mine');

  // Public: a calendar app sends neither headers nor cookies. The Host names the centre (a
  // bare host means DEFAULT_TENANT), the secret names the teacher; anything else is a 404.
  app.get(
    '/ical/:file',
    { config: { access: 'public' }, schema: { tags: ['calendar-feed'], summary: "A teacher's lessons as iCalendar (secret link)" } },
    async (request, reply) => {
      const match = SECRET_RE.exec((request.params as { file?: string }).file ?? '');
      if (!match) throw new DomainError('not-found');
      const tenant = await findTenantBySlug(database, hostTenant(request.headers.host) ?? app.frontis.config.defaultTenant);
      if (tenant?.status !== 'ACTIVE') throw new DomainError('not-found');
      const today = todayIn(tenant.timeZone);
      const body = await withTenant(database, tenant.id, async (tx) => {
        const [feed] = await tx
          .select({ teacherId: calendarFeeds.teacherId })
          .from(calendarFeeds)
          .where(and(eq(calendarFeeds.tenantId, tenant.id), eq(calendarFeeds.secretHash, hashSecret(match[1]!))));
        if (!feed) return null;
        const teacher = await findTeacher(tx, tenant.id, eq(teachers.id, feed.teacherId));
        const rows = await tx
          .select({
            id: lessons.id,
            date: lessons.date,
            start_time: lessons.startTime,
            end_time: lessons.endTime,
            status: lessons.status,
            subject: subjects.name,
            class: classes.name,
            room: rooms.name,
            homework: lessons.homework,
            notes: lessons.notes,
            version: lessons.version,
            updated_at: lessons.updatedAt,
          })
          .from(lessons)
          .leftJoin(subjects, and(eq(subjects.tenantId, lessons.tenantId), eq(subjects.id, lessons.subjectId)))
          .leftJoin(classes, and(eq(classes.tenantId, lessons.tenantId), eq(classes.id, lessons.classId)))
          .leftJoin(rooms, and(eq(rooms.tenantId, lessons.tenantId), eq(rooms.id, lessons.roomId)))
          .where(
            and(
              eq(lessons.tenantId, tenant.id),
              eq(lessons.teacherId, feed.teacherId),
              gte(lessons.date, addDays(today, -FEED_PAST_DAYS)),
              lte(lessons.date, addDays(today, FEED_FUTURE_DAYS)),
            ),
          )
          .orderBy(asc(lessons.date), asc(lessons.startTime), asc(lessons.id));
        return icalendar({ name: `${tenant.name} — ${teacher?.name ?? ''}`.trim(), slug: tenant.slug, timeZone: tenant.timeZone, lessons: rows });
      });
      if (body === null) throw new DomainError('not-found');
      return reply.header('cache-control', 'private, max-age=300').type('text/calendar; charset=utf-8').send(body);
    },
  );
}
