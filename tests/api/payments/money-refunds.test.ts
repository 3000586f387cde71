// Refunds in the books (docs/rules.md, Receipts and Account): a cancelled receipt's payment and a
// withdrawn contract's credit are refunded; the account, the analytics, the receipts spreadsheet,
// the contract, the portal and the printed credit receipt all say so. Money in cents.
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectStatus, json, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { contractBody, created, makeMoneyWorld, paymentBody, type MoneyWorld, type Row } from '../support/money-helpers';
import { addSignIn, GUARDIAN_PASSWORD } from '../support/portal-helpers';
import { queryRows } from '../../../server/db/statements';

/** The centre's date in these tests: refunds and credit receipts are dated this day. */
const TODAY = '2026-12-10';

describe.each(DATABASE_KINDS)('refunds on %s', (kind) => {
  let t: TestApp;
  let w: MoneyWorld;
  const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, token = w.token.ADMIN) => t.request({ method, url, body, token });
  const get = async (url: string, token = w.token.ADMIN) => {
    const res = await send('GET', url, undefined, token);
    expectStatus(res, 200);
    return json(res).data;
  };
  const month = async (m: string) => (await get(`/api/account/month?month=${m}`)) as Row;
  const collected = async (m: string) => ((await get(`/api/analytics/contracts?from=${m}&to=${m}`)) as Row).months[0].collected as number;

  /** A guardian with a portal sign-in, payer of `studentId`'s contracts; answers her row and token. */
  async function guardianWithPortal(studentId: number) {
    const email = `refunds-${studentId}-${kind}@example.gr`;
    const row = await created(
      await send('POST', '/api/guardians', { first_name: 'Ελένη', last_name: 'Δοκιμής', relation: 'MOTHER', email, notify: false, student_ids: [studentId] }),
    );
    const [tenant] = await queryRows<{ id: number }>(t.database.db, sql`select id from tenants where slug = 'demo'`);
    await addSignIn(t, Number(tenant!.id), row);
    return { row, token: (await t.signIn(email, GUARDIAN_PASSWORD)).token };
  }

  beforeAll(async () => {
    t = await startApp(kind, { today: TODAY });
    w = await makeMoneyWorld(t, 3);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a cancelled receipt refunds its payment: income stays in its month and is taken off in the credit month, both with receipt', async () => {
    const student = w.students[0]!;
    const guardian = await guardianWithPortal(student.id);
    const contract = await created(await send('POST', '/api/contracts', contractBody(w, { student_id: student.id, payer_guardian_id: guardian.row.id })));
    const before = { oct: await month('2026-10'), dec: await month('2026-12'), collected: await collected('2026-10') };
    const payment = await created(await send('POST', '/api/payments', paymentBody(contract.id, { month: '2026-10', amount: 12000, paid_on: '2026-10-05' })));
    const oct = await month('2026-10');
    expect(oct.income.with_receipt - before.oct.income.with_receipt).toBe(12000);
    expect(await collected('2026-10')).toBe(before.collected + 12000);

    const original = (await get(`/api/receipts/${payment.receipt_id}`)) as Row;
    const res = await send('POST', `/api/receipts/${original.id}/cancel`, { reason: 'Λάθος μήνας' });
    expectStatus(res, 201);
    const credit = json(res).data as Row;
    expect(credit).toMatchObject({ kind: 'CREDIT', issued_on: TODAY, cancels_bill_number: original.bill_number, cancels_issued_on: '2026-10-05' });

    // The account: October keeps the income with receipt; December takes it off, with receipt; nothing "without receipt".
    const [octAfter, decAfter] = [await month('2026-10'), await month('2026-12')];
    expect(octAfter.income).toEqual(oct.income);
    expect(decAfter.income.with_receipt - before.dec.income.with_receipt).toBe(-12000);
    expect(decAfter.income.without_receipt).toBe(before.dec.income.without_receipt);
    const year = (await get('/api/account/year?year=2026')) as Row;
    const dec = year.months.find((m: Row) => m.month === '2026-12');
    expect(dec.income).toEqual(decAfter.income);
    // The analytics: what came in for October no longer counts the refunded payment.
    expect(await collected('2026-10')).toBe(before.collected);

    // The contract: October is owed again, the payment shows as refunded.
    const now = (await get(`/api/contracts/${contract.id}`)) as Row;
    expect(now).toMatchObject({ total_paid: 0, refunded: 12000, credit: 0 });
    // Every due month (September to December) is unpaid, October's refunded payment not counted against it.
    expect(now.unpaid_months).toEqual(['2026-09', '2026-10', '2026-11', '2026-12']);
    expect(now.unpaid_amount).toBe(4 * 12000);
    const status = (await get(`/api/contracts/${contract.id}/status`)) as Row;
    expect(status).toMatchObject({ total_paid: 0, refunded: 12000, credit: 0 });
    expect(status.lines.find((l: Row) => l.month === '2026-10' && l.kind === 'MONTHLY')).toMatchObject({ paid: 0, left: 12000 });
    expect(status.payments).toEqual([expect.objectContaining({ id: payment.id, refunded_on: TODAY })]);
    // October may be paid again, in full.
    await created(await send('POST', '/api/payments', paymentBody(contract.id, { month: '2026-10', amount: 12000, paid_on: TODAY })));

    // Her portal keeps both receipts: the cancelled one and the credit receipt naming it.
    const receipts = (await get(`/api/portal/receipts?student_id=${student.id}`, guardian.token)) as Row[];
    expect(receipts.find((r) => r.id === original.id)).toMatchObject({ kind: 'RECEIPT', status: 'CANCELLED', amount: 12000 });
    expect(receipts.find((r) => r.id === credit.id)).toMatchObject({ kind: 'CREDIT', amount: 12000, cancels_bill_number: original.bill_number });

    // The printed credit receipt names the receipt it cancels (also in the PDF's subject, as UTF-16).
    const pdf = await send('GET', `/api/receipts/${credit.id}/pdf`);
    expectStatus(pdf, 200);
    const named = `Ακυρώνει την απόδειξη ${original.bill_number} της 05/10/2026`;
    const utf16be = Buffer.from(named, 'utf16le').swap16();
    expect(pdf.rawPayload.includes(utf16be), 'the credit PDF names the cancelled receipt').toBe(true);
  });

  it('the receipts spreadsheet takes credit receipts off: its total is what the receipts net', async () => {
    const contract = await created(await send('POST', '/api/contracts', contractBody(w, { student_id: w.students[1]!.id, month_cost: 7550 })));
    const kept = await created(await send('POST', '/api/payments', paymentBody(contract.id, { month: '2026-09', amount: 7550, paid_on: '2026-12-01' })));
    const refunded = await created(await send('POST', '/api/payments', paymentBody(contract.id, { month: '2026-10', amount: 4225, paid_on: '2026-12-02' })));
    const refund = await send('POST', `/api/payments/${refunded.id}/refund`, { reason: 'Επιστροφή' });
    expectStatus(refund, 200);
    const credit = (await get(`/api/receipts/${json(refund).data.credit_receipt_id}`)) as Row;
    const res = await send('GET', '/api/exports/receipts.xlsx?from=2026-12-01&to=2026-12-31');
    expectStatus(res, 200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(res.rawPayload).buffer);
    const rows: unknown[][] = [];
    workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const body = rows.slice(1, -1);
    const amountAt = 6;
    const amountsOf = (billNumber: string) => body.filter((r) => `${r[1]}-${r[2]}` === billNumber).map((r) => r[amountAt]);
    expect(amountsOf(kept.bill_number)).toEqual([75.5]);
    expect(amountsOf(refunded.bill_number)).toEqual([42.25]);
    expect(amountsOf(credit.bill_number)).toEqual([-42.25]);
    // The totals row is what the period's receipts net, as the API lists them: receipts less credit receipts.
    const listed = (await get('/api/receipts?issued_on_gte=2026-12-01&issued_on_lte=2026-12-31&_end=100')) as Row[];
    const net = listed.reduce((n, r) => n + (r.kind === 'CREDIT' ? -r.amount : r.amount), 0);
    expect(listed.some((r) => r.kind === 'CREDIT')).toBe(true);
    expect(body).toHaveLength(listed.length);
    expect(Math.round(Number(rows.at(-1)![amountAt]) * 100)).toBe(net);
  });

  it("a withdrawn contract's credit is refunded (with and without receipt) and then shows as refunded, not to refund", async () => {
    const student = w.students[2]!;
    const guardian = await guardianWithPortal(student.id);
    const contract = await created(
      await send(
        'POST',
        '/api/contracts',
        contractBody(w, { student_id: student.id, start_date: '2026-09-01', register_cost: 0, payer_guardian_id: guardian.row.id }),
      ),
    );
    await created(await send('POST', '/api/payments', paymentBody(contract.id, { month: '2026-09', amount: 12000, paid_on: '2026-09-03' })));
    const january = await created(await send('POST', '/api/payments', paymentBody(contract.id, { month: '2027-01', amount: 12000, paid_on: '2026-11-02' })));
    const february = await created(
      await send('POST', '/api/payments', paymentBody(contract.id, { month: '2027-02', amount: 6300, paid_on: '2026-11-02', with_receipt: false })),
    );
    const withdrawn = await send('POST', `/api/contracts/${contract.id}/withdraw`, { on: '2026-10-20', reason: 'Μετακόμιση' });
    expectStatus(withdrawn, 200);
    const owing = (await get(`/api/contracts/${contract.id}`)) as Row;
    // September and October are owed (24000); 30300 was paid, 18300 of it for later months: credit.
    expect(owing).toMatchObject({ total_cost: 24000, total_paid: 30300, credit: 18300, refunded: 0, rest: 12000 });

    // Her portal shows the credit, so its figures add up: total - (paid - credit) = left.
    const portalBefore = ((await get(`/api/portal/children/${student.id}/contracts`, guardian.token)) as Row[]).find((c) => c.id === contract.id)!;
    expect(portalBefore).toMatchObject({ total_cost: 24000, total_paid: 30300, credit: 18300, refunded: 0, rest: 12000 });
    expect(portalBefore.total_cost - (portalBefore.total_paid - portalBefore.credit)).toBe(portalBefore.rest);

    const dec = await month('2026-12');
    const janRefund = await send('POST', `/api/payments/${january.id}/refund`, { reason: 'Επιστροφή πίστωσης' });
    expectStatus(janRefund, 200);
    expect(json(janRefund).data).toMatchObject({ payment_id: january.id, refunded_on: TODAY, credit_receipt_id: expect.any(Number) });
    const creditReceipt = (await get(`/api/receipts/${json(janRefund).data.credit_receipt_id}`)) as Row;
    expect(creditReceipt).toMatchObject({ kind: 'CREDIT', amount: 12000, cancels_bill_number: january.bill_number });
    const febRefund = await send('POST', `/api/payments/${february.id}/refund`, { reason: 'Επιστροφή πίστωσης' });
    expectStatus(febRefund, 200);
    expect(json(febRefund).data).toMatchObject({ payment_id: february.id, refunded_on: TODAY, credit_receipt_id: null });

    // The contract: nothing left to refund, 18300 refunded; what it owes is unchanged.
    expect((await get(`/api/contracts/${contract.id}`)) as Row).toMatchObject({ total_paid: 12000, credit: 0, refunded: 18300, rest: 12000 });
    expect((await get(`/api/contracts/${contract.id}/status`)) as Row).toMatchObject({ credit: 0, refunded: 18300, rest: 12000 });
    // The account: December takes off the refunds, each on its side.
    const decAfter = await month('2026-12');
    expect(decAfter.income.with_receipt - dec.income.with_receipt).toBe(-12000);
    expect(decAfter.income.without_receipt - dec.income.without_receipt).toBe(-6300);
    expect((await month('2026-11')).income.with_receipt).toBeGreaterThanOrEqual(12000);
    // The portal: refunded, not credit; total - paid = left.
    const portalAfter = ((await get(`/api/portal/children/${student.id}/contracts`, guardian.token)) as Row[]).find((c) => c.id === contract.id)!;
    expect(portalAfter).toMatchObject({ total_cost: 24000, total_paid: 12000, credit: 0, refunded: 18300, rest: 12000 });
    expect(portalAfter.total_cost - portalAfter.total_paid).toBe(portalAfter.rest);
    const receipts = (await get(`/api/portal/receipts?student_id=${student.id}`, guardian.token)) as Row[];
    expect(receipts.map((r) => [r.kind, r.status])).toEqual(
      expect.arrayContaining([
        ['RECEIPT', 'CANCELLED'],
        ['CREDIT', 'ISSUED'],
      ]),
    );
  });

  it('a refund is checked: bad bodies and ids are 4xx that change nothing; it needs a session; the office refunds, in the history', async () => {
    const contract = await created(await send('POST', '/api/contracts', contractBody(w, { student_id: w.students[0]!.id, start_date: '2027-01-01' })));
    const payment = await created(await send('POST', '/api/payments', paymentBody(contract.id, { month: '2027-01', amount: 500, paid_on: TODAY })));
    for (const body of [{}, { reason: '' }, { reason: 'ab' }, { reason: 'x'.repeat(501) }, { reason: 'εντάξει', extra: 1 }, { reason: 42 }]) {
      const res = await send('POST', `/api/payments/${payment.id}/refund`, body);
      expectError(res, 400, 'validation');
    }
    for (const id of ['0', 'abc', '99999999']) expectError(await send('POST', `/api/payments/${id}/refund`, { reason: 'Επιστροφή' }), 404, 'not-found');
    expect((await get(`/api/payments/${payment.id}`)) as Row).toMatchObject({ refunded_on: null, version: payment.version });
    expectError(await t.request({ method: 'POST', url: `/api/payments/${payment.id}/refund`, body: { reason: 'Επιστροφή' } }), 401, 'unauthorized');
    const res = await send('POST', `/api/payments/${payment.id}/refund`, { reason: 'Επιστροφή' }, w.token.SECRETARY);
    expect(res.statusCode, show(res)).toBe(200);
    const history = (await get(`/api/history?entity=payments&entity_id=${payment.id}`)) as Row[];
    expect(JSON.stringify(history)).toContain('refunded_on');
  });
});
