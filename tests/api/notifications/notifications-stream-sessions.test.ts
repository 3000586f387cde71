// A notification stream lives no longer than its session: it ends at sign-out, when an office
// user's role changes or the account is deactivated; and a user holds only so many streams at
// once (the oldest closes), while the others keep hearing the news.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, json } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { dateCursor, lessonBody, makeLesson, makeWorld, TEACHER_PASSWORD, type World } from '../support/lessons-helpers';
import { openStream } from '../support/notification-stream';

const CAP = 2;

/** Resolves with 'ended' once the stream is over, reading (and dropping) what comes before. */
async function endOf(stream: Awaited<ReturnType<typeof openStream>>): Promise<'ended'> {
  for (;;) {
    try {
      await stream.next();
    } catch {
      return 'ended';
    }
  }
}

describe.each(DATABASE_KINDS)('notification streams and sessions on %s', (kind) => {
  let t: TestApp;
  let w: World;
  let base: string;
  const nextDate = dateCursor('2027-09-06');

  beforeAll(async () => {
    t = await startApp(kind, { streamsPerUser: CAP });
    w = await makeWorld(t, { tenant: `streamsess${kind === 'pglite' ? 'a' : 'b'}`, teachers: 1 });
    base = await (t.app as FastifyInstance).listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const teacherSession = async () => (await t.signIn(w.teachers[0]!.username, TEACHER_PASSWORD, w.tenant)).token;

  it('ends at sign-out, while the same user’s other session keeps hearing the news', async () => {
    const leaving = await teacherSession();
    const staying = await teacherSession();
    const gone = await openStream(base, w.tenant, leaving);
    const kept = await openStream(base, w.tenant, staying);
    expect(gone.res.status).toBe(200);
    const before = (await kept.next()).data.unread;
    await gone.next();

    const out = await t.request({ method: 'POST', url: '/sign-out', tenant: w.tenant, token: leaving, body: {} });
    expectStatus(out, 204);
    expect(await endOf(gone)).toBe('ended');

    await makeLesson(w.admin, lessonBody(w, nextDate()));
    const news = await kept.until(before + 1);
    expect(news.data.latest).toMatchObject({ kind: 'lesson-created' });
    kept.close();
  });

  it('a ROOT’s stream (it has no notifications of its own) ends at its sign-out too', async () => {
    const token = (await t.signIn(t.root.username, t.root.password, w.tenant)).token;
    const stream = await openStream(base, w.tenant, token);
    expect((await stream.next()).data).toMatchObject({ unread: 0, latest: null });
    expectStatus(await t.request({ method: 'POST', url: '/sign-out', tenant: w.tenant, token, body: {} }), 204);
    expect(await endOf(stream)).toBe('ended');
  });

  it('holds at most NOTIFICATION_STREAMS_PER_USER streams of a user: the oldest closes, the newest hear the news', async () => {
    const token = await teacherSession();
    const oldest = await openStream(base, w.tenant, token);
    await oldest.next();
    const others = [];
    for (let i = 0; i < CAP; i++) {
      const s = await openStream(base, w.tenant, token);
      others.push({ stream: s, unread: (await s.next()).data.unread });
    }
    expect(await endOf(oldest)).toBe('ended');
    await makeLesson(w.admin, lessonBody(w, nextDate()));
    for (const { stream, unread } of others) {
      expect((await stream.until(unread + 1)).data.fresh).toBe(true);
      stream.close();
    }
  });

  it('ends when the account’s role changes, and when it is deactivated', async () => {
    const secretaries = json(await w.admin('GET', '/api/users?role=SECRETARY')).data as { id: number; version: number }[];
    const secretary = secretaries[0]!;
    const first = await openStream(base, w.tenant, w.secretaryToken);
    await first.next();
    const promoted = await w.admin('PATCH', `/api/users/${secretary.id}`, { role: 'ADMIN', version: secretary.version });
    expectStatus(promoted, 200);
    expect(await endOf(first)).toBe('ended');

    // Still signed in (a role change is not a sign-out): a new stream opens, until deactivation.
    const second = await openStream(base, w.tenant, w.secretaryToken);
    expect(second.res.status).toBe(200);
    await second.next();
    const deactivated = await w.admin('PATCH', `/api/users/${secretary.id}`, { status: 'INACTIVE', version: json(promoted).data.version });
    expectStatus(deactivated, 200);
    expect(await endOf(second)).toBe('ended');
    const refused = await openStream(base, w.tenant, w.secretaryToken);
    expect(refused.res.status).toBe(401);
    refused.close();
  });
});
