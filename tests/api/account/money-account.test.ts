// A small centre with known contracts, payments and expenses, read back through the lists
// (filters, sorting, totals of the filtered rows), the account (docs/rules.md, Account: income by paid_on,
// expenses by date, expected from the contracts, each with and without receipt; the year) and
// the contract analytics. Expected figures come both by hand and from domain/money.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContractTerms, expectedForMonth, monthsFromTo, splitByReceipt } from '../../../domain/index';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, expectStatus, json } from '../support/api-helpers';
import { created, makeMoneyWorld, type MoneyWorld, type Row } from '../support/money-helpers';

type Money = { amount: number; bill_number: string | null };

describe.each(DATABASE_KINDS)('account, lists and analytics on %s', (kind) => {
  let t: TestApp;
  let w: MoneyWorld;
  const c: Row[] = [];
  const paymentsMade: Row[] = [];
  const expensesMade: Row[] = [];
  const send = (url: string, token = w.token.ADMIN) => t.request({ url, token });
  const get = async (url: string) => {
    const res = await send(url);
    expectStatus(res, 200);
    return json(res);
  };
  const ids = async (url: string) => (await get(url)).data.map((r: Row) => r.id);

  beforeAll(async () => {
    // A date after December 2026, so every month these tests read is due.
    t = await startApp(kind, { today: '2027-01-15' });
    w = await makeMoneyWorld(t, 3);
    const post = async (url: string, body: Row) => created(await t.request({ method: 'POST', url, body, token: w.token.ADMIN }));
    const [s0, s1, s2] = w.students as [Row, Row, Row];
    c.push(
      await post('/api/contracts', {
        student_id: s0.id,
        category_id: w.category.id,
        start_date: '2026-09-01',
        end_date: '2027-06-30',
        register_cost: 5000,
        month_cost: 10000,
      }),
    );
    c.push(await post('/api/contracts', { student_id: s1.id, start_date: '2026-10-10', end_date: '2026-12-31', month_cost: 8000, with_receipt: false }));
    c.push(
      await post('/api/contracts', {
        student_id: s2.id,
        category_id: w.category.id,
        start_date: '2026-11-01',
        end_date: '2027-01-31',
        register_cost: 2000,
        month_cost: 15000,
      }),
    );
    const pay = async (i: number, body: Row) => paymentsMade.push(await post('/api/payments', { contract_id: c[i]!.id, method: 'CASH', ...body }));
    await pay(0, { kind: 'REGISTER', amount: 5000, paid_on: '2026-09-05', with_receipt: true });
    await pay(0, { kind: 'MONTHLY', month: '2026-09', amount: 10000, paid_on: '2026-09-05', with_receipt: true });
    await pay(0, { kind: 'MONTHLY', month: '2026-10', amount: 10000, paid_on: '2026-11-02', method: 'BANK_ACCOUNT', with_receipt: false });
    await pay(1, { kind: 'MONTHLY', month: '2026-10', amount: 8000, paid_on: '2026-10-15', with_receipt: false });
    await pay(1, { kind: 'MONTHLY', month: '2026-11', amount: 3000, paid_on: '2026-11-20', with_receipt: true, method: 'CREDIT_CARD' });
    await pay(2, { kind: 'EXTRA', amount: 2500, paid_on: '2026-11-03', with_receipt: true, description: 'Βιβλία' });
    const rent = await post('/api/expense-categories', { name: 'Ενοίκιο' });
    const spend = async (body: Row) => expensesMade.push(await post('/api/expenses', body));
    await spend({ date: '2026-11-01', amount: 40000, description: 'Ενοίκιο Νοεμβρίου', category_id: rent.id, bill_number: 'R-11', method: 'BANK_ACCOUNT' });
    await spend({ date: '2026-11-15', amount: 6000, description: 'ΔΕΗ' });
    await spend({ date: '2026-10-01', amount: 40000, description: 'Ενοίκιο Οκτωβρίου', category_id: rent.id, bill_number: 'R-10' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('contract figures after the payments', async () => {
    const rows = (await get('/api/contracts?_sort=id')).data as Row[];
    expect(rows.map((r) => [r.total_cost, r.total_paid, r.rest, r.is_register_paid])).toEqual([
      [105000, 25000, 80000, true],
      [24000, 11000, 13000, true],
      [49500, 2500, 47000, false],
    ]);
    expect(rows[1]!.unpaid_months).toEqual(['2026-11', '2026-12']);
  });

  it.each([
    ['unpaid_month=2026-11', [0, 1, 2]],
    ['unpaid_month=2026-10', []],
    ['paid_month=2026-10', [0, 1]],
    ['paid_month=2026-09', [0]],
    ['is_register_paid=true', [0, 1]],
    ['is_register_paid=false', [2]],
    ['with_receipt=false', [1]],
    ['active_on=2026-10-05', [0]],
    ['active_on=2026-12-31', [0, 1, 2]],
    ['rest_gte=40000', [0, 2]],
    ['start_date_gte=2026-10-01&start_date_lte=2026-10-31', [1]],
    ['category_id=CAT', [0, 2]],
    ['class_id=CLASS0', [0, 2]],
    ['student_id=S1', [1]],
    ['unpaid_month=2026-11&with_receipt=true', [0, 2]],
  ])('contracts filtered by %s', async (filter, expected) => {
    const q = filter.replace('CAT', String(w.category.id)).replace('CLASS0', String(w.classes[0]!.id)).replace('S1', String(w.students[1]!.id));
    expect(await ids(`/api/contracts?${q}&_sort=id`)).toEqual(expected.map((i) => c[i]!.id));
  });

  it('sorted by rest, with the totals of every filtered row beside a page', async () => {
    expect(await ids('/api/contracts?_sort=rest&_order=asc')).toEqual([c[1]!.id, c[2]!.id, c[0]!.id]);
    const page = await get('/api/contracts?_sort=rest&_order=desc&_end=1');
    expect(page.data.map((r: Row) => r.id)).toEqual([c[0]!.id]);
    expect(page.total).toBe(3);
    expect(page.totals).toEqual({ total_cost: 178500, total_paid: 38500, rest: 140000 });
    const filtered = await get('/api/contracts?unpaid_month=2026-12&with_receipt=false');
    expect(filtered.totals).toEqual({ total_cost: 24000, total_paid: 11000, rest: 13000 });
    expect((await get('/api/contracts?student_id=999999')).totals).toEqual({ total_cost: 0, total_paid: 0, rest: 0 });
  });

  it.each([
    ['student_id=S0', [0, 1, 2]],
    ['month=2026-10', [2, 3]],
    ['kind=EXTRA', [5]],
    ['method=CREDIT_CARD', [4]],
    ['with_receipt=true', [0, 1, 4, 5]],
    ['with_receipt=false', [2, 3]],
    // The third receipt of the centre's series.
    [`bill_number=${encodeURIComponent('Α-3')}`, [4]],
    ['paid_on_gte=2026-11-01&paid_on_lte=2026-11-30', [2, 4, 5]],
  ])('payments filtered by %s, with their totals', async (filter, expected) => {
    const res = await get(`/api/payments?${filter.replace('S0', String(w.students[0]!.id))}&_sort=id`);
    const want = expected.map((i) => paymentsMade[i]!);
    expect(res.data.map((r: Row) => r.id)).toEqual(want.map((p) => p.id));
    const split = splitByReceipt(<Money[]>want);
    expect(res.totals).toEqual({ amount: split.total, with_receipt: split.with_receipt, without_receipt: split.without_receipt });
  });

  it('a payment shows its student and whether it carries a receipt', async () => {
    const row = json(await send(`/api/payments/${paymentsMade[4]!.id}`)).data;
    expect(row).toMatchObject({
      student_id: w.students[1]!.id,
      student: { id: w.students[1]!.id, name: `${w.students[1]!.first_name} Δοκιμής` },
      with_receipt: true,
    });
    expect(row.contract).toEqual({ id: c[1]!.id, name: `${w.students[1]!.first_name} Δοκιμής · 2026-10-10` });
  });

  it('expenses filtered by receipt and date, with totals', async () => {
    const nov = await get('/api/expenses?date_gte=2026-11-01&date_lte=2026-11-30');
    expect(nov.totals).toEqual({ amount: 46000, with_receipt: 40000, without_receipt: 6000 });
    expect((await get('/api/expenses?with_receipt=true&_sort=date')).data.map((e: Row) => e.bill_number)).toEqual(['R-10', 'R-11']);
  });

  it('the account month: income by paid_on, expenses by date, expected from the contracts, each with and without receipt; net', async () => {
    const { data } = await get('/api/account/month?month=2026-11');
    expect(data).toEqual({
      month: '2026-11',
      income: { with_receipt: 5500, without_receipt: 10000, total: 15500 },
      expenses: { with_receipt: 40000, without_receipt: 6000, total: 46000 },
      expected: { with_receipt: 27000, without_receipt: 8000, total: 35000 },
      net: { with_receipt: -34500, without_receipt: 4000, total: -30500 },
    });
    expect(data.expected).toEqual(expectedForMonth(c as ContractTerms[], '2026-11'));
  });

  it('the account year: twelve months that agree with each month and with the domain, and their totals', async () => {
    const { data } = await get('/api/account/year?year=2026');
    expect(data.months.map((m: Row) => m.month)).toEqual(monthsFromTo('2026-01', '2026-12'));
    for (const m of data.months) {
      expect(m.expected, m.month).toEqual(expectedForMonth(c as ContractTerms[], m.month));
      expect(m.income, m.month).toEqual(splitByReceipt(<Money[]>paymentsMade.filter((p) => p.paid_on.startsWith(m.month))));
      expect(m.expenses, m.month).toEqual(splitByReceipt(<Money[]>expensesMade.filter((e) => e.date.startsWith(m.month))));
    }
    expect((await get('/api/account/month?month=2026-11')).data).toEqual(data.months[10]);
    expect(data.totals.income).toEqual(splitByReceipt(<Money[]>paymentsMade));
    expect(data.totals.expenses).toEqual(splitByReceipt(<Money[]>expensesMade));
    expect(data.totals.net.total).toBe(data.totals.income.total - data.totals.expenses.total);
    expect(data.totals.expected.total).toBe(15000 + 18000 + 35000 + 33000);
  });

  it('contract analytics: new and active contracts, expected vs collected, rate, outstanding by category and class', async () => {
    const { data } = await get('/api/analytics/contracts?from=2026-09&to=2026-12');
    expect(data.months).toEqual([
      { month: '2026-09', new_contracts: 1, active_contracts: 1, expected: 15000, collected: 15000, outstanding: 0, collection_rate: 1, due: true },
      { month: '2026-10', new_contracts: 1, active_contracts: 2, expected: 18000, collected: 18000, outstanding: 0, collection_rate: 1, due: true },
      { month: '2026-11', new_contracts: 1, active_contracts: 3, expected: 35000, collected: 3000, outstanding: 32000, collection_rate: 0.0857, due: true },
      { month: '2026-12', new_contracts: 0, active_contracts: 3, expected: 33000, collected: 0, outstanding: 33000, collection_rate: 0, due: true },
    ]);
    expect(data.by_category).toEqual([
      { id: w.category.id, name: 'Ετήσιο', expected: 77000, collected: 25000, outstanding: 52000 },
      { id: null, name: null, expected: 24000, collected: 11000, outstanding: 13000 },
    ]);
    expect(data.by_class).toEqual([
      { id: w.classes[0]!.id, name: w.classes[0]!.name, expected: 77000, collected: 25000, outstanding: 52000 },
      { id: w.classes[1]!.id, name: w.classes[1]!.name, expected: 24000, collected: 11000, outstanding: 13000 },
    ]);
    const empty = (await get('/api/analytics/contracts?from=2020-01&to=2020-02')).data;
    expect(empty.months.map((m: Row) => [m.expected, m.collection_rate])).toEqual([
      [0, null],
      [0, null],
    ]);
    expect([empty.by_category, empty.by_class]).toEqual([[], []]);
  });

  it.each([
    ['/api/account/month', { month: 'required' }],
    ['/api/account/month?month=2026-13', { month: 'invalid-format' }],
    ['/api/account/month?month=1999-12', { month: 'too-small' }],
    ['/api/account/month?month=2100-01', { month: 'too-large' }],
    ['/api/account/month?month=2026-11&x=1', { x: 'unknown-field' }],
    ['/api/account/year?year=26', { year: 'invalid-format' }],
    ['/api/account/year?year=2100', { year: 'too-large' }],
    ['/api/analytics/contracts?from=2026-09', { to: 'required' }],
    ['/api/analytics/contracts?from=2026-09&to=2026-08', { to: 'too-small' }],
    ['/api/analytics/contracts?from=2020-01&to=2023-01', { to: 'too-large' }],
    ['/api/contracts?unpaid_month=2026-1', { unpaid_month: 'invalid' }],
    ['/api/contracts?paid_month_like=2026', { paid_month_like: 'invalid-option' }],
  ])('%s is 400 naming the parameter', async (url, fields) => {
    expectError(await send(url), 400, 'validation', fields);
  });
});
