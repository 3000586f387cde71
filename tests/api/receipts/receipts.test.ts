// docs/rules.md, Receipts, through the API: a payment "with receipt" issues its receipt in the
// same transaction (gapless numbers of the centre's series, also under 20 concurrent payments;
// the payer guardian named with address and ΑΦΜ; the month in the genitive; the amount in
// words; the VAT exemption line); a payment with a standing receipt is neither changed nor
// deleted (409) until a CREDIT receipt cancels it; the centre settings are ADMIN's, validated,
// versioned, in the history, and the myDATA subscription key never leaves the server.
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import '../support/fast-check-seed';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidTaxId } from '../../../domain/tax-id';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectClientError, expectError, expectNoSecret, expectStatus, json } from '../support/api-helpers';
import { contractBody, created, makeMoneyWorld, paymentBody, type MoneyWorld, type Row } from '../support/money-helpers';

/** The nine-digit ΑΦΜ of eight digits and their check digit. */
function taxIdOf(first8: string): string {
  for (let d = 0; d < 10; d++) if (isValidTaxId(`${first8}${d}`)) return `${first8}${d}`;
  throw new Error(`no check digit for ${first8}`);
}
const CENTRE_TAX_ID = taxIdOf('09401420');
const PAYER_TAX_ID = taxIdOf('12345678');
const KEY = 'subscription-key-3f9a1c77e2';

