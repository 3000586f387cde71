// docs/rules.md, Contracts and Account, through the API: contracts that end (withdrawn on a date,
// completed past their end), discounts, and "only due months count". Each case runs in a centre
// of its own, on a pretended date (FRONTIS_TODAY), and is checked through every figure that
// shows it: the contract's read and month-by-month status, the unpaid/paid filters, the
// account's month and year, and analytics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, expectStatus, json, show } from '../support/api-helpers';
import { created, type Row } from '../support/money-helpers';

/** The pretended date: December 2026 is due, January 2027 not yet. */
const TODAY = '2026-12-10';

interface Case {
  name: string;
  /** The contract (2026-09-01 to 2027-06-30, registration 50 €). */
  month_cost: number;
  discount_percent: number;
  /** MONTHLY payments made before any withdrawal: month -> amount. */
  paid: Record<string, number>;
  withdraw?: { on: string; reason: string };
  expect: {
    fee: number;
    status: string;
    total_cost: number;
    credit: number;
    rest: number;
    unpaid_months: string[];
    /** The months the status view lists (owed ones). */
    owed_months: number;
    /** The account's expected for 2026-12 and 2027-01. */
    expected_dec: number;
    expected_jan: number;
    /** Analytics' outstanding over the range (due months only). */
    outstanding: number;
  };
}

const REG = 5000;
const CASES: Case[] = [
  {
    name: 'an active contract without discount',
    month_cost: 10000,
    discount_percent: 0,
    paid: { '2026-09': 10000 },
    expect: {
      fee: 10000,
      status: 'ACTIVE',
      total_cost: REG + 10 * 10000,
      credit: 0,
      rest: REG + 9 * 10000,
      // January onwards is not due yet: not unpaid.
      unpaid_months: ['2026-10', '2026-11', '2026-12'],
      owed_months: 10,
      expected_dec: 10000,
      expected_jan: 10000,
      outstanding: REG + 3 * 10000,
    },
  },
  {
    name: 'a 15% discount, rounded to the cent (12.345 € less 15% = 104,93 €)',
    month_cost: 12345,
    discount_percent: 15,
    paid: { '2026-09': 10493, '2026-10': 10000 },
    expect: {
      fee: 10493,
      status: 'ACTIVE',
      total_cost: REG + 10 * 10493,
      credit: 0,
      rest: REG + 10 * 10493 - 20493,
      unpaid_months: ['2026-10', '2026-11', '2026-12'],
      owed_months: 10,
      expected_dec: 10493,
      expected_jan: 10493,
      outstanding: REG + 4 * 10493 - 20493,
    },
  },
  {
    name: 'withdrawn on 20 November, January paid in advance: November stays due, January becomes credit',
    month_cost: 10000,
    discount_percent: 0,
    paid: { '2026-09': 10000, '2027-01': 10000 },
    withdraw: { on: '2026-11-20', reason: 'Μετακόμισε' },
    expect: {
      fee: 10000,
      status: 'WITHDRAWN',
      total_cost: REG + 3 * 10000,
      credit: 10000,
      rest: REG + 2 * 10000,
      unpaid_months: ['2026-10', '2026-11'],
      owed_months: 3,
      expected_dec: 0,
      expected_jan: 0,
      outstanding: REG + 2 * 10000,
    },
  },
  {
    name: 'withdrawn with a 50% discount on the first day of a month: that month stays due in full',
    month_cost: 9001,
    discount_percent: 50,
    paid: { '2026-09': 4501 },
    withdraw: { on: '2026-10-01', reason: 'Οικονομικοί λόγοι' },
    expect: {
      fee: 4501,
      status: 'WITHDRAWN',
      total_cost: REG + 2 * 4501,
      credit: 0,
      rest: REG + 4501,
      unpaid_months: ['2026-10'],
      owed_months: 2,
      expected_dec: 0,
      expected_jan: 0,
      outstanding: REG + 4501,
    },
  },
];

