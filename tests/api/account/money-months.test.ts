// The money the database keeps by contract and month (what the account and the analytics read)
// after generated mixes of payments, corrections, deletions, contract changes and payments sent
// at once: the kept rows, the account's income and the analytics' collected figures all equal
// a computation from scratch over the payments and contracts the API lists.
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContractTerms, contractMonths, monthOf, monthRange, monthsFromTo } from '../../../domain/index';
import '../support/fast-check-seed';
import { json, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { created, makeMoneyWorld, type MoneyWorld, type Row } from '../support/money-helpers';
import { queryRows } from '../../../server/db/statements';

/** Months contracts may start in (2026-01 … 2027-01) and the analytics ranges checked. */
const FIRST_MONTH = '2026-01';
const START_MONTHS = monthsFromTo(FIRST_MONTH, '2027-01');
const RANGES = [
  { from: '2026-01', to: '2027-12' },
  { from: '2026-05', to: '2026-09' },
];
const YEARS = ['2026', '2027'];

const day = (month: string, d: number) => `${month}-${String(d).padStart(2, '0')}`;
const lastDay = (month: string) => {
  const next = new Date(`${monthRange(month).next}T00:00:00Z`);
  next.setUTCDate(0);
  return next.toISOString().slice(0, 10);
};

const contractTerms = fc.record({
  student: fc.nat({ max: 2 }),
  category: fc.boolean(),
  start: fc.constantFrom(...START_MONTHS),
  startDay: fc.integer({ min: 1, max: 28 }),
  months: fc.integer({ min: 1, max: 6 }),
  register_cost: fc.constantFrom(0, 2000, 5000),
  month_cost: fc.constantFrom(3000, 8000),
  with_receipt: fc.boolean(),
});
const paymentDraft = fc.record({
  contract: fc.nat(),
  kind: fc.constantFrom('MONTHLY', 'MONTHLY', 'REGISTER', 'EXTRA'),
  month: fc.nat({ max: 6 }),
  amount: fc.constantFrom(1000, 1500, 2500, 3000, 8000),
  paidIn: fc.nat({ max: 20 }),
  paidDay: fc.integer({ min: 1, max: 28 }),
  receipt: fc.boolean(),
});
const paymentChange = fc.record({
  payment: fc.nat(),
  change: fc.oneof(
    fc.record({ amount: fc.constantFrom(500, 1000, 3000, 8000) }),
    fc.record({ paidIn: fc.nat({ max: 20 }), paidDay: fc.integer({ min: 1, max: 28 }) }),
    fc.record({ receipt: fc.boolean() }),
    fc.record({ month: fc.nat({ max: 6 }) }),
    fc.record({ kind: fc.constantFrom('MONTHLY', 'REGISTER', 'EXTRA') }),
  ),
});
const contractChange = fc.record({
  contract: fc.nat(),
  change: fc.oneof(
    fc.record({ startShift: fc.integer({ min: -2, max: 2 }), startDay: fc.integer({ min: 1, max: 28 }) }),
    fc.record({ endShift: fc.integer({ min: -2, max: 2 }) }),
    fc.record({ register_cost: fc.constantFrom(0, 1000, 5000) }),
    fc.record({ month_cost: fc.constantFrom(2000, 8000, 9000) }),
    fc.record({ with_receipt: fc.boolean() }),
  ),
});
const step = fc.oneof(
  fc.record({ op: fc.constant('contract' as const), terms: contractTerms }),
  fc.record({ op: fc.constant('pay' as const), draft: paymentDraft }),
  fc.record({ op: fc.constant('pay' as const), draft: paymentDraft }),
  fc.record({ op: fc.constant('edit' as const), edit: paymentChange }),
  fc.record({ op: fc.constant('delete' as const), payment: fc.nat() }),
  fc.record({ op: fc.constant('terms' as const), edit: contractChange }),
  // Sent at once: payments, corrections and deletions racing on the same contracts.
  fc.record({
    op: fc.constant('burst' as const),
    pays: fc.array(paymentDraft, { minLength: 2, maxLength: 6 }),
    edits: fc.array(paymentChange, { maxLength: 2 }),
    deletes: fc.array(fc.nat(), { maxLength: 2 }),
  }),
);

const shiftMonth = (month: string, by: number) => {
  const n = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + by;
  return `${Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;
};

type Cells = Record<string, [number, number, number]>;
type Of<A> = A extends fc.Arbitrary<infer T> ? T : never;

describe.each(DATABASE_KINDS)('money kept by contract and month on %s', (kind) => {
  let t: TestApp;
  let w: MoneyWorld;
  const contractIds: number[] = [];
  const paymentIds: number[] = [];
  /** Writes that went through, by kind: the generated mixes must really change things. */
  const done = { pay: 0, monthly: 0, edit: 0, delete: 0, terms: 0 };
  const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => t.request({ method, url, body, token: w.token.ADMIN });

  /** Any answer but a server error: refusals (over what is owed, a month not covered, a stale version) are expected. */
  const sent = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
    const res = await send(method, url, body);
    expect([200, 201, 204, 400, 404, 409], show(res)).toContain(res.statusCode);
    return res;
  };
  const all = async (url: string): Promise<Row[]> => {
    const out: Row[] = [];
    for (;;) {
      const res = await send('GET', `${url}${url.includes('?') ? '&' : '?'}_sort=id&_start=${out.length}&_end=${out.length + 200}`);
      const page = json(res).data as Row[];
      out.push(...page);
      if (page.length < 200) return out;
    }
  };
  const pick = <T>(list: readonly T[], n: number) => (list.length ? list[n % list.length] : undefined);

  async function paymentBodyOf(d: Of<typeof paymentDraft>) {
    const contractId = pick(contractIds, d.contract);
    if (contractId === undefined) return undefined;
    const c = json(await send('GET', `/api/contracts/${contractId}`)).data as Row;
    return {
      contract_id: contractId,
      kind: d.kind,
      ...(d.kind === 'MONTHLY' ? { month: pick(contractMonths(c as ContractTerms), d.month) } : {}),
      amount: d.amount,
      method: 'CASH',
      paid_on: day(shiftMonth(FIRST_MONTH, d.paidIn), d.paidDay),
      with_receipt: d.receipt,
    };
  }

  /** Sends a payment (none when the draft fit no contract) and notes what was stored. */
  async function record(body: Awaited<ReturnType<typeof paymentBodyOf>>) {
    if (!body) return;
    const res = await sent('POST', '/api/payments', body);
    if (res.statusCode === 201) {
      paymentIds.push(json(res).data.id);
      done.pay++;
      if (body.kind === 'MONTHLY') done.monthly++;
    }
  }

  const pay = async (d: Of<typeof paymentDraft>) => record(await paymentBodyOf(d));

  async function editPayment(e: Of<typeof paymentChange>) {
    const id = pick(paymentIds, e.payment);
    if (id === undefined) return;
    const res = await send('GET', `/api/payments/${id}`);
    if (res.statusCode !== 200) return;
    const p = json(res).data as Row;
    const ch = e.change as Record<string, number | boolean | string>;
    // A payment's receipt stands until a credit receipt cancels it; that refunds the payment, which then
    // stays as it was (the edit is refused). (In a burst another step may cancel it first: 409.)
    let version = p.version as number;
    if (p.receipt_id && (await sent('POST', `/api/receipts/${p.receipt_id}/cancel`, { reason: 'διόρθωση' })).statusCode === 201) version++;
    const patch: Row = { version };
    if ('amount' in ch) patch.amount = ch.amount;
    if ('paidIn' in ch) patch.paid_on = day(shiftMonth(FIRST_MONTH, ch.paidIn as number), ch.paidDay as number);
    patch.with_receipt = 'receipt' in ch ? ch.receipt : p.with_receipt === true;
    if ('kind' in ch) patch.kind = ch.kind;
    if ('month' in ch || ch.kind === 'MONTHLY') {
      const c = json(await send('GET', `/api/contracts/${p.contract_id}`)).data as Row;
      patch.month = pick(contractMonths(c as ContractTerms), (ch.month as number | undefined) ?? 0);
    }
    if ((await sent('PATCH', `/api/payments/${id}`, patch)).statusCode === 200) done.edit++;
  }

  async function deletePayment(n: number) {
    const id = pick(paymentIds, n);
    if (id === undefined) return;
    const got = await send('GET', `/api/payments/${id}`);
    const p = (got.statusCode === 200 ? json(got).data : {}) as Row;
    if (p.receipt_id) await sent('POST', `/api/receipts/${p.receipt_id}/cancel`, { reason: 'λάθος πληρωμή' });
    const res = await sent('DELETE', `/api/payments/${id}`);
    if (res.statusCode === 204) {
      paymentIds.splice(paymentIds.indexOf(id), 1);
      done.delete++;
    }
  }

  async function changeTerms(e: Of<typeof contractChange>) {
    const id = pick(contractIds, e.contract);
    if (id === undefined) return;
    const c = json(await send('GET', `/api/contracts/${id}`)).data as Row;
    const ch = e.change as Record<string, number | boolean>;
    const patch: Row = { version: c.version };
    if ('startShift' in ch) patch.start_date = day(shiftMonth(monthOf(c.start_date), ch.startShift as number), ch.startDay as number);
    if ('endShift' in ch) patch.end_date = lastDay(shiftMonth(monthOf(c.end_date), ch.endShift as number));
    for (const k of ['register_cost', 'month_cost', 'with_receipt']) if (k in ch) patch[k] = ch[k];
    if ((await sent('PATCH', `/api/contracts/${id}`, patch)).statusCode === 200) done.terms++;
  }

  async function run(s: Of<typeof step>) {
    if (s.op === 'contract') {
      const x = s.terms;
      const start = day(x.start, x.startDay);
      const body = {
        student_id: w.students[x.student]!.id,
        category_id: x.category ? w.category.id : null,
        start_date: start,
        end_date: lastDay(shiftMonth(x.start, x.months - 1)),
        register_cost: x.register_cost,
        month_cost: x.month_cost,
        with_receipt: x.with_receipt,
      };
      contractIds.push((await created(await send('POST', '/api/contracts', body))).id);
    } else if (s.op === 'pay') await pay(s.draft);
    else if (s.op === 'edit') await editPayment(s.edit);
    else if (s.op === 'delete') await deletePayment(s.payment);
    else if (s.op === 'terms') await changeTerms(s.edit);
    else {
      // The bodies first (they read the contracts), then every write at once.
      const bodies = await Promise.all(s.pays.map(paymentBodyOf));
      await Promise.all([...bodies.map(record), ...s.edits.map(editPayment), ...s.deletes.map(deletePayment)]);
    }
  }

  /** What the API lists, summed from scratch: the cells by contract and month, the account's income, the analytics' collected. */
  async function fromScratch() {
    const contracts = await all('/api/contracts');
    const payments = await all('/api/payments');
    const byId = new Map(contracts.map((c) => [c.id as number, c]));
    const cells: Cells = {};
    const add = (contractId: number, month: string, i: 0 | 1 | 2, amount: number) => {
      const cell = (cells[`${contractId} ${month}`] ??= [0, 0, 0]);
      cell[i] += amount;
    };
    for (const p of payments) {
      const c = byId.get(p.contract_id)!;
      // A refunded payment pays nothing; its income stays in its month and is taken off in the refund's.
      if (p.kind === 'MONTHLY' && !p.refunded_on) add(p.contract_id, p.month, 0, p.amount);
      if (p.kind === 'REGISTER' && !p.refunded_on) add(p.contract_id, monthOf(c.start_date), 0, p.amount);
      add(p.contract_id, monthOf(p.paid_on), p.bill_number ? 1 : 2, p.amount);
      if (p.refunded_on) add(p.contract_id, monthOf(p.refunded_on), p.bill_number ? 1 : 2, -p.amount);
    }
    return { contracts, payments, cells };
  }

  beforeAll(async () => {
    // A date after every range read here: all their months are due (what is not: money-lifecycle.test.ts).
    t = await startApp(kind, { today: '2030-01-15' });
    w = await makeMoneyWorld(t, 3);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('after payments, corrections, deletions, contract changes and payments at once, every kept figure equals the sum of the payments', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 14 }), async (steps) => {
        for (const s of steps) await run(s);
        const { contracts, payments, cells } = await fromScratch();

        // The rows the database keeps, exactly.
        const ids = contracts.map((c) => c.id as number);
        const kept = await queryRows<{ contract_id: number; month: string; paid: string; income_w: string; income_wo: string }>(
          t.database.db,
          sql`select contract_id, month, paid, income_w, income_wo from contract_months where contract_id = any(${`{${ids.join(',')}}`}::int[])
            and tenant_id = (select tenant_id from contracts where id = ${ids[0] ?? 0} limit 1)`,
        );
        const keptCells: Cells = Object.fromEntries(
          kept.map((r) => [`${r.contract_id} ${r.month}`, [Number(r.paid), Number(r.income_w), Number(r.income_wo)] as [number, number, number]]),
        );
        expect(keptCells).toEqual(cells);

        // A month's unpaid contracts are those whose unpaid months hold it, and the list's count
        // and sums (read from contract_unpaid_months) are theirs: paid, corrected or deleted
        // since, the kept rows follow.
        const unpaid = (c: Row) => c.unpaid_months as string[];
        const months = new Set([...contracts.flatMap(unpaid), ...payments.flatMap((p) => (p.month ? [p.month as string] : []))]);
        for (const month of months) {
          const owing = contracts.filter((c) => unpaid(c).includes(month));
          const listed = await all(`/api/contracts?unpaid_month=${month}`);
          expect(
            listed.map((c) => c.id),
            month,
          ).toEqual(owing.map((c) => c.id));
          const first = json(await send('GET', `/api/contracts?unpaid_month=${month}&_start=0&_end=1`));
          const sum = (key: string) => owing.reduce((n, c) => n + (c[key] as number), 0);
          expect({ total: first.total, totals: first.totals }, month).toEqual({
            total: owing.length,
            totals: { total_cost: sum('total_cost'), total_paid: sum('total_paid'), rest: sum('rest') },
          });
        }

        // The account's income, month by month, with and without a receipt.
        for (const year of YEARS) {
          const months = json(await send('GET', `/api/account/year?year=${year}`)).data.months as Row[];
          const income = (month: string, receipt: boolean) =>
            payments
              .filter((p) => !!p.bill_number === receipt)
              .reduce((n, p) => n + (monthOf(p.paid_on) === month ? p.amount : 0) - (p.refunded_on && monthOf(p.refunded_on) === month ? p.amount : 0), 0);
          expect(months.map((m) => [m.month, m.income.with_receipt, m.income.without_receipt])).toEqual(
            months.map((m) => [m.month, income(m.month, true), income(m.month, false)]),
          );
        }

        // The analytics' collected figures: by month, by category and by class.
        for (const { from, to } of RANGES) {
          const data = json(await send('GET', `/api/analytics/contracts?from=${from}&to=${to}`)).data;
          const touching = contracts.filter((c) => c.start_date < monthRange(to).next && c.end_date >= monthRange(from).first);
          // What came in for a month: its MONTHLY payments, and the registration in the start month.
          const forMonth = (c: Row, p: Row) => (p.kind === 'MONTHLY' ? p.month : p.kind === 'REGISTER' ? monthOf(c.start_date) : null);
          const collected = (c: Row, keep: (month: string) => boolean) =>
            payments
              .filter((p) => p.contract_id === c.id && !p.refunded_on)
              .filter((p) => {
                const month = forMonth(c, p);
                return month !== null && keep(month);
              })
              .reduce((n, p) => n + p.amount, 0);
          const collectedOf = (c: Row) => collected(c, (month) => month >= from && month <= to);
          const byMonth = monthsFromTo(from, to).map((month) => touching.reduce((n, c) => n + collected(c, (m) => m === month), 0));
          expect(data.months.map((m: Row) => m.collected)).toEqual(byMonth);
          const sumBy = (key: (c: Row) => Array<number | null>) => {
            const out: Record<string, number> = {};
            for (const c of touching) for (const k of key(c)) out[String(k)] = (out[String(k)] ?? 0) + collectedOf(c);
            return out;
          };
          const classesOf = (c: Row) => [w.classes[w.students.findIndex((s) => s.id === c.student_id) % 2]!.id as number];
          expect(Object.fromEntries(data.by_category.map((r: Row) => [String(r.id), r.collected]))).toEqual(sumBy((c) => [c.category_id ?? null]));
          expect(Object.fromEntries(data.by_class.map((r: Row) => [String(r.id), r.collected]))).toEqual(sumBy(classesOf));
        }
      }),
      { numRuns: 6 },
    );
    expect(
      Object.values(done).every((n) => n > 0),
      JSON.stringify(done),
    ).toBe(true);
    // A correction or deletion of a payment with receipt first cancels it (a credit receipt): more requests per step.
  }, 180_000);
});
