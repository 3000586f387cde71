// Who may call the money routes: ROOT and ADMIN everything; SECRETARY contracts and payments
// but not the account, expenses or analytics; a TEACHER none; no session 401. The expectation
// comes from the domain's can() and RESOURCE_AREA. And no route reads or writes across centres.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response } from 'light-my-request';
import { can, RESOURCE_AREA, type Action } from '../../../domain/permissions';
import type { Role } from '../../../domain/enums';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, expectStatus, json, show } from '../support/api-helpers';
import { contractBody, created, makeMoneyWorld, paymentBody, type MoneyWorld, type Row } from '../support/money-helpers';

type Who = Role | 'anonymous';
const WHO: Who[] = ['ROOT', 'ADMIN', 'SECRETARY', 'TEACHER', 'anonymous'];
const OK: Record<Action, number> = { list: 200, read: 200, create: 201, update: 200, delete: 204 };

describe.each(DATABASE_KINDS)('money access on %s', (kind) => {
  let t: TestApp;
  let w: MoneyWorld;
  const token: Partial<Record<Who, string>> = {};
  let month = 0;
  const nextMonth = () => `2026-${String((month++ % 10) + 1).padStart(2, '0')}`;
  let contract: Row;
  const send = (who: Who, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => t.request({ method, url, body, token: token[who] });
  const admin = async (method: 'POST' | 'GET', url: string, body?: unknown) => {
    const res = await send('ADMIN', method, url, body);
    expect(res.statusCode, show(res)).toBeLessThan(300);
    return json(res).data as Row;
  };

  /** A fresh row of each resource, made by ADMIN, for the caller to read, change or delete. */
  const fresh: Record<string, () => Promise<Row>> = {
    contracts: () => admin('POST', '/api/contracts', contractBody(w, { start_date: '2026-01-01', end_date: '2026-12-31' })),
    payments: () => admin('POST', '/api/payments', paymentBody(contract.id, { month: nextMonth(), amount: 100, with_receipt: false })),
    'expense-categories': () => admin('POST', '/api/expense-categories', { name: 'Λογαριασμοί' }),
    expenses: () => admin('POST', '/api/expenses', { date: '2026-11-01', amount: 1000, description: 'Χαρτί' }),
  };
  const bodyFor: Record<string, () => Row> = {
    contracts: () => contractBody(w, { start_date: '2026-01-01', end_date: '2026-12-31' }),
    payments: () => paymentBody(contract.id, { month: nextMonth(), amount: 100 }),
    'expense-categories': () => ({ name: 'Μισθοί' }),
    expenses: () => ({ date: '2026-11-02', amount: 500 }),
  };
  const change: Record<string, Row> = {
    contracts: { notes: 'αλλαγή' },
    payments: { description: 'αλλαγή' },
    'expense-categories': { name: 'Αλλαγή' },
    expenses: { description: 'αλλαγή' },
  };

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeMoneyWorld(t, 2);
    token.ROOT = w.token.ROOT;
    token.ADMIN = w.token.ADMIN;
    token.SECRETARY = w.token.SECRETARY;
    await admin('POST', '/api/teachers', {
      username: 'money-teacher',
      password: 'teacher-password-1',
      confirm_password: 'teacher-password-1',
      first_name: 'Σ',
      last_name: 'Κ',
    });
    token.TEACHER = (await t.signIn('money-teacher', 'teacher-password-1')).token;
    contract = await fresh.contracts!();
    // month_cost 12000 covers many payments of 100 per month.
  });
  afterAll(async () => {
    await t?.close();
  });

  function expectAnswer(res: Response, who: Who, allowed: boolean, ok: number) {
    if (who === 'anonymous') expectError(res, 401, 'unauthorized');
    else if (!allowed) expectError(res, 403, 'forbidden');
    else expectStatus(res, ok);
  }

  const crud = Object.keys(fresh).flatMap((name) =>
    (['list', 'read', 'create', 'update', 'delete'] as Action[]).flatMap((action) => WHO.map((who) => ({ name, action, who }))),
  );
  it.each(crud)('$action $name as $who', async ({ name, action, who }) => {
    const allowed = who !== 'anonymous' && can(who, RESOURCE_AREA[name]!, action);
    const row = action === 'list' || action === 'create' ? undefined : await fresh[name]!();
    const res =
      action === 'list'
        ? await send(who, 'GET', `/api/${name}`)
        : action === 'read'
          ? await send(who, 'GET', `/api/${name}/${row!.id}`)
          : action === 'create'
            ? await send(who, 'POST', `/api/${name}`, bodyFor[name]!())
            : action === 'update'
              ? await send(who, 'PATCH', `/api/${name}/${row!.id}`, { ...change[name], version: row!.version })
              : await send(who, 'DELETE', `/api/${name}/${row!.id}`);
    expectAnswer(res, who, allowed, OK[action]);
    if (row && action !== 'read') {
      // Refused callers changed nothing.
      const after = await send('ADMIN', 'GET', `/api/${name}/${row.id}`);
      if (!allowed) expect(json(after).data.version, show(after)).toBe(row.version);
    }
  });

  const reports = [
    { path: '/api/contracts/:id/status', url: () => `/api/contracts/${contract.id}/status`, area: 'contracts' },
    { path: '/api/payments/next-bill-number', url: () => '/api/payments/next-bill-number', area: 'payments' },
    { path: '/api/account/month', url: () => '/api/account/month?month=2026-11', area: 'account' },
    { path: '/api/account/year', url: () => '/api/account/year?year=2026', area: 'account' },
    { path: '/api/analytics/contracts', url: () => '/api/analytics/contracts?from=2026-01&to=2026-12', area: 'analytics' },
  ];
  it.each(reports.flatMap((r) => WHO.map((who) => ({ ...r, who }))))('GET $path as $who', async ({ url, area, who }) => {
    const allowed = who !== 'anonymous' && can(who, RESOURCE_AREA[area]!, 'read');
    expectAnswer(await send(who, 'GET', url()), who, allowed, 200);
  });

  it('the secretary may take payments but sees neither the account, the expenses nor the analytics', () => {
    expect(can('SECRETARY', RESOURCE_AREA.payments!, 'create')).toBe(true);
    expect(['account', 'expenses', 'analytics', 'expense-categories'].map((n) => can('SECRETARY', RESOURCE_AREA[n]!, 'read'))).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('another centre sees none of this one’s money and cannot point at its rows', async () => {
    const other = await t.createTenant('money-other');
    const as = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
      t.request({ method, url, body, token: other.admin.token, tenant: 'money-other' });
    const pay = await created(await send('ADMIN', 'POST', '/api/payments', paymentBody(contract.id, { month: '2026-12', amount: 500, with_receipt: true })));
    const expense = await fresh.expenses!();
    for (const url of [`/api/contracts/${contract.id}`, `/api/contracts/${contract.id}/status`, `/api/payments/${pay.id}`, `/api/expenses/${expense.id}`]) {
      expectError(await as('GET', url), 404, 'not-found');
    }
    expectError(await as('PATCH', `/api/contracts/${contract.id}`, { notes: 'x', version: contract.version }), 404, 'not-found');
    expectError(await as('DELETE', `/api/payments/${pay.id}`), 404, 'not-found');
    for (const name of ['contracts', 'payments', 'expenses']) expect(json(await as('GET', `/api/${name}`)).total, name).toBe(0);
    expectError(await as('POST', '/api/payments', paymentBody(contract.id, { month: '2026-12', amount: 100 })), 400, 'validation', { contract_id: 'invalid' });
    expectError(await as('POST', '/api/contracts', contractBody(w)), 400, 'validation', { student_id: 'invalid' });
    // Another centre numbers its own receipts.
    const student = await created(await as('POST', '/api/students', { first_name: 'Άλλος', last_name: 'Μαθητής' }));
    const theirs = await created(await as('POST', '/api/contracts', { ...contractBody(w), student_id: student.id, category_id: null }));
    await created(await as('POST', '/api/payments', paymentBody(theirs.id, { month: '2026-12', amount: 500, with_receipt: true, paid_on: '2026-12-05' })));
    const month = json(await as('GET', '/api/account/month?month=2026-12')).data;
    expect(month.income).toEqual({ with_receipt: 500, without_receipt: 0, total: 500 });
    expect(month.expected.total).toBe(12000);
    // A session of one centre presented to another is refused outright.
    expectError(await t.request({ url: '/api/contracts', token: w.token.ADMIN, tenant: 'money-other' }), 403, 'tenant-mismatch');
  });
});