describe.each(DATABASE_KINDS)('receipts on %s', (kind) => {
  let t: TestApp;
  let w: MoneyWorld;
  let teacher: string;
  let guardian: Row;
  const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, token = w.token.SECRETARY) => t.request({ method, url, body, token });
  const getSettings = async () => json(await send('GET', '/api/settings', undefined, w.token.ADMIN)).data as Row;
  const patchSettings = async (body: Row, token = w.token.ADMIN) => send('PATCH', '/api/settings', { version: (await getSettings()).version, ...body }, token);
  const receipt = async (id: number) => json(await send('GET', `/api/receipts/${id}`)).data as Row;
  const rowsOf = (result: unknown) => ((result as { rows?: Row[] }).rows ?? (result as Row[])) as Row[];
  const demoId = async () => Number(rowsOf(await t.database.db.execute(sql`select id from tenants where slug = 'demo'`))[0]!.id);
  const newContract = async (over: Row = {}) => created(await send('POST', '/api/contracts', contractBody(w, over)));
  const pay = async (contractId: number, over: Row = {}) => created(await send('POST', '/api/payments', paymentBody(contractId, over)));

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeMoneyWorld(t, 4);
    await send(
      'POST',
      '/api/teachers',
      {
        username: 'receipts-teacher',
        password: 'teacher-password-1',
        confirm_password: 'teacher-password-1',
        first_name: 'Σ',
        last_name: 'Κ',
      },
      w.token.ADMIN,
    );
    teacher = (await t.signIn('receipts-teacher', 'teacher-password-1')).token;
    guardian = await created(
      await send('POST', '/api/guardians', {
        first_name: 'Ελένη',
        last_name: 'Παπαδοπούλου',
        relation: 'MOTHER',
        address: 'Ερμού 10',
        city: 'Αθήνα',
        postal_code: '10563',
        tax_id: PAYER_TAX_ID,
        student_ids: [w.students[0]!.id],
      }),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('settings: ADMIN reads and changes them; the ΑΦΜ is checked, a stale version is refused, the history keeps the change', async () => {
    const fresh = await getSettings();
    expect(fresh).toMatchObject({ legal_name: null, receipt_series: 'Α', mydata_enabled: false, mydata_subscription_key_set: false });
    expectError(await patchSettings({ tax_id: '123456789' }), 400, 'validation', { tax_id: 'invalid' });
    expectError(await patchSettings({ tax_id: '12345' }), 400, 'validation');
    const res = await patchSettings({
      legal_name: 'Φροντιστήριο Πρόοδος Ο.Ε.',
      tax_id: CENTRE_TAX_ID,
      tax_office: 'Α΄ Αθηνών',
      address: 'Πανεπιστημίου 20',
      city: 'Αθήνα',
      postal_code: '10679',
      phone: '2101234567',
    });
    expectStatus(res, 200);
    const after = json(res).data as Row;
    expect(after).toMatchObject({ legal_name: 'Φροντιστήριο Πρόοδος Ο.Ε.', tax_id: CENTRE_TAX_ID, version: fresh.version + 1 });
    expectError(await send('PATCH', '/api/settings', { version: fresh.version, city: 'Πάτρα' }, w.token.ADMIN), 409, 'stale');
    const history = json(await send('GET', `/api/history?entity=settings&entity_id=${await demoId()}`, undefined, w.token.ADMIN));
    expect(JSON.stringify(history.data)).toContain('Φροντιστήριο Πρόοδος');
  });

  it.each(['SECRETARY', 'TEACHER'] as const)('settings: a %s reads and changes nothing (403)', async (role) => {
    const token = role === 'TEACHER' ? teacher : w.token.SECRETARY;
    expectError(await send('GET', '/api/settings', undefined, token), 403, 'forbidden');
    expectError(await send('PATCH', '/api/settings', { version: 1, city: 'Πάτρα' }, token), 403, 'forbidden');
  });

  it('settings: the subscription key is write-only: never answered, not in the history, not stored in clear', async () => {
    expectError(await patchSettings({ mydata_enabled: true }), 400, 'validation', { mydata_user_id: 'required', mydata_subscription_key: 'required' });
    const res = await patchSettings({ mydata_user_id: 'centre-user', mydata_subscription_key: KEY });
    expectStatus(res, 200);
    expectNoSecret(res, KEY);
    expect(json(res).data.mydata_subscription_key_set).toBe(true);
    expect(json(res).data).not.toHaveProperty('mydata_subscription_key');
    expectNoSecret(await send('GET', '/api/settings', undefined, w.token.ADMIN), KEY);
    const history = await send('GET', `/api/history?entity=settings&entity_id=${await demoId()}`, undefined, w.token.ADMIN);
    expectStatus(history, 200);
    expectNoSecret(history, KEY);
    expect(JSON.stringify(json(history).data)).toContain('mydata_subscription_key');
    const rows = rowsOf(await t.database.db.execute(sql`select mydata_subscription_key as k from centre_settings`));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(String(row.k)).not.toContain(KEY);
    // Turned off again so nothing waits for AADE in the rest of the file.
    expectStatus(await patchSettings({ mydata_enabled: false }), 200);
  });

  it('a payment with receipt issues it: next number, issuer and payer guardian as issued, the month in the genitive, the amount in words', async () => {
    const contract = await newContract({ payer_guardian_id: guardian.id, start_date: '2026-09-01', end_date: '2027-06-30', month_cost: 12050 });
    const payment = await pay(contract.id, { month: '2026-10', amount: 12050, paid_on: '2026-10-05' });
    expect(payment.with_receipt).toBe(true);
    expect(payment.receipt_id).toEqual(expect.any(Number));
    const r = await receipt(payment.receipt_id);
    expect(payment.bill_number).toBe(`Α-${r.number}`);
    expect(r).toMatchObject({
      kind: 'RECEIPT',
      status: 'ISSUED',
      series: 'Α',
      issued_on: '2026-10-05',
      amount: 12050,
      amount_in_words: 'εκατόν είκοσι ευρώ και πενήντα λεπτά',
      vat_exemption: 'Απαλλάσσεται από ΦΠΑ (άρθρο 22 Κώδικα ΦΠΑ)',
      payment_ids: [payment.id],
      mark: null,
    });
    expect(r.issuer).toMatchObject({ legal_name: 'Φροντιστήριο Πρόοδος Ο.Ε.', tax_id: CENTRE_TAX_ID, tax_office: 'Α΄ Αθηνών', address: 'Πανεπιστημίου 20' });
    expect(r.payer).toMatchObject({ name: 'Ελένη Παπαδοπούλου', tax_id: PAYER_TAX_ID, guardian_id: guardian.id });
    expect(r.payer.address).toContain('Ερμού 10');
    expect(r.lines).toEqual([expect.objectContaining({ description: 'Δίδακτρα Οκτωβρίου 2026', amount: 12050 })]);
    // Found in the list by the payer's name (accent- and case-blind) and by its number.
    const byName = json(await send('GET', '/api/receipts?q=ελενη παπαδοπουλου'));
    expect(byName.data.map((x: Row) => x.id)).toContain(r.id);
    const byNumber = json(await send('GET', `/api/receipts?q=Α-${r.number}`));
    expect(byNumber.data.map((x: Row) => x.id)).toContain(r.id);
    // The list's row is the receipt as read alone, the amount in words and the VAT line too.
    expect(byNumber.data.find((x: Row) => x.id === r.id)).toEqual(r);
    // The printable receipt.
    const pdf = await send('GET', `/api/receipts/${r.id}/pdf`);
    expectStatus(pdf, 200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // Once myDATA registered it (as the sending job records it), the PDF carries the MARK and the QR code.
    await t.database.db.execute(
      sql`update receipts set status = 'SENT', mark = '400001234567890', uid = 'ABCDEF0123456789', qr_url = 'https://mydataapidev.aade.gr/TimologioQR/QRInfo?q=abc' where id = ${r.id}`,
    );
    expect(await receipt(r.id)).toMatchObject({ status: 'SENT', mark: '400001234567890', qr_url: expect.stringContaining('QRInfo') });
    const registered = await send('GET', `/api/receipts/${r.id}/pdf`);
    expectStatus(registered, 200);
    expect(registered.rawPayload.length).toBeGreaterThan(pdf.rawPayload.length);
  });

  it('a contract without receipt pays without one; a payment may say otherwise', async () => {
    const contract = await newContract({ with_receipt: false, student_id: w.students[1]!.id });
    const plain = await pay(contract.id, { month: '2026-09' });
    expect(plain).toMatchObject({ with_receipt: false, bill_number: null, receipt_id: null });
    const withOne = await pay(contract.id, { month: '2026-10', with_receipt: true });
    expect(withOne.receipt_id).toEqual(expect.any(Number));
    // A student without payer guardian pays herself.
    expect((await receipt(withOne.receipt_id)).payer).toMatchObject({ name: `${w.students[1]!.first_name} Δοκιμής`, guardian_id: null });
  });

  it('registration and extra charges are named on the line', async () => {
    const contract = await newContract({ student_id: w.students[2]!.id });
    const reg = await pay(contract.id, { kind: 'REGISTER', month: undefined, amount: 5000 });
    expect((await receipt(reg.receipt_id)).lines[0].description).toBe('Εγγραφή');
    const extra = await pay(contract.id, { kind: 'EXTRA', month: undefined, amount: 1500, description: 'Βιβλία' });
    expect((await receipt(extra.receipt_id)).lines[0].description).toBe('Πρόσθετη χρέωση: Βιβλία');
  });

  it('a payment with a standing receipt is not changed or deleted (409); a credit receipt cancels it and refunds the payment, which then stays as it was', async () => {
    const contract = await newContract({ payer_guardian_id: guardian.id });
    const payment = await pay(contract.id, { month: '2026-11' });
    const original = await receipt(payment.receipt_id);
    for (const change of [{ amount: 100 }, { month: '2026-12' }, { method: 'CREDIT_CARD' }, { paid_on: '2026-09-21' }, { with_receipt: false }]) {
      const res = await send('PATCH', `/api/payments/${payment.id}`, { version: payment.version, ...change });
      const body = expectError(res, 409, 'conflict');
      expect(body.error.details).toMatchObject({ reason: 'receipt-issued-change', receipt: `Α-${original.number}` });
    }
    const del = expectError(await send('DELETE', `/api/payments/${payment.id}`), 409, 'conflict');
    expect(del.error.details.reason).toBe('receipt-issued-delete');
    // The description is not on the fiscal document's figures: it may change.
    const described = await send('PATCH', `/api/payments/${payment.id}`, { version: payment.version, description: 'μετρητά στη γραμματεία' });
    expectStatus(described, 200);

    expectError(await send('POST', `/api/receipts/${original.id}/cancel`, { reason: '' }), 400, 'validation');
    const res = await send('POST', `/api/receipts/${original.id}/cancel`, { reason: 'Λάθος ποσό' });
    expectStatus(res, 201);
    const credit = json(res).data as Row;
    expect(credit).toMatchObject({
      kind: 'CREDIT',
      status: 'ISSUED',
      cancels_receipt_id: original.id,
      cancel_reason: 'Λάθος ποσό',
      amount: original.amount,
      series: 'Α',
    });
    expect(credit.number).toBeGreaterThan(original.number);
    expect(credit.payer).toEqual(original.payer);
    expect(await receipt(original.id)).toMatchObject({ status: 'CANCELLED', cancelled_by_receipt_id: credit.id });
    expectError(await send('POST', `/api/receipts/${original.id}/cancel`, { reason: 'ξανά' }), 409, 'conflict');
    expectError(await send('POST', `/api/receipts/${credit.id}/cancel`, { reason: 'ξανά' }), 409, 'conflict');
    const credits = json(await send('GET', '/api/receipts?kind=CREDIT'));
    expect(credits.data.map((x: Row) => x.id)).toContain(credit.id);

    // The credit receipt names the receipt it cancels.
    expect(credit).toMatchObject({ cancels_bill_number: `Α-${original.number}`, cancels_issued_on: original.issued_on, cancels_mark: null });
    // The payment is refunded on the credit's day: it keeps its receipt number (its month's income stays, with receipt).
    const now = json(await send('GET', `/api/payments/${payment.id}`)).data as Row;
    expect(now).toMatchObject({ with_receipt: true, bill_number: `Α-${original.number}`, receipt_id: null, refunded_on: credit.issued_on });
    // A refunded payment stays in the books as it was: not changed, not deleted, not refunded twice.
    const changed = expectError(await send('PATCH', `/api/payments/${payment.id}`, { version: now.version, amount: 100 }), 409, 'conflict');
    expect(changed.error.details.reason).toBe('payment-refunded-change');
    expect(expectError(await send('DELETE', `/api/payments/${payment.id}`), 409, 'conflict').error.details.reason).toBe('payment-refunded-delete');
    const twice = expectError(await send('POST', `/api/payments/${payment.id}/refund`, { reason: 'ξανά' }), 409, 'conflict');
    expect(twice.error.details.reason).toBe('payment-refunded');
    // Receipts stay, as issued, both linked to the payment.
    expect(await receipt(original.id)).toMatchObject({ status: 'CANCELLED', amount: original.amount, payment_ids: [payment.id] });
    expect(await receipt(credit.id)).toMatchObject({ payment_ids: [payment.id] });
    const history = json(await send('GET', `/api/history?entity=receipts&entity_id=${original.id}`));
    expect(history.data.length).toBeGreaterThanOrEqual(2);
  });

  it('numbers are gapless and unique when 20 payments are recorded at once', async () => {
    const contract = await newContract({ student_id: w.students[3]!.id, month_cost: 100000 });
    const before = json(await send('GET', '/api/receipts?_end=1')).data[0] as Row;
    const bodies = Array.from({ length: 20 }, () => paymentBody(contract.id, { month: '2027-01', amount: 100 }));
    const answers =
      kind === 'postgres'
        ? await Promise.all(bodies.map((b) => send('POST', '/api/payments', b)))
        : await bodies.reduce<Promise<Awaited<ReturnType<typeof send>>[]>>(
            async (acc, b) => [...(await acc), await send('POST', '/api/payments', b)],
            Promise.resolve([]),
          );
    for (const a of answers) expectStatus(a, 201);
    const numbers = answers.map((a) => Number(String(json(a).data.bill_number).split('-')[1])).sort((a, b) => a - b);
    const first = (before?.number ?? 0) + 1;
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => first + i));
  });

  it('the series follows the settings', async () => {
    expectStatus(await patchSettings({ receipt_series: 'Β' }), 200);
    const contract = await newContract({ start_date: '2027-01-01', end_date: '2027-03-31' });
    const payment = await pay(contract.id, { month: '2027-02' });
    expect(payment.bill_number).toBe('Β-1');
    expectStatus(await patchSettings({ receipt_series: 'Α' }), 200);
  });

  it('receipts are read by the office only and stay inside their centre', async () => {
    expectError(await send('GET', '/api/receipts', undefined, teacher), 403, 'forbidden');
    const [one] = json(await send('GET', '/api/receipts?_end=1')).data as Row[];
    const other = await t.createTenant('receipts-other');
    const foreign = (url: string, method: 'GET' | 'POST' = 'GET', body?: unknown) =>
      t.request({ method, url, body, token: other.admin.token, tenant: 'receipts-other' });
    expectError(await foreign(`/api/receipts/${one!.id}`), 404, 'not-found');
    expectError(await foreign(`/api/receipts/${one!.id}/pdf`), 404, 'not-found');
    expectError(await foreign(`/api/receipts/${one!.id}/cancel`, 'POST', { reason: 'ξένη απόδειξη' }), 404, 'not-found');
    expect(json(await foreign('/api/receipts')).total).toBe(0);
    const theirs = json(await foreign('/api/settings')).data as Row;
    expect(theirs.legal_name).toBeNull();
  });

  it('generated bad inputs are 4xx with an error code, never a 500', async () => {
    const bad = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
      fc.string({ minLength: 300, maxLength: 400 }),
    );
    const field = fc.constantFrom(
      'tax_id',
      'postal_code',
      'email',
      'receipt_series',
      'reminder_day',
      'reminder_repeat_days',
      'mydata_enabled',
      'legal_name',
      'nonsense',
    );
    await fc.assert(
      fc.asyncProperty(field, bad, async (name, value) => {
        const res = await send('PATCH', '/api/settings', { version: 1, [name]: value }, w.token.ADMIN);
        expect(res.statusCode).toBeLessThan(500);
        if (res.statusCode >= 400) expectClientError(res);
      }),
      { numRuns: 60 },
    );
    // Ids no receipt has (a real one with a valid reason would be cancelled).
    const badId = fc.oneof(
      fc.string({ maxLength: 12 }).filter((s) => !(Number.isInteger(Number(s)) && Number(s) > 0)),
      fc.integer({ max: 0 }),
      fc.constantFrom(2 ** 31, 10 ** 12),
    );
    await fc.assert(
      fc.asyncProperty(bad, badId, async (reason, id) => {
        const res = await send('POST', `/api/receipts/${encodeURIComponent(String(id))}/cancel`, { reason });
        expectClientError(res);
      }),
      { numRuns: 40 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom('status', 'kind', 'issued_on_gte', 'issued_on_lte', '_start', '_end', 'q'), fc.string({ maxLength: 20 })),
        async (query) => {
          const res = await send('GET', `/api/receipts?${new URLSearchParams(query).toString()}`);
          expect(res.statusCode).toBeLessThan(500);
        },
      ),
      { numRuns: 40 },
    );
  });
});
