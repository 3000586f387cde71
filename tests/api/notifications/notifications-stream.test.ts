// The notification stream (server-sent events): an open stream hears of a new notification
// and of one read elsewhere (another tab), without asking (across two server processes:
// notifications-processes.test.ts). And the scheduled job run at once through two pools of
// connections, as two processes would, still creates each notification once.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unpaidListLink } from '../../../domain/index';
import { runNotificationJob } from '../../../server/jobs/notifications';
import { expectStatus, json, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { dateCursor, lessonBody, makeLesson, makeWorld, type World } from '../support/lessons-helpers';
import { openStream } from '../support/notification-stream';
import { openDatabase } from '../../../server/db/open';

async function listen(app: FastifyInstance) {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return address;
}

describe.each(DATABASE_KINDS)('notification stream on %s', (kind) => {
  let t: TestApp;
  let w: World;
  let base: string;
  const nextDate = dateCursor('2027-05-03');

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeWorld(t, { tenant: `stream${kind === 'pglite' ? 'a' : 'b'}`, teachers: 1 });
    base = await listen(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('tells an open stream of a new notification at once, and of one read in another tab', async () => {
    const teacher = w.teachers[0]!;
    const stream = await openStream(base, w.tenant, teacher.token);
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const first = await stream.next();
    expect(first.event).toBe('unread');
    const before = first.data.unread;

    const lesson = await makeLesson(w.admin, lessonBody(w, nextDate()));
    const news = await stream.until(before + 1);
    expect(news.data.fresh).toBe(true);
    expect(news.data.latest).toMatchObject({ kind: 'lesson-created', link: `/?mode=view&lesson=${lesson.id}`, title: 'Νέο μάθημα', read: false });

    // Read in another tab: this one's count follows.
    const res = await teacher.call('POST', `/api/notifications/${news.data.latest!.id}/read`);
    expect(res.statusCode, show(res)).toBe(200);
    const read = await stream.until(before);
    expect(read.data.fresh).toBe(false);
    stream.close();
  });

  it('refuses a stream without a session, and a write rolled back tells nobody', async () => {
    const anonymous = await openStream(base, w.tenant);
    expect(anonymous.res.status).toBe(401);
    anonymous.close();

    const teacher = w.teachers[0]!;
    const stream = await openStream(base, w.tenant, teacher.token);
    const { unread } = (await stream.next()).data;
    // A lesson that clashes is refused: no notification, no event; the next real one comes through alone.
    const taken = await makeLesson(w.admin, lessonBody(w, nextDate()));
    await stream.until(unread + 1);
    const clash = await w.admin('POST', '/api/lessons', lessonBody(w, taken.date));
    expect(clash.statusCode, show(clash)).toBe(409);
    await makeLesson(w.admin, lessonBody(w, nextDate()));
    const e = await stream.next();
    expect(e.data.unread).toBe(unread + 2);
    expect(json(await teacher.call('GET', '/api/notifications')).unread).toBe(unread + 2);
    stream.close();
  });
});

describe.runIf(DATABASE_KINDS.includes('postgres'))('the scheduled job from two app instances on one PostgreSQL database', () => {
  let t: TestApp;
  let w: World;
  let otherDatabase: Awaited<ReturnType<typeof openDatabase>>;

  beforeAll(async () => {
    t = await startApp('postgres');
    w = await makeWorld(t, { tenant: 'streamtwo', teachers: 1 });
    // A second instance's own pool, as a second process has.
    otherDatabase = await openDatabase({ url: t.config.databaseUrl });
  });
  afterAll(async () => {
    await otherDatabase?.close();
    await t?.close();
  });

  it('the scheduled job run through both pools at once creates each notification once', async () => {
    const student = json(await w.admin('POST', '/api/students', { first_name: 'Πέτρος', last_name: 'Ιωάννου' })).data;
    expectStatus(
      await w.admin('POST', '/api/contracts', { student_id: student.id, start_date: '2027-01-01', end_date: '2027-03-31', register_cost: 0, month_cost: 9000 }),
      201,
    );
    await Promise.all([
      runNotificationJob(t.database, { today: '2027-04-15' }),
      runNotificationJob(otherDatabase, { today: '2027-04-15' }),
      runNotificationJob(t.database, { today: '2027-04-15' }),
      runNotificationJob(otherDatabase, { today: '2027-04-15' }),
    ]);
    for (const call of [w.admin, w.secretary]) {
      const rows = json(await call('GET', '/api/notifications?_end=200')).data.filter((r: any) => r.kind === 'months-unpaid');
      // January lies beyond the job's look-back of two months; February and March once each,
      // each naming the one contract that owes it.
      expect(rows.map((r: any) => [r.params.month, r.params.count, r.link]).sort()).toEqual([
        ['02/2027', 1, unpaidListLink('2027-02')],
        ['03/2027', 1, unpaidListLink('2027-03')],
      ]);
    }
  });
});
