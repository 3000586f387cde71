// Two Frontis server processes on one PostgreSQL database: a teacher's stream open on one of
// them hears of her lesson moved through the other (LISTEN/NOTIFY between processes), within
// two seconds, with the unread count right on both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/harness';
import { openStream } from '../support/notification-stream';
import { type Answer, call, type FrontisProcess, ROOT, scratchDatabase, signIn, startFrontis, within, endFrontis } from '../../../bench/frontis-process';

type Row = Record<string, any>;
const PASSWORD = 'teacher-password-1';

const ok = (res: Answer, status = 200): Row => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body as Row;
};

describe.runIf(DATABASE_KINDS.includes('postgres'))('notifications across two server processes on one PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>> | undefined;
  let a: FrontisProcess | undefined;
  let b: FrontisProcess | undefined;

  beforeAll(async () => {
    db = await scratchDatabase();
    // One after the other: the first migrates and creates the centre, the second finds it done.
    a = await startFrontis({ DATABASE_URL: db.url });
    b = await startFrontis({ DATABASE_URL: db.url });
  }, 240_000);

  afterAll(async () => {
    await endFrontis(a, b);
    await db?.drop();
  }, 60_000);

  it('a teacher’s stream on process B hears of her lesson moved through process A within two seconds', async () => {
    const office = (await signIn(a!.base, ROOT.username, ROOT.password)).token;
    const make = async (path: string, body: Row) => ok(await call(a!.base, 'POST', path, { token: office, body }), 201).data as Row;
    const teacher = await make('/api/teachers', {
      username: 'maria',
      password: PASSWORD,
      confirm_password: PASSWORD,
      first_name: 'Μαρία',
      last_name: 'Παπαδοπούλου',
    });
    const subject = await make('/api/subjects', { name: 'Φυσική', color: '#225588' });
    const room = await make('/api/rooms', { name: 'Αίθουσα 1', capacity: 12 });
    const lesson = await make('/api/lessons', {
      date: '2027-06-07',
      start_time: '17:00',
      end_time: '18:00',
      teacher_id: teacher.id,
      subject_id: subject.id,
      room_id: room.id,
    });

    const { token } = await signIn(b!.base, 'maria', PASSWORD);
    const stream = await openStream(b!.base, 'demo', token);
    try {
      expect(stream.res.status).toBe(200);
      // The lesson's creation is already there.
      expect((await stream.next()).data.unread).toBe(1);

      ok(
        await call(a!.base, 'PATCH', `/api/lessons/${lesson.id}`, { token: office, body: { start_time: '19:00', end_time: '20:00', version: lesson.version } }),
      );
      const heard = await within(2000, stream.until(2), 'no event on process B within two seconds');
      expect(heard.data.fresh).toBe(true);
      expect(heard.data.latest).toMatchObject({ kind: 'lesson-moved', link: `/?mode=view&lesson=${lesson.id}`, read: false });
      expect(heard.data.latest!.body).toContain('19:00–20:00');

      // Both processes count the same.
      for (const server of [a!, b!]) expect(ok(await call(server.base, 'GET', '/api/notifications', { token })).unread).toBe(2);
    } finally {
      stream.close();
    }
  });
});
