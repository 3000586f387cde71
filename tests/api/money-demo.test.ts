// DEMO_DATA=1 fills the demo centre's money once: every student holds a contract for the
// school year with a history of payments (some months unpaid, some without receipt) and the
// account has a year of expenses, so the money screens show something true.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../server/bootstrap';
import { DEMO_STUDENTS } from '../../server/demo/directory';
import { DATABASE_KINDS, startApp, type TestApp } from './harness';
import { json } from './api-helpers';

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

  it('bootstrap again adds nothing', async () => {
    const before = (await get('/api/payments?_end=1')).total;
    await bootstrap(t.database, t.config);
    expect((await get('/api/payments?_end=1')).total).toBe(before);
    expect((await get('/api/contracts?_end=1')).total).toBe(DEMO_STUDENTS);
  });
});
