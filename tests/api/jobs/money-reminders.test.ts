// docs/rules.md, Reminders, through the job and the API: after the centre's reminder day, one
// e-mail per contract with due unpaid months to its payer guardian (notices on, an address
// known), in Greek with the months in the genitive and the amount (fees less the discount);
// again every reminder_repeat_days until paid; at most once a day, also from two processes at
// once; never for a withdrawn or completed contract, nor with reminders turned off. ADMIN sees
// what was written. The outbox rows are checked here; their delivery is the outbox job's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReminderJob } from '../../../server/jobs/reminders';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, expectStatus, json } from '../support/api-helpers';
import { created, type Row } from '../support/money-helpers';

/** The pretended date: December 2026, after the default reminder day (the 10th). */
const TODAY = '2026-12-15';

describe.each(DATABASE_KINDS)('reminders of unpaid months on %s', (kind) => {
  let t: TestApp;
  let seq = 0;

  /** A centre of its own: an admin and secretary, a student, her guardian (notices on, an e-mail) and a contract paid for September. */
  async function centre(over: { guardian?: Row; contract?: Row } = {}) {
    const slug = `rem${kind.slice(0, 2)}${seq++}${Date.now().toString(36)}`;
    const { admin } = await t.createTenant(slug);
    const secretary = await t.createUser(admin.token, { role: 'SECRETARY', tenant: slug });
    const send = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, token = admin.token) => t.request({ method, url, body, token, tenant: slug });
    const student = await created(await send('POST', '/api/students', { first_name: 'Νεφέλη', last_name: 'Καραγιάννη' }));
    const guardian = await created(
      await send('POST', '/api/guardians', {
        first_name: 'Σοφία',
        last_name: 'Καραγιάννη',
        relation: 'MOTHER',
        email: 'sofia@example.com',
        student_ids: [student.id],
        ...over.guardian,
      }),
    );
    const contract = await created(
      await send('POST', '/api/contracts', {
        student_id: student.id,
        payer_guardian_id: guardian.id,
        start_date: '2026-09-01',
        end_date: '2027-06-30',
        register_cost: 0,
        month_cost: 12000,
        ...over.contract,
      }),
    );
    const fee = Math.round((12000 * (100 - Number(over.contract?.discount_percent ?? 0))) / 100);
    expectStatus(await send('POST', '/api/payments', { contract_id: contract.id, kind: 'MONTHLY', month: '2026-09', amount: fee, paid_on: '2026-09-05' }), 201);
    const reminders = async (token = admin.token) => {
      const res = await send('GET', `/api/contracts/${contract.id}/reminders`, undefined, token);
      expectStatus(res, 200);
      return json(res).data as Row[];
    };
    return { slug, admin, secretary, send, student, guardian, contract, fee, reminders };
  }

  beforeAll(async () => {
    t = await startApp(kind, { today: TODAY });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('after the reminder day the payer gets one e-mail naming the due months in the genitive and the amount; ADMIN sees it', async () => {
    const x = await centre({ contract: { discount_percent: 10 } });
    await runReminderJob(t.database, { today: TODAY });
    const rows = await x.reminders();
    expect(rows).toHaveLength(1);
    const fee = 10800;
    expect(rows[0]).toMatchObject({
      recipient: 'sofia@example.com',
      guardian_id: x.guardian.id,
      guardian_name: 'Σοφία Καραγιάννη',
      months: ['2026-10', '2026-11', '2026-12'],
      amount: 3 * fee,
      sent_at: null,
    });
    expect(rows[0]!.body).toContain('– Οκτωβρίου 2026: 108,00 €\n– Νοεμβρίου 2026: 108,00 €\n– Δεκεμβρίου 2026: 108,00 €');
    expect(rows[0]!.body).toContain('324,00 €');
    expect(rows[0]!.body).toContain('Νεφέλη Καραγιάννη');
    expect(rows[0]!.subject).toContain('Υπενθύμιση');
    // Not January: it is not due yet.
    expect(rows[0]!.body).not.toContain('Ιανουαρίου');
    // The secretary does not see them; another centre's contract is not found.
    expectError(await x.send('GET', `/api/contracts/${x.contract.id}/reminders`, undefined, x.secretary.token), 403, 'forbidden');
    const y = await centre();
    expectError(await y.send('GET', `/api/contracts/${x.contract.id}/reminders`), 404, 'not-found');
  });

  it('once a day at most, also from two processes at once; again after reminder_repeat_days; never before the reminder day', async () => {
    const x = await centre();
    await runReminderJob(t.database, { today: '2026-12-10' });
    expect(await x.reminders()).toHaveLength(0);
    await Promise.all([runReminderJob(t.database, { today: '2026-12-11' }), runReminderJob(t.database, { today: '2026-12-11' })]);
    await runReminderJob(t.database, { today: '2026-12-11' });
    expect(await x.reminders()).toHaveLength(1);
    // the default repeat is 7 days
    await runReminderJob(t.database, { today: '2026-12-17' });
    expect(await x.reminders()).toHaveLength(1);
    await runReminderJob(t.database, { today: '2026-12-18' });
    const rows = await x.reminders();
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.months.at(-1))).toEqual(['2026-12', '2026-12']);
  });

  it.each([
    ['withdrawn in November, October and November still unpaid', 'withdrawn'],
    ['reminders turned off for the contract', 'off'],
    ["the payer's notices off", 'notify'],
    ['a payer without an e-mail address', 'no-email'],
    ['no payer (the student pays)', 'no-payer'],
    ['every due month paid', 'paid'],
    ['a contract past its end', 'completed'],
  ])('no reminder for %s', async (_name, variant) => {
    const x = await centre({
      guardian: variant === 'notify' ? { notify: false } : variant === 'no-email' ? { email: null } : {},
      contract: variant === 'completed' ? { end_date: '2026-11-30' } : variant === 'no-payer' ? { payer_guardian_id: null } : {},
    });
    const pay = (month: string) =>
      x.send('POST', '/api/payments', { contract_id: x.contract.id, kind: 'MONTHLY', month, amount: x.fee, paid_on: '2026-12-01' });
    if (variant === 'withdrawn') {
      // October and November stay due and unpaid: still no reminder for a withdrawn contract
      expectStatus(await x.send('POST', `/api/contracts/${x.contract.id}/withdraw`, { on: '2026-11-30', reason: 'Έφυγε' }), 200);
    }
    if (variant === 'off')
      expectStatus(await x.send('PATCH', `/api/contracts/${x.contract.id}`, { reminders_enabled: false, version: x.contract.version }), 200);
    if (variant === 'paid') for (const m of ['2026-10', '2026-11', '2026-12']) expectStatus(await pay(m), 201);
    await runReminderJob(t.database, { today: TODAY });
    expect(await x.reminders()).toEqual([]);
  });

  it('a reminder turned on again, or a withdrawal undone, reminds again', async () => {
    const x = await centre();
    expectStatus(await x.send('POST', `/api/contracts/${x.contract.id}/withdraw`, { on: '2026-10-15', reason: 'Έφυγε' }), 200);
    await runReminderJob(t.database, { today: TODAY });
    expect(await x.reminders()).toEqual([]);
    expectStatus(await x.send('POST', `/api/contracts/${x.contract.id}/reinstate`, {}), 200);
    await runReminderJob(t.database, { today: TODAY });
    expect((await x.reminders()).map((r) => r.months)).toEqual([['2026-10', '2026-11', '2026-12']]);
  });
  it("turning a contract's reminders off or on is ADMIN's: the secretary is refused, and still edits the rest", async () => {
    const x = await centre();
    const patch = (body: Record<string, unknown>, token: string) =>
      x.send('PATCH', `/api/contracts/${x.contract.id}`, { ...body, version: x.contract.version }, token);
    const refused = expectError(await patch({ reminders_enabled: false }, x.secretary.token), 403, 'forbidden');
    expect(refused.error.details).toMatchObject({ reason: 'reminders-admin-only' });
    // nor on create
    expectError(
      await x.send(
        'POST',
        '/api/contracts',
        { student_id: x.student.id, start_date: '2027-07-01', end_date: '2027-08-31', month_cost: 5000, reminders_enabled: false },
        x.secretary.token,
      ),
      403,
      'forbidden',
    );
    // Unchanged, it is the form's value as it was: her other change goes through.
    const notes = await x.send(
      'PATCH',
      `/api/contracts/${x.contract.id}`,
      { notes: 'Πληρώνει με κάρτα', reminders_enabled: true, version: x.contract.version },
      x.secretary.token,
    );
    expectStatus(notes, 200);
    await runReminderJob(t.database, { today: TODAY });
    expect(await x.reminders()).toHaveLength(1);
    // The admin turns them off.
    const off = await x.send('PATCH', `/api/contracts/${x.contract.id}`, { reminders_enabled: false, version: json(notes).data.version });
    expectStatus(off, 200);
    expect(json(off).data.reminders_enabled).toBe(false);
  });
});
