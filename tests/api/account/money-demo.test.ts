// DEMO_DATA=1 fills the demo centre's money once: every student holds a contract for the
// school year with a history of payments (some months unpaid, some without receipt) and the
// account has a year of expenses, so the money screens show something true.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../../server/bootstrap';
import { DEMO_STUDENTS } from '../../../server/demo/directory';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { json } from '../support/api-helpers';
import { isValidTaxId } from '../../../domain/tax-id';
import { contractMonths, monthFee } from '../../../domain/money';

describe.each(DATABASE_KINDS)('demo money on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  const get = async (url: string) => json(await t.request({ url, token: admin }));
  const thisMonth = new Date().toISOString().slice(0, 7);

  beforeAll(async () => {
    t = await startApp(kind, { demoData: true });
    admin = (await t.signIn('admin', 'demo-admin-2024')).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every demo student holds a contract with payments; some months are unpaid and some payments carry no receipt', async () => {
    const students = await get('/api/students?number_of_contracts=1&_end=1');
    expect(students.total).toBe(DEMO_STUDENTS);
    expect((await get('/api/contracts?_end=1')).total).toBe(DEMO_STUDENTS);
    const owing = (await get(`/api/contracts?unpaid_month=${thisMonth}&_end=1`)).total;
    expect(owing).toBeGreaterThan(0);
    expect(owing).toBeLessThan(DEMO_STUDENTS);
    const payments = await get('/api/payments?_end=1');
    expect(payments.totals.with_receipt).toBeGreaterThan(0);
    expect(payments.totals.without_receipt).toBeGreaterThan(0);
    expect((await get('/api/payments?kind=EXTRA&_end=1')).total).toBeGreaterThan(0);
  });

  it('every contract is paid by a guardian of its student; younger siblings pay 10% less on every month', async () => {
    const all = await get(`/api/contracts?_end=${DEMO_STUDENTS}`);
    for (const c of all.data) {
      const student = await get(`/api/students/${c.student_id}`);
      expect(student.data.guardian_ids, `contract ${c.id}`).toContain(c.payer_guardian_id);
    }
    const discounted = all.data.filter((c: { discount_percent: number }) => c.discount_percent === 10);
    expect(discounted.length).toBeGreaterThan(0);
    expect(discounted.length).toBeLessThan(DEMO_STUDENTS);
    // Its cost counts every month at the discounted fee.
    const active = discounted.find((c: { status: string }) => c.status !== 'WITHDRAWN');
    expect(active.total_cost).toBe(active.register_cost + monthFee(active) * contractMonths(active).length + active.extra_total);
    expect(monthFee(active)).toBeLessThan(active.month_cost);
  });

  it('a year of expenses in categories, and the account month has income, expenses and expected', async () => {
    expect((await get('/api/expense-categories')).data.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(['Ενοίκιο', 'Μισθοί', 'Λογαριασμοί']),
    );
    const year = await get('/api/expenses?_end=1');
    expect(year.total).toBeGreaterThanOrEqual(7 * 11);
    const totals = (await get(`/api/account/year?year=${thisMonth.slice(0, 4)}`)).data.totals;
    expect(totals.expenses.total).toBeGreaterThan(0);
    expect(totals.income.total).toBeGreaterThan(0);
    expect(totals.expected.total).toBeGreaterThan(0);
  });

  it('the centre issues receipts with its issuer details; two were cancelled by credit receipts', async () => {
    const settings = (await get('/api/settings')).data;
    expect(isValidTaxId(settings.tax_id)).toBe(true);
    expect(settings.legal_name).toBeTruthy();
    expect((await get('/api/receipts?kind=RECEIPT&_end=1')).total).toBeGreaterThan(0);
    const credits = await get('/api/receipts?kind=CREDIT');
    expect(credits.total).toBe(2);
    for (const credit of credits.data) {
      expect(credit.issuer.tax_id).toBe(settings.tax_id);
      expect(credit.cancels_receipt_id).toEqual(expect.any(Number));
    }
    expect((await get('/api/receipts?status=CANCELLED')).total).toBe(2);
  });

  it('a few receipts were refused by myDATA: FAILED, with AADE’s message and code, and no MARK', async () => {
    const refused = await get('/api/receipts?status=FAILED');
    expect(refused.total).toBe(3);
    for (const receipt of refused.data) {
      expect(receipt.kind).toBe('RECEIPT');
      expect(receipt.mark).toBeNull();
      expect(receipt.error).toMatch(/^\S.+ \(\d{3}\)$/);
    }
    expect(refused.data.map((r: { error: string }) => r.error)).toEqual(expect.arrayContaining(['Το ΑΦΜ του εκδότη δεν ανήκει στον χρήστη (203)']));
    // and the admin was told, naming the receipt and AADE's message
    const inbox = (await get('/api/notifications?_end=100')).data as Array<Record<string, unknown>>;
    const notes = inbox.filter((n) => n.kind === 'receipt-refused');
    expect(notes).toHaveLength(3);
    expect(JSON.stringify(notes)).toContain(refused.data[0].bill_number);
  });

  it('bootstrap again adds nothing', async () => {
    const before = (await get('/api/payments?_end=1')).total;
    await bootstrap(t.database, t.config);
    expect((await get('/api/payments?_end=1')).total).toBe(before);
    expect((await get('/api/contracts?_end=1')).total).toBe(DEMO_STUDENTS);
  });
});
