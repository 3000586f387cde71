// Absence notices to families, delivered through a real SMTP server (mailbox.ts): an ABSENT
// mark writes one e-mail per guardian who wants notices and has an address, sent in Greek after
// the grace period and only once per lesson and student; a mark undone within the grace period
// sends nothing; a failed send is retried later and, after the last attempt, shown to ADMIN;
// two server processes on one PostgreSQL database never send one notice twice.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliverer, type Deliverer } from '../../../server/modules/messages/deliver';
import { json, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { created, dateCursor, lessonBody, makeLesson, makeWorld, ok, type Row, type World } from '../support/lessons-helpers';
import { type Mailbox, startMailbox } from '../support/mailbox';
import { call, type FrontisProcess, ROOT, scratchDatabase, signIn, sleep, startFrontis, endFrontis } from '../../../bench/frontis-process';
import { withTenant } from '../../../server/db/doors';
import { queryRows } from '../../../server/db/statements';

// Long enough that no test step outlasts it on a busy machine; the tests let it pass (pastGrace).
const GRACE_SECONDS = 120;

describe.each(DATABASE_KINDS)('absence notices on %s', (kind) => {
  let box: Mailbox;
  let t: TestApp;
  let w: World;
  let deliverer: Deliverer;
  let tenantId: number;
  const tenant = `abs${kind === 'pglite' ? 'a' : 'b'}`;
  const nextDate = dateCursor('2027-05-03');

  const put = (by: World['admin'], lessonId: number, marks: Row[]) => by('PUT' as 'PATCH', `/api/lessons/${lessonId}/attendance`, { marks });
  /** The grace period of every notice waiting for it ends now (as if the minutes had passed). */
  const pastGrace = () =>
    withTenant(t.database, tenantId, (tx) =>
      tx.execute(sql`update outbox set deliver_after = now() where tenant_id = ${tenantId} and attempts = 0 and sent_at is null and deliver_after > now()`),
    );
  const outboxRows = (studentId: number) =>
    withTenant(t.database, tenantId, (tx) =>
      queryRows<Row>(tx, sql`select * from outbox where tenant_id = ${tenantId} and params->>'student_id' = ${String(studentId)} order by id`),
    );

  /** A student of class 0 with a mother who wants notices, a father who does not, and a guardian without an address. */
  async function family(first: string, last: string, email: string) {
    const student = created(await w.admin('POST', '/api/students', { first_name: first, last_name: last, class_ids: [w.classes[0]!.id] }), 'student');
    const guardian = async (body: Row) => created(await w.admin('POST', '/api/guardians', { last_name: last, student_ids: [student.id], ...body }), 'guardian');
    await guardian({ first_name: 'Μαρία', relation: 'MOTHER', email, notify: true });
    await guardian({ first_name: 'Νίκος', relation: 'FATHER', email: `father.${email}`, notify: false });
    await guardian({ first_name: 'Ελένη', relation: 'GUARDIAN', notify: true });
    return student;
  }

  beforeAll(async () => {
    box = await startMailbox();
    // The job's own timer is far off: the tests deliver when they choose.
    t = await startApp(kind, { smtpUrl: box.url, absenceGraceSeconds: GRACE_SECONDS, outboxSweepSeconds: 3600, outboxMaxAttempts: 2 });
    w = await makeWorld(t, { tenant, teachers: 1 });
    tenantId = (await queryRows<{ id: number }>(t.database.db, sql`select id from tenants where slug = ${tenant}`))[0]!.id;
    deliverer = createDeliverer(t.database, { smtpUrl: box.url, mailFrom: t.config.mailFrom, maxAttempts: 2 })!;
  });
  afterAll(async () => {
    deliverer?.close();
    await t?.close();
    await box?.close();
  });

  it('an absence sends the guardian who wants notices one e-mail in Greek, after the grace period, once', async () => {
    const student = await family('Άννα', 'Βλάχου', `mother.vlachou.${kind}@example.gr`);
    const date = nextDate();
    const lesson = await makeLesson(w.admin, lessonBody(w, date, { start_time: '17:00', end_time: '18:30' }));
    ok(await put(w.teachers[0]!.call, lesson.id, [{ student_id: student.id, status: 'ABSENT' }]), 'mark');

    // Within the grace period nothing goes; it is due the grace period after the mark.
    expect((await deliverer.deliverDue(tenantId)).sent).toBe(0);
    const [waiting] = await outboxRows(student.id);
    const wait = (new Date(waiting!.deliver_after).getTime() - new Date(waiting!.created_at).getTime()) / 1000;
    expect(wait).toBeGreaterThanOrEqual(GRACE_SECONDS - 1);
    expect(wait).toBeLessThanOrEqual(GRACE_SECONDS + 1);
    await pastGrace();
    // This deliverer or the app's own outbox job (woken by the staff notification) sends it.
    await deliverer.deliverDue(tenantId);
    const toMother = () => box.mails.filter((m) => m.to.includes(`mother.vlachou.${kind}@example.gr`));
    await expect.poll(() => toMother().length, { timeout: 15_000 }).toBe(1);
    const mine = toMother();
    const [y, m, d] = date.split('-');
    expect(mine[0]!.text).toContain(`Ο/Η Άννα Βλάχου απουσίαζε από το μάθημα ${w.subjects[0]!.name} · ${w.classes[0]!.name} στις ${d}/${m}/${y}, 17:00–18:30.`);
    // greeted by her surname (her relation says she is the mother), signed with the centre's name; an HTML part says the same
    expect(mine[0]!.text.startsWith('Αγαπητή κυρία Βλάχου,\n')).toBe(true);
    expect(mine[0]!.html).toContain('<p>Αγαπητή κυρία Βλάχου,</p>');
    expect(mine[0]!.html).toContain('Άννα Βλάχου απουσίαζε');
    expect(mine[0]!.subject).toContain('Απουσία: Άννα Βλάχου');
    // Nobody else of the family: the father turned notices off, the guardian has no address.
    expect(box.mails.filter((m) => m.to.some((to) => to.startsWith('father.') && to.includes('vlachou')))).toHaveLength(0);

    // Undone and marked again: the notice was sent already, so nothing more, ever, for this lesson and student.
    ok(await put(w.admin, lesson.id, [{ student_id: student.id, status: 'PRESENT' }]));
    ok(await put(w.admin, lesson.id, [{ student_id: student.id, status: 'ABSENT' }]));
    await pastGrace();
    await deliverer.deliverDue(tenantId);
    expect(box.mails.filter((m) => m.to.includes(`mother.vlachou.${kind}@example.gr`))).toHaveLength(1);
    const rows = await outboxRows(student.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sent_at).not.toBeNull();

    // The office hears of it in the app.
    const inbox = json(await w.admin('GET', '/api/notifications'));
    const note = (inbox.data as Row[]).find(
      (n) => n.kind === 'student-absent' && String(n.body ?? n.title).length && JSON.stringify(n).includes('Άννα Βλάχου'),
    );
    expect(note, JSON.stringify(inbox.data.slice(0, 3))).toBeTruthy();
  });

  it('an absence undone within the grace period sends nothing; marked absent again, it sends once', async () => {
    const student = await family('Βασίλης', 'Αθανασίου', `mother.athanasiou.${kind}@example.gr`);
    const lesson = await makeLesson(w.admin, lessonBody(w, nextDate()));
    const to = `mother.athanasiou.${kind}@example.gr`;
    ok(await put(w.teachers[0]!.call, lesson.id, [{ student_id: student.id, status: 'ABSENT' }]));
    ok(await put(w.teachers[0]!.call, lesson.id, [{ student_id: student.id, status: 'LATE', note: 'Ήρθε αργά' }]));
    await pastGrace();
    await deliverer.deliverDue(tenantId);
    expect(box.mails.filter((m) => m.to.includes(to))).toHaveLength(0);
    expect((await outboxRows(student.id))[0]!.cancelled_at).not.toBeNull();

    // Absent after all: the same notice is armed again and goes once.
    ok(await put(w.teachers[0]!.call, lesson.id, [{ student_id: student.id, status: 'ABSENT' }]));
    await pastGrace();
    await deliverer.deliverDue(tenantId);
    await deliverer.deliverDue(tenantId);
    expect(box.mails.filter((m) => m.to.includes(to))).toHaveLength(1);
  });

  it('an absence whose lesson is deleted or cancelled within the grace period sends nothing', async () => {
    const student = await family('Ορέστης', 'Καλλέργη', `mother.kallergi.${kind}@example.gr`);
    const to = `mother.kallergi.${kind}@example.gr`;
    const deleted = await makeLesson(w.admin, lessonBody(w, nextDate()));
    const cancelled = await makeLesson(w.admin, lessonBody(w, nextDate()));
    for (const lesson of [deleted, cancelled]) ok(await put(w.teachers[0]!.call, lesson.id, [{ student_id: student.id, status: 'ABSENT' }]));
    expect((await outboxRows(student.id)).filter((r) => r.cancelled_at === null)).toHaveLength(2);

    const gone = await w.admin('DELETE', `/api/lessons/${deleted.id}`);
    expect(gone.statusCode, show(gone)).toBeLessThan(300);
    const fresh = ok(await w.admin('GET', `/api/lessons/${cancelled.id}`));
    ok(await w.admin('PATCH', `/api/lessons/${cancelled.id}`, { status: 'CANCELED', version: fresh.version }));
    await pastGrace();
    await deliverer.deliverDue(tenantId);
    await deliverer.deliverDue(tenantId);
    expect(box.mails.filter((m) => m.to.includes(to))).toHaveLength(0);
    const rows = await outboxRows(student.id);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.sent_at).toBeNull();
      expect(row.cancelled_at).not.toBeNull();
    }
  });

  it('a refused message is retried later, and after the last attempt ADMIN is told in the app', async () => {
    const to = `mother.refused.${kind}@example.gr`;
    box.refuse.add(to);
    const student = await family('Γιώργος', 'Γεωργίου', to);
    const lesson = await makeLesson(w.admin, lessonBody(w, nextDate()));
    ok(await put(w.secretary, lesson.id, [{ student_id: student.id, status: 'ABSENT' }]));
    await pastGrace();
    // The app's own outbox job may be the one that tries it (woken by the staff notification):
    // whoever does, it is tried once and its failure recorded.
    await deliverer.deliverDue(tenantId);
    await expect.poll(async () => (await outboxRows(student.id))[0]?.last_error ?? null, { timeout: 15_000 }).not.toBeNull();
    let [row] = await outboxRows(student.id);
    expect(row).toMatchObject({ attempts: 1, sent_at: null });
    expect(String(row!.last_error)).toContain('Mailbox unavailable');
    // Not again at once: it waits its back-off.
    expect(new Date(row!.deliver_after).getTime()).toBeGreaterThan(Date.now() + 10_000);
    expect((await deliverer.deliverDue(tenantId)).failed).toBe(0);
    // The back-off over, the second and last attempt fails too.
    await withTenant(t.database, tenantId, (tx) => tx.execute(sql`update outbox set deliver_after = now() where tenant_id = ${tenantId} and id = ${row!.id}`));
    await deliverer.deliverDue(tenantId);
    await expect.poll(async () => (await outboxRows(student.id))[0]?.attempts, { timeout: 15_000 }).toBe(2);
    [row] = await outboxRows(student.id);
    expect(row).toMatchObject({ attempts: 2, sent_at: null });
    await withTenant(t.database, tenantId, (tx) => tx.execute(sql`update outbox set deliver_after = now() where tenant_id = ${tenantId} and id = ${row!.id}`));
    expect((await deliverer.deliverDue(tenantId)).failed).toBe(0);
    const inbox = json(await w.admin('GET', '/api/notifications'));
    expect(
      (inbox.data as Row[]).some((n) => n.kind === 'outbox-failed' && JSON.stringify(n).includes(to)),
      show(await w.admin('GET', '/api/notifications')),
    ).toBe(true);
    expect(box.mails.filter((m) => m.to.includes(to))).toHaveLength(0);
  });
});