describe.each(DATABASE_KINDS)('contracts that end, discounts and due months on %s', (kind) => {
  let t: TestApp;
  let seq = 0;

  /** A centre of its own with an admin, a secretary, a teacher, a class, a student and her guardian. */
  async function centre() {
    const slug = `life${kind.slice(0, 2)}${seq++}${Date.now().toString(36)}`;
    const { admin } = await t.createTenant(slug);
    const secretary = await t.createUser(admin.token, { role: 'SECRETARY', tenant: slug });
    const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, token = admin.token) =>
      t.request({ method, url, body, token, tenant: slug });
    const password = 'teacher-password-1';
    await created(await send('POST', '/api/teachers', { username: `t-${slug}`, password, confirm_password: password, first_name: 'Σ', last_name: 'Κ' }));
    const teacher = { token: (await t.signIn(`t-${slug}`, password, slug)).token };
    const klass = await created(await send('POST', '/api/classes', { name: 'Γ΄ Γυμνασίου' }));
    const category = await created(await send('POST', '/api/contract-categories', { name: 'Ετήσιο' }));
    const student = await created(await send('POST', '/api/students', { first_name: 'Ζωή', last_name: 'Αλεξίου', class_ids: [klass.id] }));
    const guardian = await created(
      await send('POST', '/api/guardians', { first_name: 'Ευάγγελος', last_name: 'Σπυρόπουλος', relation: 'FATHER', student_ids: [student.id] }),
    );
    const contract = async (over: Row = {}) =>
      created(
        await send('POST', '/api/contracts', {
          student_id: student.id,
          payer_guardian_id: guardian.id,
          category_id: category.id,
          start_date: '2026-09-01',
          end_date: '2027-06-30',
          register_cost: REG,
          month_cost: 10000,
          ...over,
        }),
      );
    const pay = async (contractId: number, month: string, amount: number) =>
      send('POST', '/api/payments', { contract_id: contractId, kind: 'MONTHLY', month, amount, method: 'CASH', paid_on: '2026-09-20' });
    return { slug, admin, secretary, teacher, send, klass, category, student, guardian, contract, pay };
  }

  beforeAll(async () => {
    t = await startApp(kind, { today: TODAY });
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(CASES)('$name: every figure agrees', async (c) => {
    const x = await centre();
    let row = await x.contract({ month_cost: c.month_cost, discount_percent: c.discount_percent });
    for (const [month, amount] of Object.entries(c.paid)) expect((await x.pay(row.id, month, amount)).statusCode).toBe(201);
    if (c.withdraw) {
      const res = await x.send('POST', `/api/contracts/${row.id}/withdraw`, c.withdraw, x.secretary.token);
      expectStatus(res, 200);
      expect(json(res).data).toMatchObject({ status: 'WITHDRAWN', withdrawn_on: c.withdraw.on, withdrawal_reason: c.withdraw.reason });
    }
    row = json(await x.send('GET', `/api/contracts/${row.id}`)).data as Row;
    const e = c.expect;
    expect({
      status: row.status,
      total_cost: row.total_cost,
      credit: row.credit,
      rest: row.rest,
      unpaid_months: row.unpaid_months,
      total_paid: row.total_paid,
    }).toEqual({
      status: e.status,
      total_cost: e.total_cost,
      credit: e.credit,
      rest: e.rest,
      unpaid_months: e.unpaid_months,
      total_paid: Object.values(c.paid).reduce((a, b) => a + b, 0),
    });

    // The month-by-month status: each owed month at the fee, nothing after a withdrawal.
    const status = json(await x.send('GET', `/api/contracts/${row.id}/status`)).data as Row;
    const monthly = (status.lines as Row[]).filter((l) => l.kind === 'MONTHLY');
    expect(monthly).toHaveLength(e.owed_months);
    for (const line of monthly) expect(line.owed, line.month).toBe(e.fee);
    expect({ total_cost: status.total_cost, rest: status.rest, credit: status.credit }).toEqual({ total_cost: e.total_cost, rest: e.rest, credit: e.credit });

    // The unpaid filter counts due months only; the paid filter never lists a month no longer owed.
    const ids = async (query: string) => (json(await x.send('GET', `/api/contracts?${query}`)).data as Row[]).map((r) => r.id);
    for (const month of ['2026-10', '2026-11', '2026-12', '2027-01', '2027-03']) {
      expect(await ids(`unpaid_month=${month}`), `unpaid ${month}`).toEqual(e.unpaid_months.includes(month) ? [row.id] : []);
    }
    const owesJanuary = e.owed_months === 10;
    expect(await ids('paid_month=2027-01'), 'paid 2027-01').toEqual(owesJanuary && c.paid['2027-01'] ? [row.id] : []);
    expect(await ids(`status=${e.status}`)).toEqual([row.id]);

    // The account: expected is the fee, and nothing after a withdrawal.
    const dec = json(await x.send('GET', '/api/account/month?month=2026-12')).data as Row;
    expect(dec.expected.total).toBe(e.expected_dec);
    const year = json(await x.send('GET', '/api/account/year?year=2027')).data as Row;
    expect(year.months[0].expected.total).toBe(e.expected_jan);
    expect(year.totals.expected.total).toBe(owesJanuary ? 6 * e.fee : 0);

    // Analytics: outstanding and the rate over due months only; later months say they are not due.
    const a = json(await x.send('GET', '/api/analytics/contracts?from=2026-09&to=2027-06')).data as Row;
    expect(a.due_until).toBe('2026-12');
    const byMonth = Object.fromEntries((a.months as Row[]).map((m) => [m.month, m]));
    expect(byMonth['2026-12']!.due).toBe(true);
    expect(byMonth['2027-01']).toMatchObject({ due: false, outstanding: 0, collection_rate: null, expected: e.expected_jan });
    expect(byMonth['2027-01']!.collected).toBe(owesJanuary ? (c.paid['2027-01'] ?? 0) : 0);
    const dueOutstanding = (a.months as Row[]).reduce((n, m) => n + m.outstanding, 0);
    expect(dueOutstanding).toBe(e.outstanding);
    expect(a.by_category).toEqual([
      { id: x.category.id, name: 'Ετήσιο', expected: e.outstanding + sumDuePaid(c), collected: sumDuePaid(c), outstanding: e.outstanding },
    ]);
    expect(a.by_class).toEqual([
      { id: x.klass.id, name: 'Γ΄ Γυμνασίου', expected: e.outstanding + sumDuePaid(c), collected: sumDuePaid(c), outstanding: e.outstanding },
    ]);
  });

  /** What came in for the case's owed months up to the pretended date. */
  function sumDuePaid(c: Case) {
    const owedUntil = c.withdraw ? c.withdraw.on.slice(0, 7) : '2027-06';
    const last = owedUntil < TODAY.slice(0, 7) ? owedUntil : TODAY.slice(0, 7);
    return Object.entries(c.paid).reduce((n, [m, v]) => (m <= last ? n + v : n), 0);
  }

  it('a withdrawn contract refuses payments for later months, is in the history, and only an ADMIN undoes it', async () => {
    const x = await centre();
    const row = await x.contract();
    const withdraw = (token: string, body: unknown = { on: '2026-11-05', reason: 'Σταμάτησε' }) =>
      x.send('POST', `/api/contracts/${row.id}/withdraw`, body, token);
    expectError(await withdraw(x.teacher.token), 403, 'forbidden');
    expectStatus(await withdraw(x.secretary.token), 200);
    expectError(await withdraw(x.admin.token), 409, 'conflict');
    // December is no longer owed.
    expectError(await x.pay(row.id, '2026-12', 100), 409, 'conflict');
    expect((await x.pay(row.id, '2026-11', 10000)).statusCode).toBe(201);

    const reinstate = (token: string) => x.send('POST', `/api/contracts/${row.id}/reinstate`, {}, token);
    expectError(await reinstate(x.teacher.token), 403, 'forbidden');
    expectError(await reinstate(x.secretary.token), 403, 'forbidden');
    let res = await reinstate(x.admin.token);
    expectStatus(res, 200);
    expect(json(res).data).toMatchObject({ status: 'ACTIVE', withdrawn_on: null, withdrawal_reason: null, total_cost: REG + 10 * 10000 });
    expectError(await reinstate(x.admin.token), 409, 'conflict');
    res = await x.pay(row.id, '2026-12', 10000);
    expect(res.statusCode, show(res)).toBe(201);

    const history = json(await x.send('GET', `/api/history?entity=contracts&entity_id=${row.id}`)).data as Row[];
    const changes = history.filter((h) => h.action === 'update').map((h) => h.changes.status);
    expect(changes).toEqual(
      expect.arrayContaining([
        { old: 'ACTIVE', new: 'WITHDRAWN' },
        { old: 'WITHDRAWN', new: 'ACTIVE' },
      ]),
    );
  });

  it.each([
    { body: {}, field: 'on' },
    { body: { on: '2026-11-05' }, field: 'reason' },
    { body: { on: '2026-11-05', reason: '   ' }, field: 'reason' },
    { body: { on: '2026-11-05', reason: 'x'.repeat(501) }, field: 'reason' },
    { body: { on: '2026-02-30', reason: 'x' }, field: 'on' },
    { body: { on: '5/11/2026', reason: 'x' }, field: 'on' },
    { body: { on: 20261105, reason: 'x' }, field: 'on' },
    { body: { on: '2026-08-31', reason: 'x' }, field: 'on' },
    { body: { on: '2027-07-01', reason: 'x' }, field: 'on' },
    { body: { on: '2026-11-05', reason: 'x', status: 'ACTIVE' }, field: 'status' },
  ])('withdrawing with $body is 400 naming $field, and changes nothing', async ({ body, field }) => {
    const x = await centre();
    const row = await x.contract();
    const res = await x.send('POST', `/api/contracts/${row.id}/withdraw`, body, x.secretary.token);
    expectError(res, 400, 'validation');
    expect(Object.keys(json(res).error.fields ?? {})).toContain(field);
    expect(json(res).error.message).toBeTruthy();
    expect((json(await x.send('GET', `/api/contracts/${row.id}`)).data as Row).status).toBe('ACTIVE');
  });

  it("another centre's contract is not found; a missing one is 404", async () => {
    const x = await centre();
    const y = await centre();
    const theirs = await y.contract();
    expectError(await x.send('POST', `/api/contracts/${theirs.id}/withdraw`, { on: '2026-11-05', reason: 'x' }), 404, 'not-found');
    expectError(await x.send('POST', `/api/contracts/${theirs.id}/reinstate`, {}), 404, 'not-found');
    expectError(await x.send('POST', '/api/contracts/999999/withdraw', { on: '2026-11-05', reason: 'x' }), 404, 'not-found');
    expect((json(await y.send('GET', `/api/contracts/${theirs.id}`)).data as Row).status).toBe('ACTIVE');
  });

  it('a student who leaves: her contracts running on the date are withdrawn at once', async () => {
    const x = await centre();
    const running = await x.contract();
    const other = await x.contract({ start_date: '2026-09-01', end_date: '2027-06-30', month_cost: 3000 });
    const ended = await x.contract({ start_date: '2026-06-01', end_date: '2026-07-31' });
    const res = await x.send('POST', '/api/contracts/withdraw', { student_id: x.student.id, on: '2026-12-01', reason: 'Έφυγε' }, x.secretary.token);
    expectStatus(res, 200);
    expect((json(res).data as Row[]).map((r) => r.id).sort()).toEqual([running.id, other.id].sort());
    const statuses = json(await x.send('GET', `/api/contracts?student_id=${x.student.id}&_sort=id`)).data as Row[];
    expect(statuses.map((r) => [r.id, r.status])).toEqual([
      [running.id, 'WITHDRAWN'],
      [other.id, 'WITHDRAWN'],
      [ended.id, 'COMPLETED'],
    ]);
    expectError(
      await x.send('POST', '/api/contracts/withdraw', { student_id: x.student.id, on: '2026-12-01', reason: 'x' }, x.teacher.token),
      403,
      'forbidden',
    );
  });

  it('a contract past its end reads COMPLETED, and the status filter finds it', async () => {
    const x = await centre();
    const ended = await x.contract({ start_date: '2026-01-01', end_date: '2026-11-30' });
    const running = await x.contract();
    const ids = async (q: string) => (json(await x.send('GET', `/api/contracts?${q}`)).data as Row[]).map((r) => r.id);
    expect(await ids('status=COMPLETED')).toEqual([ended.id]);
    expect(await ids('status=ACTIVE')).toEqual([running.id]);
    expectError(await x.send('POST', `/api/contracts/${ended.id}/withdraw`, { on: '2026-11-05', reason: 'x' }), 409, 'conflict');
  });

  it("the contracts list finds a contract by the student's and the payer's name, accent- and case-blind, also after a rename", async () => {
    const x = await centre();
    const row = await x.contract();
    const found = async (q: string) => (json(await x.send('GET', `/api/contracts?q=${encodeURIComponent(q)}`)).data as Row[]).map((r) => r.id);
    expect(await found('ζωη αλεξιου')).toEqual([row.id]);
    expect(await found('ΣΠΥΡΟΠΟΥΛΟΣ')).toEqual([row.id]);
    expect(await found('Ευαγγελος')).toEqual([row.id]);
    expect(await found('Παπαδάκης')).toEqual([]);
    const student = json(await x.send('GET', `/api/students/${x.student.id}`)).data as Row;
    expectStatus(await x.send('PATCH', `/api/students/${x.student.id}`, { last_name: 'Παπαδάκη', version: student.version }), 200);
    expect(await found('παπαδακη')).toEqual([row.id]);
    expect(await found('αλεξιου')).toEqual([]);
  });
});

describe.each(DATABASE_KINDS)('what is due moves with the calendar on %s', (kind) => {
  let t: TestApp;
  afterAll(async () => {
    await t?.close();
  });

  it('the same contract, read on a later date, has more unpaid months; nothing was rewritten', async () => {
    t = await startApp(kind, { today: '2027-02-01' });
    const root = (await t.signIn(t.root.username, t.root.password)).token;
    const admin = await t.createUser(root, { role: 'ADMIN' });
    const send = (method: 'GET' | 'POST', url: string, body?: unknown) => t.request({ method, url, body, token: admin.token });
    const student = await created(await send('POST', '/api/students', { first_name: 'Άννα', last_name: 'Ρήγα' }));
    const row = await created(
      await send('POST', '/api/contracts', { student_id: student.id, start_date: '2026-11-15', end_date: '2027-06-30', register_cost: 0, month_cost: 8000 }),
    );
    // On the first day of February, February is due.
    expect(row.unpaid_months).toEqual(['2026-11', '2026-12', '2027-01', '2027-02']);
    expect(row.due_months).toBe(4);
    // what those four months owe
    expect(row.unpaid_amount).toBe(4 * 8000);
    const ids = async (q: string) => (json(await send('GET', `/api/contracts?${q}`)).data as Row[]).map((r) => r.id);
    expect(await ids('unpaid_month=2027-02')).toEqual([row.id]);
    expect(await ids('unpaid_month=2027-03')).toEqual([]);
    // The stored row is the same whatever the date: the contract's version did not move.
    expect((json(await send('GET', `/api/contracts/${row.id}`)).data as Row).version).toBe(row.version);
    // A part paid towards the first month: the list of February's unpaid says what is left.
    await created(
      await send('POST', '/api/payments', { contract_id: row.id, kind: 'MONTHLY', month: '2026-11', amount: 3000, method: 'CASH', paid_on: '2027-01-10' }),
    );
    const listed = (json(await send('GET', '/api/contracts?unpaid_month=2027-02')).data as Row[]).find((r) => r.id === row.id);
    expect([listed?.unpaid_months, listed?.unpaid_amount]).toEqual([['2026-11', '2026-12', '2027-01', '2027-02'], 4 * 8000 - 3000]);
  });
});
