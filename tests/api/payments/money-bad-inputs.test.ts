// Generated bad inputs against the money routes: amounts negative, fractional, huge or not
// numbers; dates malformed or outside the books; months that are not months; unknown fields;
// junk list and report queries. Each answer is a 400 naming the field, and nothing changes.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, json, show } from '../support/api-helpers';
import { contractBody, created, makeMoneyWorld, paymentBody, type MoneyWorld, type Row } from '../support/money-helpers';

const RUNS = 25;

const badMoney = fc.oneof(
  fc.integer({ max: -1 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
  fc.integer({ min: 100_000_001 }),
  fc.constantFrom(2 ** 53, 1e300, '100', '12.50', null, true, [], {}),
);
const badDate = fc.oneof(
  fc.constantFrom('1999-12-31', '2100-01-01', '0001-01-01', '9999-12-31', '2026-02-30', '2026-13-01', '26-01-01', '2026/01/01', '', 20260101, null),
  fc.string({ maxLength: 12 }).filter((s) => !/^\d{4}-\d{2}-\d{2}$/.test(s)),
);
const badMonth = fc.oneof(
  fc.constantFrom('2026-13', '2026-00', '2026-1', '1999-12', '2100-01', '2026-09-01', 202609, true),
  fc.string({ minLength: 1, maxLength: 7 }).filter((s) => !/^\d{4}-\d{2}$/.test(s)),
);

describe.each(DATABASE_KINDS)('money bad inputs on %s', (kind) => {
  let t: TestApp;
  let w: MoneyWorld;
  let contract: Row;
  let payment: Row;
  let expense: Row;
  const send = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => t.request({ method, url, body, token: w.token.ADMIN });

  /** Everything a bad input could have changed. */
  async function snapshot() {
    const out: Row = {};
    for (const name of ['contracts', 'payments', 'expenses']) {
      const res = json(await send('GET', `/api/${name}?_end=200`));
      out[name] = { total: res.total, totals: res.totals, rows: res.data.map((r: Row) => [r.id, r.version]) };
    }
    return out;
  }

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeMoneyWorld(t, 1);
    contract = await created(await send('POST', '/api/contracts', contractBody(w)));
    payment = await created(await send('POST', '/api/payments', paymentBody(contract.id, { amount: 6000 })));
    expense = await created(await send('POST', '/api/expenses', { date: '2026-11-01', amount: 1000 }));
  });
  afterAll(async () => {
    await t?.close();
  });

  const cases: Array<{ name: string; field: string; arb: fc.Arbitrary<unknown>; send: (v: unknown) => Promise<import('light-my-request').Response> }> = [
    {
      name: 'contract register_cost',
      field: 'register_cost',
      arb: badMoney,
      send: (v) => send('POST', '/api/contracts', contractBody(w, { register_cost: v })),
    },
    { name: 'contract month_cost', field: 'month_cost', arb: badMoney, send: (v) => send('POST', '/api/contracts', contractBody(w, { month_cost: v })) },
    { name: 'contract start_date', field: 'start_date', arb: badDate, send: (v) => send('POST', '/api/contracts', contractBody(w, { start_date: v })) },
    { name: 'contract end_date', field: 'end_date', arb: badDate, send: (v) => send('POST', '/api/contracts', contractBody(w, { end_date: v })) },
    {
      name: 'contract update month_cost',
      field: 'month_cost',
      arb: badMoney,
      send: (v) => send('PATCH', `/api/contracts/${contract.id}`, { month_cost: v, version: contract.version }),
    },
    {
      name: 'payment amount',
      field: 'amount',
      arb: fc.oneof(badMoney, fc.constant(0)),
      send: (v) => send('POST', '/api/payments', paymentBody(contract.id, { amount: v })),
    },
    {
      name: 'payment paid_on',
      field: 'paid_on',
      arb: badDate,
      send: (v) => send('POST', '/api/payments', paymentBody(contract.id, { amount: 1, paid_on: v })),
    },
    { name: 'payment month', field: 'month', arb: badMonth, send: (v) => send('POST', '/api/payments', paymentBody(contract.id, { amount: 1, month: v })) },
    {
      name: 'payment kind',
      field: 'kind',
      arb: fc.string({ maxLength: 10 }).filter((s) => !['REGISTER', 'MONTHLY', 'EXTRA'].includes(s)),
      send: (v) => send('POST', '/api/payments', paymentBody(contract.id, { amount: 1, kind: v })),
    },
    {
      name: 'payment update amount',
      field: 'amount',
      arb: badMoney,
      send: (v) => send('PATCH', `/api/payments/${payment.id}`, { amount: v, version: payment.version }),
    },
    {
      name: 'expense amount',
      field: 'amount',
      arb: fc.oneof(badMoney, fc.constant(0)),
      send: (v) => send('POST', '/api/expenses', { date: '2026-11-02', amount: v }),
    },
    { name: 'expense date', field: 'date', arb: badDate, send: (v) => send('POST', '/api/expenses', { date: v, amount: 100 }) },
    {
      name: 'expense update date',
      field: 'date',
      arb: badDate,
      send: (v) => send('PATCH', `/api/expenses/${expense.id}`, { date: v, version: expense.version }),
    },
  ];

  it.each(cases)('$name: every bad value is 400 naming $field; nothing changes', async ({ field, arb, send: attempt }) => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(arb, async (value) => {
        const res = await attempt(value);
        const body = expectError(res, 400, 'validation');
        expect(Object.keys(body.error.fields ?? {}), show(res)).toContain(field);
      }),
      { numRuns: RUNS },
    );
    expect(await snapshot()).toEqual(before);
  });

  it('unknown fields and read-only figures are refused on every money resource', async () => {
    const before = await snapshot();
    expectError(await send('POST', '/api/contracts', contractBody(w, { rest: 0 })), 400, 'validation', { rest: 'unknown-field' });
    expectError(await send('POST', '/api/contracts', contractBody(w, { total_paid: 1 })), 400, 'validation', { total_paid: 'unknown-field' });
    expectError(await send('POST', '/api/payments', paymentBody(contract.id, { student_id: 1 })), 400, 'validation', { student_id: 'unknown-field' });
    expectError(await send('PATCH', `/api/payments/${payment.id}`, { contract_id: contract.id, version: payment.version }), 400, 'validation', {
      contract_id: 'unknown-field',
    });
    expectError(await send('POST', '/api/expenses', { date: '2026-11-02', amount: 1, x: 1 }), 400, 'validation', { x: 'unknown-field' });
    expect(await snapshot()).toEqual(before);
  });

  it('junk list and report queries are 400, never 500', async () => {
    const key = fc.constantFrom(
      'rest_gte',
      'unpaid_month',
      'paid_month',
      'active_on',
      'class_id',
      'is_register_paid',
      'with_receipt',
      'start_date_lte',
      '_sort',
      'month',
      'year',
      'from',
    );
    const value = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('-1', '1.5', '9'.repeat(30), '2026-13', 'true ', '%', "'"));
    const url = fc.constantFrom('/api/contracts', '/api/payments', '/api/expenses', '/api/account/month', '/api/account/year', '/api/analytics/contracts');
    await fc.assert(
      fc.asyncProperty(url, key, value, async (u, k, v) => {
        const res = await send('GET', `${u}?${k}=${encodeURIComponent(v)}`);
        expect(res.statusCode, show(res)).toBeLessThan(500);
        if (res.statusCode !== 200) expectError(res, 400, 'validation');
      }),
      { numRuns: 60 },
    );
  });
});
