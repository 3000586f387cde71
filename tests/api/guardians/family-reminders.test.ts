// docs/rules.md, Reminders, per family: a mother paying for two children on two contracts gets
// ONE reminder a day naming both children, every due month with what it still owes, and the
// total in cents; a withdrawn contract of hers is left out; not twice a day, also from two
// runs at once; the office sends her one now (once more the same day, never a third), and
// sees the payer, her phone and the family's total on the unpaid list. Then her statement:
// every child's contracts with what is due, paid and left in cents, as JSON and as a PDF.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatementAnswer } from '../../../domain/answers/statement';
import { queryRows } from '../../../server/db/statements';
import { runReminderJob } from '../../../server/jobs/reminders';
import { expectError, expectStatus, json } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { created, type Row } from '../support/money-helpers';
import { addSignIn, GUARDIAN_PASSWORD } from '../support/portal-helpers';

/** The pretended date: December 2026, after the default reminder day (the 10th). */
const TODAY = '2026-12-15';

/** Whether a PDF holds `text` as a string of its document information (pdfkit writes a non-ASCII one in UTF-16BE). */
const pdfHolds = (pdf: Buffer, text: string) => pdf.includes(Buffer.from(text, 'utf16le').swap16());

describe.each(DATABASE_KINDS)('one reminder per family on %s', (kind) => {
  let t: TestApp;
  let seq = 0;

  /**
   * A centre of its own: a mother paying for two children (120,00 € and 90,00 € a month less
   * 10 %, September paid for both), and a third contract of the son, withdrawn in November
   * with October and November unpaid.
   */
  async function family() {
    const slug = `fam${kind.slice(0, 2)}${seq++}${Date.now().toString(36)}`;
    const { admin } = await t.createTenant(slug);
    const secretary = await t.createUser(admin.token, { role: 'SECRETARY', tenant: slug });
    const send = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, token = admin.token, headers?: Record<string, string>) =>
      t.request({ method, url, body, token, tenant: slug, headers });
    const daughter = await created(await send('POST', '/api/students', { first_name: 'Νεφέλη', last_name: 'Αντωνίου' }));
    const son = await created(await send('POST', '/api/students', { first_name: 'Άρης', last_name: 'Αντωνίου' }));
    const mother = await created(
      await send('POST', '/api/guardians', {
        first_name: 'Σοφία',
        last_name: 'Αντωνίου',
        relation: 'MOTHER',
        phone: '6912345678',
        email: `sofia.${slug}@example.com`,
        student_ids: [daughter.id, son.id],
      }),
    );
    const contract = async (student: Row, over: Row) =>
      created(
        await send('POST', '/api/contracts', {
          student_id: student.id,
          payer_guardian_id: mother.id,
          start_date: '2026-09-01',
          end_date: '2027-06-30',
          register_cost: 0,
          ...over,
        }),
      );
    const hers = await contract(daughter, { month_cost: 12000 });
    const his = await contract(son, { month_cost: 10000, discount_percent: 10 });
    const left = await contract(son, { month_cost: 5000 });
    for (const [k, fee] of [
      [hers, 12000],
      [his, 9000],
      [left, 5000],
    ] as const)
      expectStatus(await send('POST', '/api/payments', { contract_id: k.id, kind: 'MONTHLY', month: '2026-09', amount: fee, paid_on: '2026-09-05' }), 201);
    expectStatus(await send('POST', `/api/contracts/${left.id}/withdraw`, { on: '2026-11-30', reason: 'Σταμάτησε' }), 200);
    const reminders = async (id = hers.id) => json(await send('GET', `/api/contracts/${id}/reminders`)).data as Row[];
    return { slug, admin, secretary, send, daughter, son, mother, hers, his, left, reminders };
  }

  beforeAll(async () => {
    t = await startApp(kind, { today: TODAY });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('one message names both children, every due month and amount, and the total in cents; the withdrawn contract is left out', async () => {
    const x = await family();
    await runReminderJob(t.database, { today: TODAY });
    const rows = await x.reminders();
    expect(rows).toHaveLength(1);
    // ADMIN's view of one contract: the family's message, with this contract's own months and amount
    expect(rows[0]).toMatchObject({ recipient: x.mother.email, guardian_id: x.mother.id, months: ['2026-10', '2026-11', '2026-12'], amount: 36000 });
    // the son's contract shows the same message
    const his = await x.reminders(x.his.id);
    expect(his.map((r) => r.id)).toEqual([rows[0]!.id]);
    expect(his[0]!.amount).toBe(27000);
    expect(await x.reminders(x.left.id)).toEqual([]);
    const body = rows[0]!.body as string;
    expect(body.startsWith('Αγαπητή κυρία Αντωνίου,\n')).toBe(true);
    expect(body).toContain('Νεφέλη Αντωνίου:\n– Οκτωβρίου 2026: 120,00 €\n– Νοεμβρίου 2026: 120,00 €\n– Δεκεμβρίου 2026: 120,00 €');
    expect(body).toContain('Άρης Αντωνίου:\n– Οκτωβρίου 2026: 90,00 €\n– Νοεμβρίου 2026: 90,00 €\n– Δεκεμβρίου 2026: 90,00 €');
    // 3 × 12000 + 3 × 9000 cents
    expect(body).toContain('Σύνολο: 630,00 €');
    // the withdrawn contract's 50,00 € months are not in it
    expect(body).not.toContain('50,00 €');
    expect(body.trimEnd().endsWith(`Με εκτίμηση,\nΚέντρο ${x.slug}`)).toBe(true);
  });

  it('not twice a day, also from two runs at once; again after reminder_repeat_days', async () => {
    const x = await family();
    await Promise.all([runReminderJob(t.database, { today: TODAY }), runReminderJob(t.database, { today: TODAY })]);
    await runReminderJob(t.database, { today: TODAY });
    expect(await x.reminders()).toHaveLength(1);
    await runReminderJob(t.database, { today: '2026-12-21' });
    expect(await x.reminders()).toHaveLength(1);
    await runReminderJob(t.database, { today: '2026-12-22' });
    expect(await x.reminders()).toHaveLength(2);
  });

  it('by her channel: an SMS to her mobile (both children and the total, at most two segments) when she asked for SMS, and both when she asked for both', async () => {
    const x = await family();
    const messages = async () => json(await x.send('GET', `/api/messages?kind=reminder&guardian_id=${x.mother.id}&_sort=channel&_order=asc`)).data as Row[];
    expectStatus(await x.send('PATCH', `/api/guardians/${x.mother.id}`, { notify_by: 'SMS', version: x.mother.version }), 200);
    await runReminderJob(t.database, { today: TODAY });
    await runReminderJob(t.database, { today: TODAY });
    const [sms, ...more] = await messages();
    expect(more).toEqual([]);
    expect(sms).toMatchObject({ channel: 'SMS', recipient: '+306912345678', status: 'QUEUED' });
    expect(sms!.body).toContain('Νεφέλη Αντωνίου');
    expect(sms!.body).toContain('Άρης Αντωνίου');
    // Greek is UCS-2: two segments are 134 characters
    expect((sms!.body as string).length).toBeLessThanOrEqual(134);
    const mother = json(await x.send('GET', `/api/guardians/${x.mother.id}`)).data as Row;
    expectStatus(await x.send('PATCH', `/api/guardians/${x.mother.id}`, { notify_by: 'BOTH', version: mother.version }), 200);
    await runReminderJob(t.database, { today: '2026-12-22' });
    const channels = (await messages()).map((m) => m.channel).sort();
    expect(channels).toEqual(['EMAIL', 'SMS', 'SMS']);
  });

  it('a contract with reminders off drops out of her reminder', async () => {
    const x = await family();
    expectStatus(await x.send('PATCH', `/api/contracts/${x.his.id}`, { reminders_enabled: false, version: x.his.version }), 200);
    await runReminderJob(t.database, { today: TODAY });
    const [row] = await x.reminders();
    expect(row!.body).not.toContain('Άρης');
    expect(row!.body).toContain('Σύνολο: 360,00 €');
  });

  it('the office sends her reminder now: once more on a day one went, a second click answers the same message; refused when nothing is due', async () => {
    const x = await family();
    await runReminderJob(t.database, { today: TODAY });
    const first = await x.send('POST', `/api/guardians/${x.mother.id}/reminder`, {}, x.secretary.token);
    expectStatus(first, 200);
    expect(json(first).data).toMatchObject({ created: true, total: 63000 });
    const again = await x.send('POST', `/api/guardians/${x.mother.id}/reminder`, {}, x.secretary.token);
    expect(json(again).data).toMatchObject({ id: json(first).data.id, created: false, total: 63000 });
    expect(await x.reminders()).toHaveLength(2);
    // the next scheduled run counts it: nothing until the repeat days have passed
    await runReminderJob(t.database, { today: '2026-12-16' });
    expect(await x.reminders()).toHaveLength(2);

    // a guardian who owes nothing, and one without an address: a clear 400 each
    const father = await created(
      await x.send('POST', '/api/guardians', {
        first_name: 'Πέτρος',
        last_name: 'Αντωνίου',
        relation: 'FATHER',
        email: 'p@example.com',
        student_ids: [x.son.id],
      }),
    );
    const nothing = expectError(await x.send('POST', `/api/guardians/${father.id}/reminder`, {}), 400, 'validation');
    expect(nothing.error.details).toMatchObject({ reason: 'reminder-nothing-due' });
    const silent = await created(
      await x.send('POST', '/api/guardians', { first_name: 'Άννα', last_name: 'Αντωνίου', relation: 'OTHER', student_ids: [x.son.id] }),
    );
    const unreachable = expectError(await x.send('POST', `/api/guardians/${silent.id}/reminder`, {}), 400, 'validation');
    expect(unreachable.error.details).toMatchObject({ reason: 'reminder-unreachable' });
    expectError(await x.send('POST', `/api/guardians/999999/reminder`, {}), 404, 'not-found');
  });

  it("the unpaid list shows the payer, her phone and the family's total", async () => {
    const x = await family();
    const res = await x.send('GET', '/api/contracts?unpaid_month=2026-11');
    expectStatus(res, 200);
    const rows = json(res).data as Row[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const k of [x.hers, x.his])
      expect(byId.get(k.id)).toMatchObject({ payer_name: 'Σοφία Αντωνίου', payer_phone: '6912345678', family_unpaid: 63000 + 2 * 5000 });
  });

  it("her statement: every child's contracts with what is due, paid and left in cents, and the totals; the PDF names her", async () => {
    const x = await family();
    const res = await x.send('GET', `/api/guardians/${x.mother.id}/statement`, undefined, x.secretary.token);
    expectStatus(res, 200);
    const s = StatementAnswer.parse(json(res)).data;
    expect(s.guardian).toMatchObject({ id: x.mother.id, last_name: 'Αντωνίου', phone: '6912345678' });
    expect(s.as_of).toBe(TODAY);
    expect(s.children.map((c) => c.first_name)).toEqual(['Άρης', 'Νεφέλη']);
    const [son, daughter] = s.children as [(typeof s.children)[number], (typeof s.children)[number]];
    // her contract: ten months of 120,00 €, September paid, October to December due
    expect(daughter.contracts).toHaveLength(1);
    expect(daughter.contracts[0]).toMatchObject({ id: x.hers.id, due: 120000, paid: 12000, left: 108000, overdue: 36000, status: 'ACTIVE' });
    // his: 90,00 € a month; and the withdrawn one owes September to November only
    expect(son.contracts.find((k) => k.id === x.his.id)).toMatchObject({ due: 90000, paid: 9000, left: 81000, overdue: 27000 });
    expect(son.contracts.find((k) => k.id === x.left.id)).toMatchObject({ due: 15000, paid: 5000, left: 10000, overdue: 10000, status: 'WITHDRAWN' });
    expect(son).toMatchObject({ due: 105000, paid: 14000, left: 91000, overdue: 37000 });
    expect(s.totals).toEqual({ due: 225000, paid: 26000, left: 199000, overdue: 73000 });

    const pdf = await x.send('GET', `/api/guardians/${x.mother.id}/statement.pdf`, undefined, x.secretary.token);
    expectStatus(pdf, 200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfHolds(pdf.rawPayload, 'Καρτέλα οικογένειας · Σοφία Αντωνίου')).toBe(true);
    expect(pdfHolds(pdf.rawPayload, 'Καρτέλα οικογένειας · Νεφέλη Αντωνίου')).toBe(false);

    // her own, in the portal: the same figures, read as her (another family's child is never in it)
    const tenantId = (await queryRows<{ id: number }>(t.database.db, sql`select id from tenants where slug = ${x.slug}`))[0]!.id;
    await addSignIn(t, tenantId, x.mother);
    const herToken = (await t.signIn(String(x.mother.email), GUARDIAN_PASSWORD, x.slug)).token;
    const hers = await x.send('GET', '/api/portal/statement', undefined, herToken);
    expectStatus(hers, 200);
    const mine = StatementAnswer.parse(json(hers)).data;
    expect(mine.totals).toEqual(s.totals);
    expect(mine.children.map((c) => c.id)).toEqual(s.children.map((c) => c.id));
    const herPdf = await x.send('GET', '/api/portal/statement.pdf', undefined, herToken);
    expect(herPdf.headers['content-type']).toContain('application/pdf');
    expect(pdfHolds(herPdf.rawPayload, 'Καρτέλα οικογένειας · Σοφία Αντωνίου')).toBe(true);
    // and not the office's route
    expectError(await x.send('GET', `/api/guardians/${x.mother.id}/statement`, undefined, herToken), 403, 'forbidden');

    // another centre's guardian is not found
    const other = await family();
    expectError(await other.send('GET', `/api/guardians/${x.mother.id}/statement`), 404, 'not-found');
    expectError(await other.send('GET', `/api/guardians/${x.mother.id}/statement.pdf`), 404, 'not-found');
  });
});