describe.runIf(DATABASE_KINDS.includes('postgres'))('absence notices from two server processes on one PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>> | undefined;
  let box: Mailbox | undefined;
  let a: FrontisProcess | undefined;
  let b: FrontisProcess | undefined;

  beforeAll(async () => {
    box = await startMailbox();
    db = await scratchDatabase();
    // Both sweep the outbox every second: each due notice is open to both at once.
    const env = { DATABASE_URL: db.url, SMTP_URL: box.url, ABSENCE_GRACE_SECONDS: '1', OUTBOX_SWEEP_SECONDS: '1' };
    a = await startFrontis(env);
    b = await startFrontis(env);
  }, 240_000);
  afterAll(async () => {
    await endFrontis(a, b);
    await db?.drop();
    await box?.close();
  }, 60_000);

  it('every absence is e-mailed exactly once', async () => {
    const office = (await signIn(a!.base, ROOT.username, ROOT.password)).token;
    const make = async (path: string, body: Row) => {
      const res = await call(a!.base, 'POST', path, { token: office, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return (res.body as Row).data as Row;
    };
    const klass = await make('/api/classes', { name: 'Β΄ Λυκείου' });
    const subject = await make('/api/subjects', { name: 'Φυσική', color: '#225588' });
    const COUNT = 12;
    const marks: Row[] = [];
    for (let i = 0; i < COUNT; i++) {
      const student = await make('/api/students', { first_name: `Μαθητής${i}`, last_name: 'Δοκιμής', class_ids: [klass.id] });
      await make('/api/guardians', { first_name: 'Γονέας', last_name: `Δοκιμής${i}`, email: `parent${i}@example.gr`, notify: true, student_ids: [student.id] });
      marks.push({ student_id: student.id, status: 'ABSENT' });
    }
    const lessons: Row[] = [];
    for (const date of ['2027-06-07', '2027-06-08'])
      lessons.push(await make('/api/lessons', { date, start_time: '17:00', end_time: '18:00', class_id: klass.id, subject_id: subject.id }));
    // One lesson marked through each process.
    for (const [i, server] of [a!, b!].entries()) {
      const token = (await signIn(server.base, ROOT.username, ROOT.password)).token;
      const res = await call(server.base, 'PUT', `/api/lessons/${lessons[i]!.id}/attendance`, { token, body: { marks } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const deadline = Date.now() + 30_000;
    while (box!.mails.length < 2 * COUNT && Date.now() < deadline) await sleep(250);
    // A few more sweeps of both processes, to catch a second sending.
    await sleep(3_000);
    expect(box!.mails).toHaveLength(2 * COUNT);
    const keys = box!.mails.map((m) => `${m.to.join(',')}|${m.subject}`);
    expect(new Set(keys).size).toBe(2 * COUNT);
  }, 90_000);
});
