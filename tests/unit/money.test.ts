// The money rules of domain/money.ts, table by table: months counted from start to end, the
// registration in the start month, extra charges, partial payments, what is still owed, and
// the expected income of docs/rules.md, Account; every figure split with and without receipt; cents stay integers.
import { describe, expect, it } from 'vitest';
import {
  checkContractTerms,
  checkPaymentShape,
  contractFigures,
  contractLines,
  contractMonths,
  dueInMonth,
  expectedForMonth,
  isDue,
  isMonth,
  lastOwedMonth,
  monthFee,
  monthsFromTo,
  overpaidLines,
  owedMonths,
  type PaymentLine,
  splitByReceipt,
  stillOwed,
} from '../../domain/money';

const terms = { start_date: '2026-09-15', end_date: '2027-06-30', register_cost: 5000, month_cost: 12000 };
const M = (month: string, amount: number, bill_number: string | null = null): PaymentLine => ({ kind: 'MONTHLY', month, amount, bill_number });
const R = (amount: number, bill_number: string | null = null): PaymentLine => ({ kind: 'REGISTER', amount, bill_number });
const X = (amount: number, bill_number: string | null = null): PaymentLine => ({ kind: 'EXTRA', amount, bill_number });

describe('months of a contract', () => {
  it.each([
    ['2026-09-15', '2027-06-30', 10, '2026-09', '2027-06'],
    ['2026-09-30', '2026-09-30', 1, '2026-09', '2026-09'],
    ['2026-01-31', '2026-02-01', 2, '2026-01', '2026-02'],
    ['2026-11-01', '2027-02-28', 4, '2026-11', '2027-02'],
    ['2024-02-29', '2025-02-28', 13, '2024-02', '2025-02'],
  ])('%s to %s covers %i months, %s first and %s last', (start_date, end_date, n, first, last) => {
    const months = contractMonths({ start_date, end_date });
    expect([months.length, months[0], months.at(-1)]).toEqual([n, first, last]);
  });

  it('monthsFromTo is empty when the end is before the start, and isMonth accepts only real months in the books', () => {
    expect(monthsFromTo('2026-05', '2026-04')).toEqual([]);
    expect(['2026-01', '2026-12', '2026-13', '2026-00', '26-01', '1999-12', '2100-01', 202601].map(isMonth)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('contract figures (docs/rules.md, Contracts)', () => {
  it.each<{ name: string; payments: PaymentLine[]; total_cost: number; total_paid: number; register: boolean; unpaid: number; rest: number }>([
    { name: 'nothing paid', payments: [], total_cost: 125000, total_paid: 0, register: false, unpaid: 10, rest: 125000 },
    { name: 'registration in two parts', payments: [R(2000), R(3000, '7')], total_cost: 125000, total_paid: 5000, register: true, unpaid: 10, rest: 120000 },
    { name: 'a partial month stays unpaid', payments: [M('2026-09', 11999)], total_cost: 125000, total_paid: 11999, register: false, unpaid: 10, rest: 113001 },
    {
      name: 'a month in two parts is paid',
      payments: [M('2026-09', 6000), M('2026-09', 6000, '8')],
      total_cost: 125000,
      total_paid: 12000,
      register: false,
      unpaid: 9,
      rest: 113000,
    },
    { name: 'an extra charge raises total and paid', payments: [X(3000)], total_cost: 128000, total_paid: 3000, register: false, unpaid: 10, rest: 125000 },
    {
      name: 'everything paid',
      payments: [R(5000), ...contractMonths(terms).map((m) => M(m, 12000))],
      total_cost: 125000,
      total_paid: 125000,
      register: true,
      unpaid: 0,
      rest: 0,
    },
  ])('$name', ({ payments, total_cost, total_paid, register, unpaid, rest }) => {
    const f = contractFigures(terms, payments);
    expect([f.total_cost, f.total_paid, f.is_register_paid, f.unpaid_months.length, f.rest]).toEqual([total_cost, total_paid, register, unpaid, rest]);
    for (const v of [f.total_cost, f.total_paid, f.rest, f.register_paid, f.extra_total]) expect(Number.isInteger(v)).toBe(true);
  });

  it('a refunded payment pays nothing: its month is owed again, and it counts as refunded, not as credit', () => {
    const withdrawn = { ...terms, status: 'WITHDRAWN', withdrawn_on: '2026-10-20' };
    const payments = [M('2026-09', 12000), { ...M('2026-10', 12000), refunded_on: '2026-12-10' }, M('2026-11', 12000), M('2026-12', 12000)];
    const before = contractFigures(withdrawn, payments);
    expect([before.total_paid, before.credit, before.refunded, before.unpaid_months, before.rest]).toEqual([36000, 24000, 12000, ['2026-10'], 17000]);
    const after = contractFigures(withdrawn, [...payments.slice(0, 3), { ...M('2026-12', 12000), refunded_on: '2026-12-10' }]);
    expect([after.total_paid, after.credit, after.refunded, after.rest]).toEqual([24000, 12000, 24000, 17000]);
    expect(stillOwed(withdrawn, payments, 'MONTHLY', '2026-10')).toBe(12000);
    expect(contractLines(withdrawn, payments).find((l) => l.month === '2026-10' && l.kind === 'MONTHLY')).toMatchObject({ paid: 0, left: 12000 });
  });

  it('a contract without a registration fee has it paid from the start; without a month fee every month is paid', () => {
    const f = contractFigures({ ...terms, register_cost: 0, month_cost: 0 }, []);
    expect([f.is_register_paid, f.unpaid_months, f.total_cost]).toEqual([true, [], 0]);
  });

  it.each<[string, PaymentLine[], 'REGISTER' | 'MONTHLY' | 'EXTRA', string | null, number]>([
    ['registration untouched', [], 'REGISTER', null, 5000],
    ['registration partly paid', [R(1500)], 'REGISTER', null, 3500],
    ['registration paid', [R(5000)], 'REGISTER', null, 0],
    ['a month untouched', [], 'MONTHLY', '2026-10', 12000],
    ['a month partly paid', [M('2026-10', 2000), M('2026-10', 500)], 'MONTHLY', '2026-10', 9500],
    ['another month does not count', [M('2026-11', 12000)], 'MONTHLY', '2026-10', 12000],
    ['a month outside the contract owes nothing', [], 'MONTHLY', '2027-07', 0],
    ['a month before it starts owes nothing', [], 'MONTHLY', '2026-08', 0],
    ['an extra charge is not bounded', [X(100)], 'EXTRA', null, Number.POSITIVE_INFINITY],
  ])('still owed: %s', (_name, payments, kind, month, owed) => {
    expect(stillOwed(terms, payments, kind, month)).toBe(owed);
  });

  it('the status lines: registration in the start month, then every month with owed, paid and left', () => {
    const lines = contractLines({ ...terms, end_date: '2026-11-01' }, [R(5000), M('2026-09', 12000), M('2026-10', 4000)]);
    expect(lines).toEqual([
      { kind: 'REGISTER', month: '2026-09', owed: 5000, paid: 5000, left: 0 },
      { kind: 'MONTHLY', month: '2026-09', owed: 12000, paid: 12000, left: 0 },
      { kind: 'MONTHLY', month: '2026-10', owed: 12000, paid: 4000, left: 8000 },
      { kind: 'MONTHLY', month: '2026-11', owed: 12000, paid: 0, left: 12000 },
    ]);
  });

  it('new terms that the payments exceed name the lines in the way', () => {
    const paid = [R(5000), M('2026-09', 12000), M('2027-06', 12000)];
    expect(overpaidLines(terms, paid)).toEqual([]);
    expect(overpaidLines({ ...terms, register_cost: 4000, month_cost: 10000 }, paid)).toEqual(['REGISTER', '2026-09', '2027-06']);
    expect(overpaidLines({ ...terms, end_date: '2027-05-31' }, paid)).toEqual(['2027-06']);
  });
});

describe('expected income and receipts (docs/rules.md, Account)', () => {
  const contracts = [
    { start_date: '2026-09-01', end_date: '2027-06-30', register_cost: 5000, month_cost: 10000, with_receipt: true },
    { start_date: '2026-10-10', end_date: '2026-12-31', register_cost: 3000, month_cost: 8000, with_receipt: false },
    { start_date: '2026-11-01', end_date: '2027-01-31', register_cost: 2000, month_cost: 15000, with_receipt: true },
  ];
  it.each([
    ['2026-08', 0, 0],
    ['2026-09', 15000, 0],
    ['2026-10', 10000, 11000],
    ['2026-11', 27000, 8000],
    ['2027-01', 25000, 0],
    ['2027-07', 0, 0],
  ])('%s: %i with receipt, %i without', (month, withReceipt, withoutReceipt) => {
    expect(expectedForMonth(contracts, month)).toEqual({ with_receipt: withReceipt, without_receipt: withoutReceipt, total: withReceipt + withoutReceipt });
  });

  it('the registration is due only in the start month', () => {
    expect(monthsFromTo('2026-10', '2026-12').map((m) => dueInMonth(contracts[1]!, m))).toEqual([11000, 8000, 8000]);
  });

  it('income and expenses split by whether a receipt number was given (blank is none)', () => {
    expect(splitByReceipt([M('2026-09', 100, '1'), M('2026-09', 250), R(50, '  '), X(7, 'Α-2')])).toEqual({
      with_receipt: 107,
      without_receipt: 300,
      total: 407,
    });
  });
});

describe('checks before a write', () => {
  it.each([
    [{ start_date: '2026-09-01', end_date: '2027-06-30' }, {}],
    [{ start_date: '2026-09-01', end_date: '2026-08-31' }, { end_date: 'too-small' }],
    [{ start_date: '1999-12-31', end_date: '2026-08-31' }, { start_date: 'too-small' }],
    [{ start_date: '2026-01-01', end_date: '2100-01-01' }, { end_date: 'too-large' }],
    [{ start_date: '2020-01-01', end_date: '2025-01-01' }, { end_date: 'too-large' }],
    [{ start_date: '2026-02-30', end_date: '2026-03-01' }, { start_date: 'invalid-format' }],
  ])('contract dates %o -> %o', (dates, fields) => {
    expect(checkContractTerms(dates)).toEqual(fields);
  });

  it.each([
    [{ kind: 'MONTHLY', month: '2026-09', paid_on: '2026-09-01' }, {}],
    [{ kind: 'MONTHLY', month: null }, { month: 'required' }],
    [{ kind: 'MONTHLY', month: '2026-9' }, { month: 'invalid-format' }],
    [{ kind: 'REGISTER', month: '2026-09' }, { month: 'invalid' }],
    [{ kind: 'EXTRA', paid_on: '1999-01-01' }, { paid_on: 'too-small' }],
  ])('payment %o -> %o', (payment, fields) => {
    expect(checkPaymentShape(payment)).toEqual(fields);
  });
});

describe('discounts, withdrawals and due months', () => {
  it.each([
    [12000, 0, 12000],
    [12345, 15, 10493],
    [9001, 50, 4501],
    [1, 50, 1],
    [3, 50, 2],
    [12000, 100, 0],
  ])('a month_cost of %i less %i%% is a fee of %i cents (rounded half up)', (month_cost, discount_percent, fee) => {
    expect(monthFee({ month_cost, discount_percent })).toBe(fee);
    const lines = contractLines({ ...terms, month_cost, discount_percent }, []);
    expect(lines.filter((l) => l.kind === 'MONTHLY').every((l) => l.owed === fee)).toBe(true);
    expect(contractFigures({ ...terms, month_cost, discount_percent }, []).total_cost).toBe(5000 + 10 * fee);
  });

  it('a withdrawal keeps its month due in full and drops the later ones; payments for them are credit, not owed nor overpaid', () => {
    const withdrawn = { ...terms, status: 'WITHDRAWN', withdrawn_on: '2026-11-30' };
    expect(lastOwedMonth(withdrawn)).toBe('2026-11');
    expect(owedMonths(withdrawn)).toEqual(['2026-09', '2026-10', '2026-11']);
    const paid = [R(5000), M('2026-09', 12000), M('2027-01', 12000)];
    const f = contractFigures(withdrawn, paid, '2027-03-01');
    expect(f).toMatchObject({ month_count: 3, total_cost: 5000 + 3 * 12000, credit: 12000, rest: 2 * 12000, unpaid_months: ['2026-10', '2026-11'] });
    expect(overpaidLines(withdrawn, paid)).toEqual([]);
    expect(stillOwed(withdrawn, paid, 'MONTHLY', '2026-12')).toBe(0);
    expect(stillOwed(withdrawn, paid, 'MONTHLY', '2026-11')).toBe(12000);
    expect(dueInMonth(withdrawn, '2026-11')).toBe(12000);
    expect(dueInMonth(withdrawn, '2026-12')).toBe(0);
    // a withdrawal date after the end changes nothing; an ACTIVE contract ignores a stale date
    expect(lastOwedMonth({ ...withdrawn, withdrawn_on: '2027-08-01' })).toBe('2027-06');
    expect(lastOwedMonth({ ...terms, withdrawn_on: '2026-10-01' })).toBe('2027-06');
  });

  it('only months already due are unpaid: a month is due from its first day', () => {
    expect(contractFigures(terms, [], '2026-11-30').unpaid_months).toEqual(['2026-09', '2026-10', '2026-11']);
    expect(contractFigures(terms, [], '2026-12-01').unpaid_months.at(-1)).toBe('2026-12');
    expect(contractFigures(terms, [], '2026-08-31').unpaid_months).toEqual([]);
    expect([isDue('2026-12', '2026-12-01'), isDue('2026-12', '2026-11-30')]).toEqual([true, false]);
  });
});
