// docs/rules.md, Contracts, through the API: a contract's months from start to end, the registration in the start
// month, partial payments, extra charges, overpayment refused (409, nothing changed, also for 20
// payments sent at once), corrections and deletions moving every figure in one go and recorded
// in the history; the contract's month-by-month status; receipts unique per centre.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContractTerms, contractFigures, type PaymentKind } from '../../../domain/index';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, expectStatus, json } from '../support/api-helpers';
import { contractBody, created, makeMoneyWorld, paymentBody, type MoneyWorld, type Row } from '../support/money-helpers';

/** A date after every contract here, so all their months are due (what is not yet due: money-lifecycle.test.ts). */
const TODAY = '2027-12-15';

describe.each(DATABASE_KINDS)('contracts and payments on %s', (kind) => {
  let t: TestApp;
  let w: MoneyWorld;
  const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, token = w.token.ADMIN) => t.request({ method, url, body, token });
  const getContract = async (id: number) => json(await send('GET', `/api/contracts/${id}`)).data as Row;
  const newContract = async (over: Row = {}) => created(await send('POST', '/api/contracts', contractBody(w, over)));
  const pay = async (contractId: number, over: Row = {}) => created(await send('POST', '/api/payments', paymentBody(contractId, over)));
  const paymentsOf = async (contractId: number) => json(await send('GET', `/api/payments?contract_id=${contractId}&_end=200`)).data as Row[];

  /** The contract's figures as the API shows them equal the domain's reference over its payments. */
  async function expectFiguresAsDomain(contractId: number) {
    const c = await getContract(contractId);
    const paid = (await paymentsOf(contractId)).map((p) => ({ kind: p.kind as PaymentKind, month: p.month, amount: p.amount }));
    const f = contractFigures(c as ContractTerms, paid, TODAY);
    expect({ total_cost: c.total_cost, total_paid: c.total_paid, rest: c.rest, is_register_paid: c.is_register_paid, unpaid_months: c.unpaid_months }).toEqual({
      total_cost: f.total_cost,
      total_paid: f.total_paid,
      rest: f.rest,
      is_register_paid: f.is_register_paid,
      unpaid_months: f.unpaid_months,
    });
    return c;
  }

  beforeAll(async () => {
    t = await startApp(kind, { today: TODAY });
    w = await makeMoneyWorld(t, 4);
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    { start: '2026-09-15', end: '2027-06-30', months: 10 },
    { start: '2026-09-30', end: '2026-09-30', months: 1 },
    { start: '2026-01-31', end: '2026-02-01', months: 2 },
    { start: '2026-11-15', end: '2027-02-14', months: 4 },
  ])('a contract from $start to $end covers $months months: total = register + month x $months', async ({ start, end, months }) => {
    const c = await newContract({ start_date: start, end_date: end, register_cost: 5000, month_cost: 12000 });
    expect(c.total_cost).toBe(5000 + 12000 * months);
    expect(c.total_paid).toBe(0);
    expect(c.rest).toBe(c.total_cost);
    expect(c.is_register_paid).toBe(false);
    expect(c.unpaid_months).toHaveLength(months);
    expect(c.unpaid_months[0]).toBe(start.slice(0, 7));
    expect(c.unpaid_months.at(-1)).toBe(end.slice(0, 7));
    expect(c.student).toEqual({ id: w.students[0]!.id, name: `${w.students[0]!.first_name} Δοκιμής` });
    expect(c.category).toEqual({ id: w.category.id, name: 'Ετήσιο' });
  });

  it('registration: partial payments add up; paid once they reach register_cost; one cent more is 409 and changes nothing', async () => {
    const c = await newContract();
    await pay(c.id, { kind: 'REGISTER', month: null, amount: 2000 });
    let now = await getContract(c.id);
    expect([now.is_register_paid, now.total_paid, now.rest]).toEqual([false, 2000, c.total_cost - 2000]);
    await pay(c.id, { kind: 'REGISTER', month: null, amount: 3000, with_receipt: false });
    now = await getContract(c.id);
    expect([now.is_register_paid, now.total_paid]).toEqual([true, 5000]);
    const body = expectError(await send('POST', '/api/payments', paymentBody(c.id, { kind: 'REGISTER', month: null, amount: 1 })), 409, 'conflict', {
      amount: 'too-large',
    });
    expect(body.error.details.owed).toBe(0);
    expect(await getContract(c.id)).toEqual(now);
    await expectFiguresAsDomain(c.id);
  });

  it('a month is paid when its MONTHLY payments reach month_cost; more than what is left is 409 naming what is owed', async () => {
    const c = await newContract();
    await pay(c.id, { month: '2026-10', amount: 5000 });
    expect((await getContract(c.id)).unpaid_months).toContain('2026-10');
    const over = expectError(await send('POST', '/api/payments', paymentBody(c.id, { month: '2026-10', amount: 7001 })), 409, 'conflict');
    expect(over.error.details.owed).toBe(7000);
    await pay(c.id, { month: '2026-10', amount: 7000 });
    const now = await getContract(c.id);
    expect(now.unpaid_months).not.toContain('2026-10');
    expect(now.unpaid_months).toHaveLength(9);
    expect(now.rest).toBe(c.total_cost - 12000);
    expectError(await send('POST', '/api/payments', paymentBody(c.id, { month: '2026-10', amount: 1 })), 409, 'conflict', { amount: 'too-large' });
    // A month outside the contract owes nothing: refused as a wrong month.
    expectError(await send('POST', '/api/payments', paymentBody(c.id, { month: '2027-07', amount: 100 })), 400, 'validation', { month: 'invalid-option' });
    expectError(await send('POST', '/api/payments', paymentBody(c.id, { month: null })), 400, 'validation', { month: 'required' });
    expectError(await send('POST', '/api/payments', paymentBody(c.id, { kind: 'EXTRA', month: '2026-10' })), 400, 'validation', { month: 'invalid' });
    await expectFiguresAsDomain(c.id);
  });

  it('an EXTRA charge raises the total and is paid with it: rest unchanged, and it shows in the status', async () => {
    const c = await newContract();
    const extra = await pay(c.id, { kind: 'EXTRA', month: null, amount: 3000, description: 'Βιβλία' });
    const now = await getContract(c.id);
    expect([now.total_cost, now.total_paid, now.rest, now.extra_total]).toEqual([c.total_cost + 3000, 3000, c.rest, 3000]);
    const status = json(await send('GET', `/api/contracts/${c.id}/status`)).data;
    expect(status.extras.map((e: Row) => [e.id, e.amount])).toEqual([[extra.id, 3000]]);
    expect(status.total_cost).toBe(now.total_cost);
  });

  it('status: the registration in the start month, then every month with owed, paid and left', async () => {
    const c = await newContract({ start_date: '2026-09-10', end_date: '2026-11-30', register_cost: 4000, month_cost: 10000 });
    await pay(c.id, { kind: 'REGISTER', month: null, amount: 4000 });
    await pay(c.id, { month: '2026-09', amount: 10000 });
    await pay(c.id, { month: '2026-10', amount: 2500 });
    const res = await send('GET', `/api/contracts/${c.id}/status`, undefined, w.token.SECRETARY);
    expectStatus(res, 200);
    expect(json(res).data.lines).toEqual([
      { kind: 'REGISTER', month: '2026-09', owed: 4000, paid: 4000, left: 0 },
      { kind: 'MONTHLY', month: '2026-09', owed: 10000, paid: 10000, left: 0 },
      { kind: 'MONTHLY', month: '2026-10', owed: 10000, paid: 2500, left: 7500 },
      { kind: 'MONTHLY', month: '2026-11', owed: 10000, paid: 0, left: 10000 },
    ]);
    expectError(await send('GET', '/api/contracts/999999/status'), 404, 'not-found');
  });

  it('correcting and deleting a payment moves every figure at once and is recorded in the history', async () => {
    const c = await newContract();
    const p = await pay(c.id, { month: '2026-11', amount: 12000, with_receipt: false });
    expect((await getContract(c.id)).unpaid_months).not.toContain('2026-11');
    const patched = await send('PATCH', `/api/payments/${p.id}`, { amount: 6000, version: p.version });
    expectStatus(patched, 200);
    let now = await expectFiguresAsDomain(c.id);
    expect([now.total_paid, now.unpaid_months.includes('2026-11')]).toEqual([6000, true]);
    // Correcting it up to the month's cost is fine (its own amount does not count against it), beyond is 409.
    expectError(await send('PATCH', `/api/payments/${p.id}`, { amount: 12001, version: p.version + 1 }), 409, 'conflict');
    expectStatus(await send('PATCH', `/api/payments/${p.id}`, { amount: 12000, version: p.version + 1 }), 200);
    // Turning it into the registration: the month goes with the kind.
    const moved = json(await send('PATCH', `/api/payments/${p.id}`, { kind: 'REGISTER', amount: 5000, version: p.version + 2 })).data;
    expect([moved.kind, moved.month]).toEqual(['REGISTER', null]);
    now = await expectFiguresAsDomain(c.id);
    expect([now.is_register_paid, now.total_paid]).toEqual([true, 5000]);
    expectStatus(await send('DELETE', `/api/payments/${p.id}`), 204);
    now = await expectFiguresAsDomain(c.id);
    expect([now.total_paid, now.rest, now.is_register_paid]).toEqual([0, c.total_cost, false]);
    const history = json(await send('GET', `/api/history?entity=payments&entity_id=${p.id}`)).data as Row[];
    expect(history.map((h) => h.action).sort()).toEqual(['create', 'delete', 'update', 'update', 'update']);
    expect(history.find((h) => h.action === 'update' && h.changes.amount?.new === 6000)?.changes.amount).toEqual({ old: 12000, new: 6000 });
  });

  it('terms that payments already exceed are refused (409) and nothing changes; a contract with payments is not deleted', async () => {
    const c = await newContract();
    await pay(c.id, { month: '2027-06', amount: 12000 });
    expectError(await send('PATCH', `/api/contracts/${c.id}`, { month_cost: 10000, version: c.version }), 409, 'conflict');
    expectError(await send('PATCH', `/api/contracts/${c.id}`, { end_date: '2027-05-31', version: c.version }), 409, 'conflict');
    expect(await getContract(c.id)).toMatchObject({ month_cost: 12000, end_date: '2027-06-30', version: c.version });
    const raised = json(await send('PATCH', `/api/contracts/${c.id}`, { month_cost: 13000, version: c.version })).data;
    expect(raised.unpaid_months).toContain('2027-06');
    expect(raised.total_cost).toBe(5000 + 13000 * 10);
    expectError(await send('DELETE', `/api/contracts/${c.id}`), 409, 'in-use');
    expectError(await send('POST', '/api/contracts', contractBody(w, { end_date: '2026-09-01' })), 400, 'validation', { end_date: 'too-small' });
  });

  it('a payment with receipt takes the next number of the centre’s series, offered beforehand; one without carries none', async () => {
    const c = await newContract();
    const before = json(await send('GET', '/api/payments/next-bill-number', undefined, w.token.SECRETARY)).data.bill_number as string;
    expect(before).toMatch(/^\S+-\d+$/);
    const first = await pay(c.id, { month: '2026-09', amount: 100 });
    expect(first.bill_number).toBe(before);
    // A number is not typed: it is given.
    expectError(await send('POST', '/api/payments', paymentBody(c.id, { month: '2026-09', amount: 100, bill_number: 'Α-7' })), 400, 'validation', {
      bill_number: 'unknown-field',
    });
    const [series, number] = before.split('-');
    expect((await pay(c.id, { month: '2026-09', amount: 100 })).bill_number).toBe(`${series}-${Number(number) + 1}`);
    expect(json(await send('GET', '/api/payments/next-bill-number')).data.bill_number).toBe(`${series}-${Number(number) + 2}`);
    // Without receipt: no number, as many as wanted.
    await pay(c.id, { month: '2026-09', amount: 100, with_receipt: false });
    await pay(c.id, { month: '2026-09', amount: 100, with_receipt: false });
    const list = json(await send('GET', `/api/payments?contract_id=${c.id}&with_receipt=false`));
    expect(list.data.map((p: Row) => p.bill_number)).toEqual([null, null]);
    expect(list.totals).toEqual({ amount: 200, with_receipt: 0, without_receipt: 200 });
  });

  it("the signed-in answers name the staff's centre, for its receipts", async () => {
    const { admin } = await t.createTenant('receiptcentre', 'Φροντιστήριο Η Γνώση');
    const secretary = await t.createUser(admin.token, { role: 'SECRETARY', tenant: 'receiptcentre' });
    const login = await t.request({
      method: 'POST',
      url: '/login',
      tenant: 'receiptcentre',
      body: { username: secretary.username, password: secretary.password, tenant: 'receiptcentre' },
    });
    expectStatus(login, 200);
    expect(json(login).user.tenantName).toBe('Φροντιστήριο Η Γνώση');
    const me = await t.request({ method: 'GET', url: '/me', tenant: 'receiptcentre', token: secretary.token });
    expect(json(me).data.user).toMatchObject({ username: secretary.username, role: 'SECRETARY', tenantName: 'Φροντιστήριο Η Γνώση' });
    // Each centre's staff see their own centre's name.
    const demoName = json(await send('GET', '/me', undefined, w.token.SECRETARY)).data.user.tenantName;
    expect(demoName).toEqual(expect.any(String));
    expect(demoName).not.toBe('Φροντιστήριο Η Γνώση');
  });

  it('20 payments sent at once for one month that together exceed it: exactly the ones that fit succeed', async () => {
    const c = await newContract({ month_cost: 12000 });
    const results = await Promise.all(Array.from({ length: 20 }, () => send('POST', '/api/payments', paymentBody(c.id, { month: '2026-12', amount: 1000 }))));
    const codes = results.map((r) => r.statusCode);
    expect(
      codes.filter((s) => s === 201),
      codes.join(','),
    ).toHaveLength(12);
    expect(
      codes.filter((s) => s === 409),
      codes.join(','),
    ).toHaveLength(8);
    for (const r of results.filter((x) => x.statusCode === 409)) expectError(r, 409, 'conflict', { amount: 'too-large' });
    const now = await expectFiguresAsDomain(c.id);
    expect(now.total_paid).toBe(12000);
    expect(now.unpaid_months).not.toContain('2026-12');
    // The refused ones gave their receipt numbers back: the twelve are consecutive.
    const numbers = results
      .filter((r) => r.statusCode === 201)
      .map((r) => Number(String(json(r).data.bill_number).split('-')[1]))
      .sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => numbers[0]! + i));
  });

  it('students show their number of contracts and the first and last contract dates', async () => {
    const s = w.students[3]!;
    await newContract({ student_id: s.id, start_date: '2025-09-01', end_date: '2026-06-30' });
    await newContract({ student_id: s.id, start_date: '2026-09-01', end_date: '2027-06-30' });
    const row = json(await send('GET', `/api/students?id=${s.id}`)).data[0];
    expect([row.number_of_contracts, row.first_contract_date, row.last_contract_date]).toEqual([2, '2025-09-01', '2026-09-01']);
    const none = json(await send('GET', `/api/students?id=${w.students[2]!.id}`)).data[0];
    expect([none.number_of_contracts, none.first_contract_date, none.last_contract_date]).toEqual([0, null, null]);
    const counts = json(await send('GET', '/api/students?_sort=number_of_contracts&_order=desc')).data.map((r: Row) => r.number_of_contracts);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(counts.at(-1)).toBe(0);
  });
});
