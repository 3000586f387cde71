// Messages to families by SMS beside e-mail (docs/rules.md, Messages to families), through a
// Twilio-compatible stand-in (sms-stand-in.ts) and a real SMTP server (mailbox.ts): each
// guardian's notify_by and its default, the unreachable marker, an absence by SMS and by both
// channels, an SMS cut to two segments with a link, the sender name, the provider's refusals,
// signed and forged delivery reports, and the log at /api/messages as the office reads it.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../server/db/statements';
import { withTenant } from '../../../server/db/doors';
import { createDeliverer, smsSettingsOf, type Deliverer } from '../../../server/modules/messages/deliver';
import { json, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { created, dateCursor, lessonBody, makeLesson, makeWorld, ok, type Row, type World } from '../support/lessons-helpers';
import { type Mailbox, startMailbox } from '../support/mailbox';
import { type SmsStandIn, segmentsOf, startSmsStandIn } from './sms-stand-in';

const GRACE_SECONDS = 120;

describe.each(DATABASE_KINDS)('messages by SMS and e-mail on %s', (kind) => {
  let box: Mailbox;
  let sms: SmsStandIn;
  let t: TestApp;
  let w: World;
  let deliverer: Deliverer;
  let tenantId: number;
  const tenant = `sms${kind === 'pglite' ? 'a' : 'b'}`;
  const nextDate = dateCursor('2027-03-01');

  const put = (lessonId: number, marks: Row[]) => w.admin('PUT' as 'PATCH', `/api/lessons/${lessonId}/attendance`, { marks });
  const pastGrace = () =>
    withTenant(t.database, tenantId, (tx) =>
      tx.execute(sql`update outbox set deliver_after = now() where tenant_id = ${tenantId} and attempts = 0 and sent_at is null and deliver_after > now()`),
    );
  /** Messages of the centre taken for sending whose outcome is not recorded yet. */
  const sending = async () =>
    (
      await withTenant(t.database, tenantId, (tx) =>
        queryRows<{ n: number }>(tx, sql`select count(*)::int as n from outbox where tenant_id = ${tenantId} and claimed_at is not null`),
      )
    )[0]!.n;
  const log = async (query: string, by: World['admin'] = w.admin) => {
    const res = await by('GET', `/api/messages?${query}`);
    expect(res.statusCode, show(res)).toBe(200);
    return json(res) as { data: Row[]; total: number };
  };

  /** A student of class 0 and one guardian of hers with these contacts. */
  async function family(first: string, last: string, guardian: Row) {
    const student = created(await w.admin('POST', '/api/students', { first_name: first, last_name: last, class_ids: [w.classes[0]!.id] }), 'student');
    const g = created(
      await w.admin('POST', '/api/guardians', {
        first_name: 'Μαρία',
        last_name: last,
        relation: 'MOTHER',
        student_ids: [student.id],
        notify: true,
        ...guardian,
      }),
      'guardian',
    );
    return { student, guardian: g };
  }

  async function absent(studentId: number, over: Row = {}) {
    const lesson = await makeLesson(w.admin, lessonBody(w, nextDate(), over));
    ok(await put(lesson.id, [{ student_id: studentId, status: 'ABSENT' }]), 'mark');
    await pastGrace();
    await deliverer.deliverDue(tenantId);
    // The app's own job, woken by the office's notification, may be the one sending: wait for it to say how it went.
    await expect.poll(sending, { timeout: 15_000 }).toBe(0);
    return lesson;
  }

  beforeAll(async () => {
    box = await startMailbox();
    sms = await startSmsStandIn();
    const smsConfig = { smsUrl: sms.url, smsAccount: sms.account, smsToken: sms.token };
    t = await startApp(kind, {
      smtpUrl: box.url,
      ...smsConfig,
      publicUrl: 'http://{tenant}.localhost',
      absenceGraceSeconds: GRACE_SECONDS,
      outboxSweepSeconds: 3600,
      outboxMaxAttempts: 3,
    });
    w = await makeWorld(t, { tenant, teachers: 1 });
    tenantId = (await queryRows<{ id: number }>(t.database.db, sql`select id from tenants where slug = ${tenant}`))[0]!.id;
    deliverer = createDeliverer(t.database, {
      smtpUrl: box.url,
      mailFrom: t.config.mailFrom,
      sms: smsSettingsOf(smsConfig),
      publicUrl: 'http://{tenant}.localhost',
      maxAttempts: 3,
    })!;
  });
  afterAll(async () => {
    deliverer?.close();
    await t?.close();
    await box?.close();
    await sms?.close();
  });

  it("a guardian's channel defaults to e-mail where an address is known, else SMS; one with no address for it is marked unreachable", async () => {
    const make = async (body: Row) => created(await w.admin('POST', '/api/guardians', { first_name: 'Ελένη', last_name: 'Ρήγα', ...body }), 'guardian');
    const withEmail = await make({ email: 'eleni.riga@example.gr', phone: '6971234567' });
    const withMobile = await make({ phone: '697 123 4567' });
    const withNothing = await make({});
    const landlineOnly = await make({ phone: '2101234567', notify_by: 'SMS' });
    const bothOneAddress = await make({ phone: '+30 694 111 2233', notify_by: 'BOTH' });
    expect([withEmail, withMobile, withNothing, landlineOnly, bothOneAddress].map((g) => [g.notify_by, g.unreachable])).toEqual([
      ['EMAIL', false],
      ['SMS', false],
      ['SMS', true],
      ['SMS', true],
      ['BOTH', false],
    ]);
    // Changing her e-mail away leaves her unreachable by it.
    const changed = ok(await w.admin('PATCH', `/api/guardians/${withEmail.id}`, { version: withEmail.version, email: null }));
    expect(changed.unreachable).toBe(true);
    const list = json(await w.admin('GET', '/api/guardians?unreachable=true&last_name=Ρήγα&_end=50'));
    expect((list.data as Row[]).map((g) => g.id).sort()).toEqual([withEmail.id, withNothing.id, landlineOnly.id].sort());
    // A channel that is no channel is a 400 naming the field.
    const bad = await w.admin('POST', '/api/guardians', { first_name: 'Α', last_name: 'Β', notify_by: 'FAX' });
    expect(bad.statusCode, show(bad)).toBe(400);
    expect(json(bad).error.fields).toHaveProperty('notify_by');
  });

  it('the sender name is a centre setting: at most 11 Latin letters, digits or spaces (400 otherwise)', async () => {
    const settings = ok(await w.admin('GET', '/api/settings'));
    for (const bad of ['Φροντιστήριο', 'ProodosAthens', 'Πρόοδος', '1234', 'A_B']) {
      const res = await w.admin('PATCH', '/api/settings', { version: settings.version, sms_sender: bad });
      expect(res.statusCode, `${bad}: ${show(res)}`).toBe(400);
      expect(json(res).error.fields).toHaveProperty('sms_sender');
    }
    const saved = ok(await w.admin('PATCH', '/api/settings', { version: settings.version, sms_sender: 'Proodos' }));
    expect(saved.sms_sender).toBe('Proodos');
  });

  it('an absence reaches a guardian with only a mobile by one SMS in Greek, from the centre, to her E.164 number, once', async () => {
    const { student, guardian } = await family('Άννα', 'Σταμάτη', { phone: '697-555-1234' });
    expect(guardian.notify_by).toBe('SMS');
    await absent(student.id);
    const mine = sms.sent.filter((m) => m.to === '+306975551234');
    expect(mine).toHaveLength(1);
    expect(mine[0]!.from).toBe('Proodos');
    expect(mine[0]!.body).toContain('Άννα Σταμάτη');
    expect(mine[0]!.body).toContain('απουσίασε');
    expect(segmentsOf(mine[0]!.body)).toBeLessThanOrEqual(2);
    expect(mine[0]!.statusCallback).toBe(`http://${tenant}.localhost/api/messages/sms-status/${tenant}`);
    // Nothing by e-mail: she has no address.
    expect(box.mails.filter((m) => m.subject.includes('Άννα Σταμάτη'))).toHaveLength(0);
    // Swept again: nothing more.
    await deliverer.deliverDue(tenantId);
    expect(sms.sent.filter((m) => m.to === '+306975551234')).toHaveLength(1);

    const { data, total } = await log(`guardian_id=${guardian.id}`);
    expect(total).toBe(1);
    expect(data[0]).toMatchObject({
      channel: 'SMS',
      kind: 'absence',
      status: 'SENT',
      recipient: '+306975551234',
      guardian: { id: guardian.id },
      error: null,
      note: null,
    });
    expect(data[0]!.sent_at).not.toBeNull();
    expect(sms.refused).toEqual([]);
  });

  it('a guardian who wants both gets one e-mail and one SMS, each a row of the log', async () => {
    const { student, guardian } = await family('Πέτρος', 'Λάμπρου', { email: `lamprou.${kind}@example.gr`, phone: '6944556677', notify_by: 'BOTH' });
    await absent(student.id);
    await expect.poll(() => box.mails.filter((m) => m.to.includes(`lamprou.${kind}@example.gr`)).length, { timeout: 15_000 }).toBe(1);
    expect(sms.sent.filter((m) => m.to === '+306944556677')).toHaveLength(1);
    const { data } = await log(`guardian_id=${guardian.id}&_sort=channel&_order=asc`);
    expect(data.map((m) => [m.channel, m.status, m.recipient])).toEqual([
      ['EMAIL', 'SENT', `lamprou.${kind}@example.gr`],
      ['SMS', 'SENT', '+306944556677'],
    ]);
    // Filters: by channel, status and kind, and the date range of their queueing.
    expect((await log(`guardian_id=${guardian.id}&channel=SMS`)).total).toBe(1);
    expect((await log(`guardian_id=${guardian.id}&status=DELIVERED`)).total).toBe(0);
    expect((await log(`guardian_id=${guardian.id}&kind=absence&kind=reminder`)).total).toBe(2);
    expect((await log(`guardian_id=${guardian.id}&queued_at_lte=2000-01-01`)).total).toBe(0);
  });

  it('a notice too long for two segments is cut to fit and carries the link to the portal', async () => {
    const long = created(
      await w.admin('POST', '/api/subjects', { name: `Μαθηματικά Προσανατολισμού και Θετικών Σπουδών ${'Α'.repeat(40)}`, color: '#225588' }),
    );
    const { student } = await family('Κωνσταντίνα-Ευαγγελία', 'Παπαχριστοδούλου', { phone: '6981112233' });
    await absent(student.id, { subject_id: long.id });
    const [message] = sms.sent.filter((m) => m.to === '+306981112233');
    expect(message, JSON.stringify(sms.refused)).toBeDefined();
    expect(segmentsOf(message!.body)).toBe(2);
    expect(message!.body).toContain('…');
    expect(message!.body.endsWith(`http://${tenant}.localhost/portal/attendance?child=${student.id}`)).toBe(true);
  });

  it('a provider refusal that is final fails the SMS at once; one worth another try is tried again later', async () => {
    const final = await family('Ιάσονας', 'Νικολάου', { phone: '6930000001' });
    sms.failNext(1, 400, 21614);
    await absent(final.student.id);
    let [row] = (await log(`guardian_id=${final.guardian.id}`)).data;
    expect(row).toMatchObject({ status: 'FAILED', attempts: 1 });
    expect(row!.error).toContain('400');
    expect(row!.failed_at).not.toBeNull();
    // ADMIN hears of it in the app.
    const inbox = json(await w.admin('GET', '/api/notifications'));
    expect((inbox.data as Row[]).some((n) => n.kind === 'outbox-failed' && JSON.stringify(n).includes('+306930000001'))).toBe(true);

    const later = await family('Δανάη', 'Μιχαήλ', { phone: '6930000002' });
    sms.failNext(1, 503);
    await absent(later.student.id);
    [row] = (await log(`guardian_id=${later.guardian.id}`)).data;
    expect(row, JSON.stringify(row)).toMatchObject({ status: 'QUEUED', attempts: 1 });
    expect(row!.error).toContain('503');
    await withTenant(t.database, tenantId, (tx) => tx.execute(sql`update outbox set deliver_after = now() where tenant_id = ${tenantId} and id = ${row!.id}`));
    await deliverer.deliverDue(tenantId);
    [row] = (await log(`guardian_id=${later.guardian.id}`)).data;
    expect(row).toMatchObject({ status: 'SENT', attempts: 2, error: null });
    expect(sms.sent.filter((m) => m.to === '+306930000002')).toHaveLength(1);
  });

  it('delivery reports: a signed one marks the SMS delivered or failed; unsigned or forged ones are refused and change nothing', async () => {
    const one = await family('Ορέστης', 'Γεωργίου', { phone: '6950000001' });
    const two = await family('Ζωή', 'Γεωργίου', { phone: '6950000002' });
    await absent(one.student.id);
    await absent(two.student.id);
    const sidOf = (to: string) => sms.sent.find((m) => m.to === to)!.sid;
    const post = (report: { url: string; body: string; signature?: string }) =>
      t.request({
        method: 'POST',
        url: new URL(report.url).pathname,
        tenant: null,
        clientType: null,
        headers: {
          host: new URL(report.url).host,
          'content-type': 'application/x-www-form-urlencoded',
          ...(report.signature ? { 'x-twilio-signature': report.signature } : {}),
        },
        body: report.body,
      });
    const statusOf = async (guardianId: number) => (await log(`guardian_id=${guardianId}`)).data[0]!;

    // Unsigned, signed with another key, or signed for other values: 403, nothing changes.
    const delivered = sms.report(sidOf('+306950000001'), 'delivered');
    const unsigned = await post({ url: delivered.url, body: delivered.body });
    expect(unsigned.statusCode, show(unsigned)).toBe(403);
    const forged = await post({ ...delivered, signature: Buffer.from('0'.repeat(20)).toString('base64') });
    expect(forged.statusCode, show(forged)).toBe(403);
    const tampered = await post({ ...sms.report(sidOf('+306950000001'), 'delivered'), body: delivered.body.replace('delivered', 'failed') });
    expect(tampered.statusCode, show(tampered)).toBe(403);
    expect((await statusOf(one.guardian.id)).status).toBe('SENT');

    const accepted = await post(delivered);
    expect(accepted.statusCode, show(accepted)).toBe(204);
    const after = await statusOf(one.guardian.id);
    expect(after.status).toBe('DELIVERED');
    expect(after.delivered_at).not.toBeNull();

    const undelivered = await post(sms.report(sidOf('+306950000002'), 'undelivered', { ErrorCode: '30003', ErrorMessage: 'Unreachable destination handset' }));
    expect(undelivered.statusCode, show(undelivered)).toBe(204);
    const failed = await statusOf(two.guardian.id);
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toContain('30003');
  });

  it('the log is the office’s: ADMIN and SECRETARY read it, paged and sorted; a TEACHER is refused', async () => {
    const page = await log('_start=0&_end=2&_sort=queued_at&_order=desc', w.secretary);
    expect(page.data).toHaveLength(2);
    expect(page.total).toBeGreaterThan(2);
    const res = await w.secretary('GET', '/api/messages?_start=0&_end=2');
    expect(res.headers['x-total-count']).toBe(String(page.total));
    const teacher = await w.teachers[0]!.call('GET', '/api/messages');
    expect(teacher.statusCode).toBe(403);
    const bad = await w.admin('GET', '/api/messages?status=LOST');
    expect(bad.statusCode, show(bad)).toBe(400);
    const badSort = await w.admin('GET', '/api/messages?_sort=body');
    expect(badSort.statusCode, show(badSort)).toBe(400);
  });
});

describe('messages without an SMS setting', () => {
  let t: TestApp;
  let w: World;
  const nextDate = dateCursor('2027-04-01');

  beforeAll(async () => {
    t = await startApp('pglite', { outboxSweepSeconds: 3600, absenceGraceSeconds: 0 });
    w = await makeWorld(t, { tenant: 'smsoff', teachers: 1 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('an SMS is kept in the log as what would be sent, QUEUED and marked not configured', async () => {
    const student = created(await w.admin('POST', '/api/students', { first_name: 'Λίνα', last_name: 'Καρρά', class_ids: [w.classes[0]!.id] }));
    const guardian = created(
      await w.admin('POST', '/api/guardians', { first_name: 'Ρένα', last_name: 'Καρρά', phone: '6970001122', student_ids: [student.id] }),
    );
    const lesson = await makeLesson(w.admin, lessonBody(w, nextDate()));
    ok(await w.admin('PUT' as 'PATCH', `/api/lessons/${lesson.id}/attendance`, { marks: [{ student_id: student.id, status: 'ABSENT' }] }));
    const { data } = json(await w.secretary('GET', `/api/messages?guardian_id=${guardian.id}`)) as { data: Row[] };
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ channel: 'SMS', status: 'QUEUED', note: 'not-configured', recipient: '+306970001122', sent_at: null });
    expect(data[0]!.body).toContain('Λίνα Καρρά');
  });
});
