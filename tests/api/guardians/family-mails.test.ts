// The e-mails to families (docs/rules.md, Messages to families), as the mailbox receives them:
// a text part and an HTML part saying the same, names (what people typed) escaped in the
// HTML, a greeting by her surname in the vocative where her relation tells whether to say
// κυρία or κύριε (else a plain "Καλησπέρα σας,"), and the centre's one name as signature.
// And the invitation link the office copies to hand her: fresh, once, the older one gone.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../server/db/statements';
import { runReminderJob } from '../../../server/jobs/reminders';
import { createDeliverer, type Deliverer } from '../../../server/modules/messages/deliver';
import { expectError, expectStatus, json } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { type Mailbox, startMailbox } from '../support/mailbox';
import { created, type Row } from '../support/money-helpers';

const TODAY = '2026-12-15';

describe.each(DATABASE_KINDS)('e-mails to families on %s', (kind) => {
  let box: Mailbox;
  let t: TestApp;
  let deliverer: Deliverer;
  let seq = 0;

  /** A centre of its own (its legal name differs from its name) with a child and one payer of `relation`. */
  async function centre(relation: string, lastName: string) {
    const slug = `fm${kind.slice(0, 2)}${seq++}${Date.now().toString(36)}`;
    const { admin } = await t.createTenant(slug, `Φροντιστήριο ${slug}`);
    const send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown) => t.request({ method, url, body, token: admin.token, tenant: slug });
    const settings = json(await send('GET', '/api/settings')).data as Row;
    expectStatus(await send('PATCH', '/api/settings', { legal_name: 'ΕΚΠΑΙΔΕΥΤΙΚΗ Α.Ε.', version: settings.version }), 200);
    const email = `${slug}@example.gr`;
    const student = await created(await send('POST', '/api/students', { first_name: '<b>Ζωή</b> & Σία', last_name: lastName }));
    const guardian = await created(
      await send('POST', '/api/guardians', { first_name: 'Νίκος', last_name: lastName, relation, email, student_ids: [student.id] }),
    );
    const contract = await created(
      await send('POST', '/api/contracts', {
        student_id: student.id,
        payer_guardian_id: guardian.id,
        start_date: '2026-11-01',
        end_date: '2027-06-30',
        register_cost: 0,
        month_cost: 8000,
      }),
    );
    const [{ id: tenantId }] = await queryRows<{ id: number }>(t.database.db, sql`select id from tenants where slug = ${slug}`);
    return { slug, send, email, guardian, contract, tenantId: tenantId as number };
  }
  const to = (address: string) => box.mails.filter((m) => m.to.includes(address));

  beforeAll(async () => {
    box = await startMailbox();
    t = await startApp(kind, { today: TODAY, smtpUrl: box.url, outboxSweepSeconds: 3600 });
    deliverer = createDeliverer(t.database, { smtpUrl: box.url, mailFrom: t.config.mailFrom, maxAttempts: 3 })!;
  });
  afterAll(async () => {
    deliverer?.close();
    await t?.close();
    await box?.close();
  });

  it('a father gets his reminder as text and HTML, greeted "Αγαπητέ κύριε Παππά", names escaped, signed with the centre’s name', async () => {
    const x = await centre('FATHER', 'Παππάς');
    await runReminderJob(t.database, { today: TODAY });
    await deliverer.deliverDue(x.tenantId);
    await expect.poll(() => to(x.email).length, { timeout: 15_000 }).toBe(1);
    const [mail] = to(x.email);
    expect(mail!.text.startsWith('Αγαπητέ κύριε Παππά,\n')).toBe(true);
    expect(mail!.text).toContain('<b>Ζωή</b> & Σία Παππάς:\n– Νοεμβρίου 2026: 80,00 €\n– Δεκεμβρίου 2026: 80,00 €');
    expect(mail!.text).toContain('Σύνολο: 160,00 €');
    expect(mail!.text.trimEnd().endsWith(`Με εκτίμηση,\nΦροντιστήριο ${x.slug}`)).toBe(true);
    expect(mail!.text).not.toContain('ΕΚΠΑΙΔΕΥΤΙΚΗ');
    const html = mail!.html!;
    expect(html).toContain('<html lang="el">');
    expect(html).toContain('<p>Αγαπητέ κύριε Παππά,</p>');
    expect(html).toContain('&lt;b&gt;Ζωή&lt;/b&gt; &amp; Σία Παππάς:');
    expect(html).not.toContain('<b>Ζωή</b>');
    expect(html).toContain('<li>Νοεμβρίου 2026: 80,00 €</li>');
    expect(html).toContain(`Φροντιστήριο ${x.slug}`);
  });

  it('a guardian whose relation does not tell is greeted "Καλησπέρα σας,"', async () => {
    const x = await centre('GUARDIAN', 'Γεωργίου');
    await runReminderJob(t.database, { today: TODAY });
    await deliverer.deliverDue(x.tenantId);
    await expect.poll(() => to(x.email).length, { timeout: 15_000 }).toBe(1);
    expect(to(x.email)[0]!.text.startsWith('Καλησπέρα σας,\n')).toBe(true);
    expect(to(x.email)[0]!.html).toContain('<p>Καλησπέρα σας,</p>');
  });

  it('the invitation e-mail greets her and links her link; the office copies a fresh link (nothing e-mailed), and the older one stops working', async () => {
    const x = await centre('MOTHER', 'Αντωνίου');
    expectStatus(await x.send('PATCH', `/api/guardians/${x.guardian.id}`, { portal: true, version: x.guardian.version }), 200);
    await deliverer.deliverDue(x.tenantId);
    await expect.poll(() => to(x.email).length, { timeout: 15_000 }).toBe(1);
    const [invitation] = to(x.email);
    expect(invitation!.subject).toBe(`Πρόσκληση στην πύλη γονέων · Φροντιστήριο ${x.slug}`);
    expect(invitation!.text.startsWith('Αγαπητή κυρία Αντωνίου,\n')).toBe(true);
    const emailed = /\/invitation\?token=([A-Za-z0-9_-]+)/.exec(invitation!.text)![1]!;
    expect(invitation!.html).toMatch(/<a href="[^"]*\/invitation\?token=[A-Za-z0-9_-]+">/);

    const res = await x.send('POST', `/api/guardians/${x.guardian.id}/invitation-link`, {});
    expectStatus(res, 200);
    const handed = json(res).data as { link: string; expires_at: string };
    const token = /\/invitation\?token=([A-Za-z0-9_-]+)$/.exec(handed.link)![1]!;
    expect(token).not.toBe(emailed);
    await deliverer.deliverDue(x.tenantId);
    expect(to(x.email)).toHaveLength(1);
    const open = (tok: string) => t.request({ url: `/api/invitation?token=${tok}`, tenant: x.slug });
    expectError(await open(emailed), 404, 'invitation-invalid');
    expect(json(await open(token)).data).toMatchObject({ email: x.email, first_name: 'Νίκος', expires_at: handed.expires_at });
  });
});
