/**
 * /api/notifications: the signed-in user's own notifications (another's answer 404, as if
 * they did not exist), read / unread, mark all read, and a server-sent event stream that
 * tells an open browser within moments when its count changes. A ROOT belongs to no centre's
 * staff and has none.
 */
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { decodeJwt } from 'jose';
import { z } from 'zod';
import { DomainError, type Language, type NotificationParams } from '../../../domain/index';
import { actorOf, tenantOf, type Actor } from '../../context';
import type { Database, Tx } from '../../db/types';
import { withTenant } from '../../db/doors';
import { notifications } from '../../db/schema/index';
import { accessTokenOf } from '../../plugins/auth';
import { pagedQuery, pageOf } from '../../engine/list-query';
import { IdParams, iso } from '../../engine/params';
import type { NotificationBus } from './bus';
import { wake } from './create';
import { startStreamHub, type StreamState } from './streams';
import { readerLanguage, renderNotification } from './text';

const Query = pagedQuery({ unread: z.enum(['true', 'false']).optional() });

const Row = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    kind: { type: 'string' },
    params: { type: 'object', additionalProperties: true },
    title: { type: 'string' },
    body: { type: 'string' },
    link: { type: 'string' },
    read: { type: 'boolean' },
    read_at: { type: ['string', 'null'] },
    created_at: { type: 'string' },
  },
} as const;

type Selected = typeof notifications.$inferSelect;
const present = (row: Selected, language: Language) => ({
  id: row.id,
  kind: row.kind,
  params: row.params,
  ...renderNotification(row.kind, row.params as NotificationParams, language),
  link: row.link,
  read: row.readAt !== null,
  read_at: iso(row.readAt),
  created_at: iso(row.createdAt)!,
});

const mine = (tenantId: number, actor: Actor) => and(eq(notifications.tenantId, tenantId), eq(notifications.userId, actor.id));

export async function unreadCount(tx: Tx, tenantId: number, userId: number): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.tenantId, tenantId), eq(notifications.userId, userId), isNull(notifications.readAt)));
  return Number(row?.n ?? 0);
}

/** A drained stream's reader waits this long before it reconnects, by then to another process. */
const RECONNECT_AFTER_DRAIN_MS = 1000;

/** How often an idle stream says it is alive, so proxies and browsers keep it open. */
const HEARTBEAT_MS = 25_000;

