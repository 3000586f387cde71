// The parts of a scaled-out deployment, checked fast (docs/deploy.md; the failover itself is
// `npm run cluster:failover`): a Frontis process whose DATABASE_URL goes through PgBouncer in
// transaction mode (a server connection per transaction, never per session), with
// DATABASE_DIRECT_URL for what needs a session of its own (LISTEN, the migration lock).
// Sign-in and session refresh, writes read back, and a notification stream hearing of a change.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PgBouncer, startPgBouncer } from '../../../scripts/cluster/pgbouncer';
import { DATABASE_KINDS } from '../support/harness';
import { openStream } from '../support/notification-stream';
import { type Answer, call, type FrontisProcess, ROOT, scratchDatabase, signIn, sleep, startFrontis, within } from '../../../bench/frontis-process';
import { freePort } from '../../../bench/free-port';

type Row = Record<string, any>;
const PASSWORD = 'teacher-password-1';

const ok = (res: Answer, status = 200): Row => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body as Row;
};

describe.runIf(DATABASE_KINDS.includes('postgres'))('Frontis through PgBouncer in transaction mode', () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>> | undefined;
  let bouncer: PgBouncer | undefined;
  let dir: string | undefined;
  let app: FrontisProcess | undefined;

  beforeAll(async () => {
    db = await scratchDatabase();
    dir = await mkdtemp(join(tmpdir(), 'frontis-pgbouncer-'));
    const direct = new URL(db.url);
    bouncer = await startPgBouncer({
      dir,
      port: await freePort(),
      databases: { [db.name]: `host=${direct.hostname} port=${direct.port || 5432} dbname=${db.name} user=postgres application_name=via_pgbouncer` },
      poolSize: 4,
    });
    const pooled = new URL(db.url);
    pooled.port = String(bouncer.port);
    app = await startFrontis({ DATABASE_URL: pooled.toString(), DATABASE_DIRECT_URL: db.url });
  }, 120_000);

  afterAll(async () => {
    if (app) {
      await Promise.race([app.stop(), sleep(10_000)]);
      await app.kill9();
    }
    await bouncer?.stop();
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('the app’s pooled connections really go through PgBouncer', async () => {
    const seen = await db!.admin(`select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = 'via_pgbouncer'`, [db!.name]);
    expect(seen.rows[0].n).toBeGreaterThan(0);
  });

  it('sign-in, session refresh, writes read back, and a stream hearing of a change', async () => {
    const base = app!.base;
    const office = await signIn(base, ROOT.username, ROOT.password);
    // The session: refresh gives a working new token.
    const refreshed = ok(await call(base, 'POST', '/refresh-token', { body: { refresh_token: office.refresh_token } }));
    const token = refreshed.token as string;
    expect(ok(await call(base, 'GET', '/me', { token })).data.user).toMatchObject({ username: ROOT.username });

    const make = async (path: string, body: Row) => ok(await call(base, 'POST', path, { token, body }), 201).data as Row;
    const teacher = await make('/api/teachers', {
      username: 'maria',
      password: PASSWORD,
      confirm_password: PASSWORD,
      first_name: 'Μαρία',
      last_name: 'Παπαδοπούλου',
    });
    const subject = await make('/api/subjects', { name: 'Φυσική', color: '#225588' });
    const room = await make('/api/rooms', { name: 'Αίθουσα 1', capacity: 12 });
    // Writes in parallel: each takes its own transaction and the tenant settings stay in it.
    const lessons = await Promise.all(
      ['09:00', '10:00', '11:00', '12:00', '13:00', '14:00'].map((start, i) =>
        make('/api/lessons', {
          date: '2027-06-07',
          start_time: start,
          end_time: `${String(10 + i).padStart(2, '0')}:00`,
          teacher_id: teacher.id,
          subject_id: subject.id,
          room_id: room.id,
        }),
      ),
    );
    const week = ok(await call(base, 'GET', '/api/lessons?date_gte=2027-06-07&date_lte=2027-06-07&_start=0&_end=50', { token }));
    const listed = new Set((week.data as Row[]).map((l) => l.id));
    for (const lesson of lessons) expect(listed.has(lesson.id)).toBe(true);

    const maria = await signIn(base, 'maria', PASSWORD);
    const stream = await openStream(base, 'demo', maria.token);
    try {
      expect(stream.res.status).toBe(200);
      const first = await stream.next();
      expect(first.data.unread).toBe(lessons.length);
      const moved = lessons[0]!;
      ok(await call(base, 'PATCH', `/api/lessons/${moved.id}`, { token, body: { start_time: '19:00', end_time: '20:00', version: moved.version } }));
      const heard = await within(5000, stream.until(lessons.length + 1), 'the stream heard nothing within five seconds');
      expect(heard.data.latest).toMatchObject({ kind: 'lesson-moved', link: `/?mode=view&lesson=${moved.id}`, read: false });
    } finally {
      stream.close();
    }
  });
});
