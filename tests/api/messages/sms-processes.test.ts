// Never twice, across processes and restarts (docs/rules.md, Messages to families): two server
// processes on one PostgreSQL database sweep the same SMS every second and each goes once; a
// process killed while its SMS request is out (the provider took it and never answered) leaves
// a message that may have been sent, which the next process marks FAILED rather than send again.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/harness';
import type { Row } from '../support/lessons-helpers';
import { call, endFrontis, type FrontisProcess, ROOT, scratchDatabase, signIn, sleep, startFrontis } from '../../../bench/frontis-process';
import { type SmsStandIn, startSmsStandIn } from './sms-stand-in';

/** The mobile of family `n`, as the families below write it: 69 and eight digits. */
const mobile = (n: number) => `69${String(n).padStart(8, '0')}`;

describe.runIf(DATABASE_KINDS.includes('postgres'))('SMS from server processes on one PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>> | undefined;
  let sms: SmsStandIn | undefined;
  let a: FrontisProcess | undefined;
  let b: FrontisProcess | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    sms = await startSmsStandIn();
    db = await scratchDatabase();
    // Both sweep every second: each due SMS is open to both at once.
    env = { DATABASE_URL: db.url, SMS_URL: sms.url, SMS_ACCOUNT: sms.account, SMS_TOKEN: sms.token, ABSENCE_GRACE_SECONDS: '1', OUTBOX_SWEEP_SECONDS: '1' };
    a = await startFrontis(env);
    b = await startFrontis(env);
  }, 240_000);
  afterAll(async () => {
    await endFrontis(a, b);
    await db?.drop();
    await sms?.close();
  }, 60_000);

  /** A class with `count` students, each with a guardian reached by SMS only (mobiles from `first`), and a lesson per date. */
  async function families(server: FrontisProcess, count: number, first: number, dates: string[]) {
    const token = (await signIn(server.base, ROOT.username, ROOT.password)).token;
    const make = async (path: string, body: Row) => {
      const res = await call(server.base, 'POST', path, { token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return (res.body as Row).data as Row;
    };
    const klass = await make('/api/classes', { name: `Τμήμα ${first}` });
    const subject = await make('/api/subjects', { name: `Χημεία ${first}`, color: '#225588' });
    const marks: Row[] = [];
    for (let i = 0; i < count; i++) {
      const student = await make('/api/students', { first_name: `Μαθητής${i}`, last_name: `Δοκιμής${first}`, class_ids: [klass.id] });
      await make('/api/guardians', { first_name: 'Γονέας', last_name: `Δοκιμής${i}`, phone: mobile(first + i), student_ids: [student.id] });
      marks.push({ student_id: student.id, status: 'ABSENT' });
    }
    const lessons: Row[] = [];
    for (const date of dates)
      lessons.push(await make('/api/lessons', { date, start_time: '17:00', end_time: '18:00', class_id: klass.id, subject_id: subject.id }));
    return { marks, lessons };
  }

  const mark = async (server: FrontisProcess, lessonId: number, marks: Row[]) => {
    const token = (await signIn(server.base, ROOT.username, ROOT.password)).token;
    const res = await call(server.base, 'PUT', `/api/lessons/${lessonId}/attendance`, { token, body: { marks } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it('every absence is texted exactly once', async () => {
    const COUNT = 10;
    const { marks, lessons } = await families(a!, COUNT, 10_000, ['2027-06-07', '2027-06-08']);
    for (const [i, server] of [a!, b!].entries()) await mark(server, lessons[i]!.id, marks);
    const deadline = Date.now() + 30_000;
    while (sms!.sent.length < 2 * COUNT && Date.now() < deadline) await sleep(250);
    // A few more sweeps of both processes, to catch a second sending.
    await sleep(3_000);
    expect(sms!.refused).toEqual([]);
    expect(sms!.sent).toHaveLength(2 * COUNT);
    expect(new Set(sms!.sent.map((m) => `${m.to}|${m.body}`)).size).toBe(2 * COUNT);
    expect(sms!.requests).toBe(2 * COUNT);
  }, 120_000);

  it('an SMS whose process died while the provider held its request is not sent again after the restart', async () => {
    // One process only, so the one it claims is the one that hangs.
    await endFrontis(b);
    b = undefined;
    const { marks, lessons } = await families(a!, 1, 20_000, ['2027-06-14']);
    const before = sms!.requests;
    sms!.holdNext();
    await mark(a!, lessons[0]!.id, marks);
    const deadline = Date.now() + 20_000;
    while (sms!.requests === before && Date.now() < deadline) await sleep(100);
    expect(sms!.requests).toBe(before + 1);
    await a!.kill9();

    a = await startFrontis(env);
    // The claim would lapse after its two minutes: the test lets them pass.
    const client = new pg.Client({ connectionString: db!.url });
    await client.connect();
    const { rowCount } = await client
      .query(`update outbox set deliver_after = now() where channel = 'SMS' and claimed_at is not null`)
      .finally(() => client.end());
    expect(rowCount).toBe(1);
    const token = (await signIn(a.base, ROOT.username, ROOT.password)).token;
    const row = async () => {
      const res = await call(a!.base, 'GET', '/api/messages?channel=SMS&_sort=queued_at&_order=desc&_end=1', { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return ((res.body as Row).data as Row[])[0]!;
    };
    const until = Date.now() + 20_000;
    while ((await row()).status === 'QUEUED' && Date.now() < until) await sleep(250);
    const failed = await row();
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toContain('May have been sent');
    expect(failed.recipient).toBe(`+30${mobile(20_000)}`);
    await sleep(2_000);
    expect(sms!.requests).toBe(before + 1);
    expect(sms!.sent.filter((m) => m.to === `+30${mobile(20_000)}`)).toHaveLength(0);

    // The restarted process sends what comes next.
    const next = await families(a, 1, 30_000, ['2027-06-15']);
    await mark(a, next.lessons[0]!.id, next.marks);
    const sent = Date.now() + 20_000;
    while (!sms!.sent.some((m) => m.to === `+30${mobile(30_000)}`) && Date.now() < sent) await sleep(250);
    expect(sms!.sent.filter((m) => m.to === `+30${mobile(30_000)}`)).toHaveLength(1);
  }, 180_000);
});