export const notificationRoutes: FastifyPluginAsyncZod<{ database: Database; bus: NotificationBus; streamsPerUser: number }> = async (
  app,
  { database, bus, streamsPerUser },
) => {
  const tag = { tags: ['notifications'] };
  const read = { area: 'notifications', action: 'read' } as const;
  const write = { area: 'notifications', action: 'update' } as const;
  // Open streams end before the server closes (preClose): closing waits for every busy connection.
  const open = new Set<() => void>();
  const hub = startStreamHub(database, bus, { maxPerUser: streamsPerUser, log: app.log });
  app.addHook('preClose', async () => {
    for (const finish of [...open]) finish();
    hub.close();
  });
  // A draining process tells each stream's reader to reconnect (another process answers) and ends it.
  const drains = new Set<() => void>();
  app.drain.onDrain(() => {
    for (const drain of [...drains]) drain();
  });

  app.get(
    '',
    {
      config: { access: read },
      schema: {
        ...tag,
        summary: 'My notifications, newest first; `unread=true` for the unread ones; `unread` in the answer counts them all',
        querystring: Query,
        response: {
          200: {
            type: 'object',
            properties: { data: { type: 'array', items: Row }, total: { type: 'integer' }, unread: { type: 'integer' } },
          },
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const tenant = tenantOf(request);
      const language = readerLanguage(request.headers['accept-language'], tenant.language);
      if (actor.kind === 'root') return reply.header('x-total-count', '0').send({ data: [], total: 0, unread: 0 });
      const { start, end } = pageOf(request.query);
      const onlyUnread = request.query.unread === 'true';
      const answer = await withTenant(database, tenant.id, async (tx) => {
        const where = onlyUnread ? and(mine(tenant.id, actor), isNull(notifications.readAt)) : mine(tenant.id, actor);
        const rows =
          end > start
            ? await tx
                .select()
                .from(notifications)
                .where(where)
                .orderBy(desc(notifications.id))
                .limit(end - start)
                .offset(start)
            : [];
        const unread = await unreadCount(tx, tenant.id, actor.id);
        const total = onlyUnread ? unread : Number((await tx.select({ n: count() }).from(notifications).where(where))[0]?.n ?? 0);
        return { data: rows.map((r) => present(r, language)), total, unread };
      });
      return reply.header('x-total-count', String(answer.total)).send(answer);
    },
  );

  app.post(
    '/:id/read',
    {
      config: { access: write },
      schema: { ...tag, summary: 'Mark one of my notifications read', params: IdParams, response: { 200: { type: 'object', properties: { data: Row } } } },
    },
    async (request) => {
      const actor = actorOf(request);
      const tenant = tenantOf(request);
      if (actor.kind === 'root') throw new DomainError('not-found');
      const language = readerLanguage(request.headers['accept-language'], tenant.language);
      const row = await withTenant(database, tenant.id, async (tx) => {
        // Marking read changes only the reader's own copy, so it is not a change the History shows.
        const [updated] = await tx
          .update(notifications)
          .set({ readAt: sql`coalesce(${notifications.readAt}, now())`, version: sql`${notifications.version} + 1`, updatedAt: sql`now()` })
          .where(and(mine(tenant.id, actor), eq(notifications.id, request.params.id)))
          .returning();
        if (!updated) throw new DomainError('not-found');
        await wake(tx, tenant.id, [actor.id]);
        return updated;
      });
      return { data: present(row, language) };
    },
  );

  app.post(
    '/read-all',
    {
      config: { access: write },
      schema: {
        ...tag,
        summary: 'Mark all my notifications read; answers how many were unread',
        response: { 200: { type: 'object', properties: { data: { type: 'object', properties: { marked: { type: 'integer' } } } } } },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const tenant = tenantOf(request);
      if (actor.kind === 'root') return { data: { marked: 0 } };
      const marked = await withTenant(database, tenant.id, async (tx) => {
        const rows = await tx
          .update(notifications)
          .set({ readAt: sql`now()`, version: sql`${notifications.version} + 1`, updatedAt: sql`now()` })
          .where(and(mine(tenant.id, actor), isNull(notifications.readAt)))
          .returning({ id: notifications.id });
        if (rows.length) await wake(tx, tenant.id, [actor.id]);
        return rows.length;
      });
      return { data: { marked } };
    },
  );

  app.get(
    '/stream',
    {
      config: { access: read },
      schema: {
        ...tag,
        summary:
          "Server-sent events: `unread` with `{unread, latest}` at once and whenever my notifications change. Ends when the access token expires or the session ends (sign-out, revocation, password change, role or status change), and the oldest of a user's streams ends beyond NOTIFICATION_STREAMS_PER_USER; reconnect with a fresh token.",
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const tenant = tenantOf(request);
      const language = readerLanguage(request.headers['accept-language'], tenant.language);
      const token = accessTokenOf(request);
      const exp = token ? Number(decodeJwt(token).exp ?? 0) : 0;

      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      let ended = false;
      let spoken = false;
      let lastId = 0;
      const speak = (state: StreamState) => {
        if (ended) return;
        const latest = state.latest ? present(state.latest, language) : null;
        // `fresh`: the latest one is new since this stream last spoke (a toast is due).
        const fresh = spoken && !!latest && latest.id > lastId && !latest.read;
        spoken = true;
        lastId = Math.max(lastId, latest?.id ?? 0);
        raw.write(`event: unread\ndata: ${JSON.stringify({ unread: state.unread, latest, fresh })}\n\n`);
      };
      const heartbeat = setInterval(() => raw.write(': alive\n\n'), HEARTBEAT_MS);
      let unregister = () => {};
      const finish = () => {
        if (ended) return;
        ended = true;
        open.delete(finish);
        drains.delete(drain);
        unregister();
        clearInterval(heartbeat);
        clearTimeout(expiry);
        raw.end();
      };
      // The session was checked when the stream opened; it lasts as long as the token that opened
      // it, and ends sooner when the session does (the hub hears of it from every process).
      const expiry = setTimeout(finish, Math.max(1000, exp * 1000 - Date.now()));
      const drain = () => {
        if (!ended) raw.write(`retry: ${RECONNECT_AFTER_DRAIN_MS}\nevent: reconnect\ndata: {"reason":"draining"}\n\n`);
        finish();
      };
      raw.on('close', finish);
      open.add(finish);
      drains.add(drain);
      if (app.drain.draining) return drain();
      raw.write('retry: 3000\n\n');
      const userId = actor.kind === 'root' ? null : actor.id;
      unregister = hub.add({ tenantId: tenant.id, userId, sessionId: actor.sessionId, deliver: speak, finish });
      // Gone before it was registered: take it back out at once.
      if (ended) return unregister();
      if (userId === null) return speak({ unread: 0, latest: null });
      // The first state is read for this stream alone; later ones come from the hub's shared reads.
      try {
        speak(await hub.stateOf(tenant.id, userId));
      } catch (error) {
        request.log.warn({ err: error }, 'notification stream could not read');
        finish();
      }
    },
  );
};
