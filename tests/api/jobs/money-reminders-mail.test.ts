// docs/rules.md, Reminders, delivered: the reminders job writes the e-mail into the outbox and
// the outbox deliverer sends it to a real SMTP server (mailbox.ts). The payer guardian gets one
// Greek e-mail naming the due months in the genitive and the amount; a withdrawn contract's
// payer gets none; the job run again the same day sends nothing more.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReminderJob } from '../../../server/jobs/reminders';
import { createDeliverer, type Deliverer } from '../../../server/modules/messages/deliver';
import { expectStatus } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { type Mailbox, startMailbox } from '../support/mailbox';
import { created } from '../support/money-helpers';
import { queryRows } from '../../../server/db/statements';

/** The pretended date: December 2026, after the default reminder day (the 10th). */
const TODAY = '2026-12-15';

describe.each(DATABASE_KINDS)('reminder e-mails through SMTP on %s', (kind) => {
  let box: Mailbox;
  let t: TestApp;
  let deliverer: Deliverer;
  let seq = 0;

  /** A centre of its own with a student, her mother (notices on, an address) paying a contract paid for September only. */
  async function centre(email: string) {
    const slug = `remm${kind.slice(0, 2)}${seq++}${Date.now().toString(36)}`;
    const { admin } = await t.createTenant(slug);
    const send = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => t.request({ method, url, body, token: admin.token, tenant: slug });
    const student = await created(await send('POST', '/api/students', { first_name: 'Ιάσονας', last_name: 'Παπαδόγιαννης' }));
    const guardian = await created(
      await send('POST', '/api/guardians', { first_name: 'Ελένη', last_name: 'Παπαδογιάννη', relation: 'MOTHER', email, student_ids: [student.id] }),
    );
    const contract = await created(
      await send('POST', '/api/contracts', {
        student_id: student.id,
        payer_guardian_id: guardian.id,
        start_date: '2026-09-01',
        end_date: '2027-06-30',
        register_cost: 0,
        month_cost: 9500,
      }),
    );
    expectStatus(
      await send('POST', '/api/payments', { contract_id: contract.id, kind: 'MONTHLY', month: '2026-09', amount: 9500, paid_on: '2026-09-05' }),
      201,
    );
    const [{ id: tenantId }] = await queryRows<{ id: number }>(t.database.db, sql`select id from tenants where slug = ${slug}`);
    return { send, contract, tenantId: tenantId as number };
  }
  const to = (address: string) => box.mails.filter((m) => m.to.includes(address));

  beforeAll(async () => {
    box = await startMailbox();
    // The outbox job's own timer is far off: the test delivers when it chooses.
    t = await startApp(kind, { today: TODAY, smtpUrl: box.url, outboxSweepSeconds: 3600 });
    deliverer = createDeliverer(t.database, { smtpUrl: box.url, mailFrom: t.config.mailFrom, maxAttempts: 3 })!;
  });
  afterAll(async () => {
    deliverer?.close();
    await t?.close();
    await box?.close();
  });

  it('the payer guardian receives one Greek e-mail with the due months in the genitive and the amount, once a day', async () => {
    const address = `eleni.${kind}.${Date.now()}@example.gr`;
    const x = await centre(address);
    await runReminderJob(t.database, { today: TODAY });
    // This deliverer or the app's own outbox job, if something wakes it, sends it.
    await deliverer.deliverDue(x.tenantId);
    await expect.poll(() => to(address).length, { timeout: 15_000 }).toBe(1);
    const mails = to(address);
    expect(mails[0]!.subject).toContain('Υπενθύμιση');
    expect(mails[0]!.text).toContain('– Οκτωβρίου 2026: 95,00 €\n– Νοεμβρίου 2026: 95,00 €\n– Δεκεμβρίου 2026: 95,00 €');
    expect(mails[0]!.text).toContain('285,00 €');
    expect(mails[0]!.text).toContain('Ιάσονας Παπαδόγιαννης');
    expect(mails[0]!.text).not.toContain('Σεπτεμβρίου');
    expect(mails[0]!.text).not.toContain('Ιανουαρίου');

    // The same day again, twice: nothing more reaches the mailbox.
    await runReminderJob(t.database, { today: TODAY });
    await runReminderJob(t.database, { today: TODAY });
    await deliverer.deliverDue(x.tenantId);
    expect(to(address)).toHaveLength(1);
  });

  it('a withdrawn contract sends its payer no reminder', async () => {
    const address = `withdrawn.${kind}.${Date.now()}@example.gr`;
    const x = await centre(address);
    // October and November stay due and unpaid, yet the contract is withdrawn.
    expectStatus(await x.send('POST', `/api/contracts/${x.contract.id}/withdraw`, { on: '2026-11-30', reason: 'Μετακόμισε' }), 200);
    await runReminderJob(t.database, { today: TODAY });
    expect((await deliverer.deliverDue(x.tenantId)).sent).toBe(0);
    expect(to(address)).toHaveLength(0);
  });
});
