// The account and the analytics are kept per centre while its money stays as it was: a second
// request reads only the session and the centre's money revision (one round trip), and any
// write to what they show (a payment, an expense, a contract, a class's name) is in the very
// next answer, on both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { json, show } from '../support/api-helpers';
import { contractBody, created, makeMoneyWorld, paymentBody, type MoneyWorld, type Row } from '../support/money-helpers';

const YEAR = '/api/account/year?year=2026';
const MONTH = '/api/account/month?month=2026-09';
const ANALYTICS = '/api/analytics/contracts?from=2026-09&to=2027-06';

describe.each(DATABASE_KINDS)('reports kept while the money stays the same, on %s', (kind) => {
  let t: TestApp;
  let w: MoneyWorld;
  let contract: Row;

  beforeAll(async () => {
    t = await startApp(kind, { dbCounts: true });
    w = await makeMoneyWorld(t, 2);
    contract = await created(await t.request({ method: 'POST', url: '/api/contracts', token: w.token.ADMIN, body: contractBody(w) }));
  });
  afterAll(async () => {
    await t?.close();
  });

  const read = async (url: string) => {
    const res = await t.request({ url, token: w.token.ADMIN });
    expect(res.statusCode, show(res)).toBe(200);
    return { data: json(res).data, roundTrips: Number(res.headers['x-db-round-trips']) };
  };
  const write = async (method: 'POST' | 'PATCH', url: string, body: Row) => {
    const res = await t.request({ method, url, token: w.token.ADMIN, body });
    expect(res.statusCode, show(res)).toBeLessThan(300);
    return json(res).data as Row;
  };
  const september = (year: Row) => year.months.find((m: Row) => m.month === '2026-09');

  it('a report asked again is answered from what was kept, in one round trip', async () => {
    for (const url of [YEAR, MONTH, ANALYTICS]) {
      const first = await read(url);
      const again = await read(url);
      expect(again.data).toEqual(first.data);
      expect(again.roundTrips, url).toBe(1);
    }
  });

  it('a payment, an expense and a renamed class are in the next answer of each report', async () => {
    const before = { year: (await read(YEAR)).data, month: (await read(MONTH)).data, analytics: (await read(ANALYTICS)).data };
    await write('POST', '/api/payments', paymentBody(contract.id, { amount: 4000 }));
    const year = (await read(YEAR)).data;
    expect(september(year).income.total).toBe(september(before.year).income.total + 4000);
    expect((await read(MONTH)).data.income.total).toBe(before.month.income.total + 4000);
    const analytics = (await read(ANALYTICS)).data;
    expect(analytics.months[0].collected).toBe(before.analytics.months[0].collected + 4000);

    await write('POST', '/api/expenses', { date: '2026-09-10', amount: 2500, description: 'Μελάνια' });
    expect((await read(MONTH)).data.expenses.total).toBe(before.month.expenses.total + 2500);
    expect(september((await read(YEAR)).data).expenses.total).toBe(september(before.year).expenses.total + 2500);

    const klass = json(await t.request({ url: `/api/classes/${w.classes[0]!.id}`, token: w.token.ADMIN })).data;
    await write('PATCH', `/api/classes/${klass.id}`, { name: 'Γ΄ Λυκείου', version: klass.version });
    const names = (await read(ANALYTICS)).data.by_class.map((c: Row) => c.name);
    expect(names).toContain('Γ΄ Λυκείου');
    expect(names).not.toContain(klass.name);
  });

  it('a withdrawn contract stops owing in the next analytics', async () => {
    const other = await created(
      await t.request({ method: 'POST', url: '/api/contracts', token: w.token.ADMIN, body: contractBody(w, { student_id: w.students[1]!.id }) }),
    );
    const before = (await read(ANALYTICS)).data;
    const res = await t.request({
      method: 'POST',
      url: `/api/contracts/${other.id}/withdraw`,
      token: w.token.ADMIN,
      body: { on: '2026-10-05', reason: 'Μετακόμισε', version: other.version },
    });
    expect(res.statusCode, show(res)).toBeLessThan(300);
    const after = (await read(ANALYTICS)).data;
    const expected = (a: Row) => a.months.reduce((sum: number, m: Row) => sum + m.expected, 0);
    expect(expected(after)).toBeLessThan(expected(before));
  });
});
