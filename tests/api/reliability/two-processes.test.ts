// Two Frontis processes on one PostgreSQL database, requests alternating between them as a
// load balancer would send them: sessions, refresh rotation, sign-out, the sign-in limit, the
// calendar cache and history must agree whichever process answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCalendar, type CalendarAnswer } from '../../../domain/calendar';
import { type Answer, call, type FrontisProcess, ROOT, scratchDatabase, signIn, startFrontis } from '../../../bench/frontis-process';

const PER_USER = 5;
const PASSWORD = 'staff-password-1';

type Row = Record<string, any>;

describe('two processes on one PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>>;
  let a: FrontisProcess;
  let b: FrontisProcess;
  let admin: string;

  const ok = (res: Answer, status = 200) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    return res.body as Row;
  };
  const staff = async (username: string) => {
    ok(
      await call(a.base, 'POST', '/api/users', {
        token: admin,
        body: { username, password: PASSWORD, role: 'SECRETARY', first_name: 'Άννα', last_name: 'Γεωργίου' },
      }),
      201,
    );
    return username;
  };

  beforeAll(async () => {
    db = await scratchDatabase();
    const env = { DATABASE_URL: db.url, LOGIN_RATE_PER_USER: String(PER_USER) };
    // One after the other: the first migrates and creates the centre, the second finds it done.
    a = await startFrontis(env);
    b = await startFrontis(env);
    admin = (await signIn(a.base, ROOT.username, ROOT.password)).token;
  }, 300_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.drop();
  });

  it('a session signed in on one process works on the other', async () => {
    const user = await staff('anna');
    const session = await signIn(a.base, user, PASSWORD);
    expect(ok(await call(b.base, 'GET', '/me', { token: session.token })).data.user.username).toBe(user);
  });

  it('refresh rotation and reuse detection agree across processes', async () => {
    const user = await staff('rotating');
    const s0 = await signIn(a.base, user, PASSWORD);
    const s1 = ok(await call(b.base, 'POST', '/refresh-token', { body: { refresh_token: s0.refresh_token } }));
    const s2 = ok(await call(a.base, 'POST', '/refresh-token', { body: { refresh_token: s1.refresh_token } }));
    ok(await call(b.base, 'GET', '/me', { token: s2.token }));
    // s1's token was used already: replaying it on either process ends the whole family.
    const reuse = await call(b.base, 'POST', '/refresh-token', { body: { refresh_token: s1.refresh_token } });
    expect(reuse.status).toBe(401);
    expect(reuse.body.error.code).toBe('session-revoked');
    expect((await call(a.base, 'GET', '/me', { token: s2.token })).status).toBe(401);
    expect((await call(a.base, 'POST', '/refresh-token', { body: { refresh_token: s2.refresh_token } })).status).toBe(401);
  });

  it('signing out on one process ends the session on the other', async () => {
    const user = await staff('leaving');
    const s = await signIn(b.base, user, PASSWORD);
    ok(await call(a.base, 'GET', '/me', { token: s.token }));
    expect((await call(a.base, 'POST', '/sign-out', { token: s.token, body: { refresh_token: s.refresh_token } })).status).toBe(204);
    expect((await call(b.base, 'GET', '/me', { token: s.token })).status).toBe(401);
    expect((await call(b.base, 'POST', '/refresh-token', { body: { refresh_token: s.refresh_token } })).status).toBe(401);
  });

  it('wrong passwords count against one limit across both processes', async () => {
    const user = await staff('guarded');
    const codes: number[] = [];
    for (let i = 0; i < PER_USER + 2; i++) {
      const base = i % 2 ? b.base : a.base;
      codes.push((await call(base, 'POST', '/login', { body: { username: user, password: 'wrong-password', tenant: 'demo' } })).status);
    }
    expect(codes.slice(0, PER_USER)).toEqual(Array(PER_USER).fill(401));
    expect(codes.slice(PER_USER)).toEqual([429, 429]);
  });

  it('the calendar on one process shows a change made through the other at once', async () => {
    const make = async (resource: string, body: Row) => ok(await call(a.base, 'POST', `/api/${resource}`, { token: admin, body }), 201).data as Row;
    const teacher = await make('teachers', {
      username: 'teacher1',
      password: PASSWORD,
      confirm_password: PASSWORD,
      first_name: 'Μαρία',
      last_name: 'Νικολάου',
    });
    const room = await make('rooms', { name: 'Αίθουσα 1', capacity: 10 });
    const klass = await make('classes', { name: 'Τμήμα Α' });
    const subject = await make('subjects', { name: 'Άλγεβρα' });
    const type = await make('lesson-types', { name: 'Κανονικό', color: '#336699', entity: 'NORMAL' });
    const week = '/api/lessons/calendar?from=2027-03-01&to=2027-03-07';
    const lessonsOn = async (base: string) => decodeCalendar(ok(await call(base, 'GET', week, { token: admin })) as CalendarAnswer) as Row[];

    expect(await lessonsOn(a.base)).toEqual([]);
    expect(await lessonsOn(a.base)).toEqual([]); // now from A's cache
    const lesson = ok(
      await call(b.base, 'POST', '/api/lessons', {
        token: admin,
        body: {
          date: '2027-03-02',
          start_time: '17:00',
          end_time: '18:00',
          teacher_id: teacher.id,
          room_id: room.id,
          class_id: klass.id,
          subject_id: subject.id,
          lesson_type_id: type.id,
        },
      }),
      201,
    ).data as Row;
    expect((await lessonsOn(a.base)).map((l) => [l.id, l.start_time])).toEqual([[lesson.id, '17:00']]);
    ok(await call(b.base, 'PATCH', `/api/lessons/${lesson.id}`, { token: admin, body: { start_time: '18:00', end_time: '19:00', version: lesson.version } }));
    expect((await lessonsOn(a.base)).map((l) => [l.id, l.start_time])).toEqual([[lesson.id, '18:00']]);
    expect(await lessonsOn(b.base)).toEqual(await lessonsOn(a.base));
  });

  it('history lists the writes of both processes, the same on each', async () => {
    const created = ok(await call(a.base, 'POST', '/api/rooms', { token: admin, body: { name: 'Αίθουσα Ιστορίας', capacity: 5 } }), 201).data as Row;
    const patched = ok(await call(b.base, 'PATCH', `/api/rooms/${created.id}`, { token: admin, body: { capacity: 6, version: created.version } })).data as Row;
    ok(await call(a.base, 'PATCH', `/api/rooms/${created.id}`, { token: admin, body: { capacity: 7, version: patched.version } }));
    const url = `/api/history?entity=rooms&entity_id=${created.id}`;
    const onA = ok(await call(a.base, 'GET', url, { token: admin })).data as Row[];
    const onB = ok(await call(b.base, 'GET', url, { token: admin })).data as Row[];
    expect(onA).toEqual(onB);
    expect(onA.map((h) => h.action).sort()).toEqual(['create', 'update', 'update']);
  });
});
