// The accountant's spreadsheets: a period's payments, expenses and contracts as XLSX, read
// back with the same library (exceljs): Greek headers, amounts as numbers in euro with the euro
// format, dates as dates, enum values in words, only the period's rows; ADMIN only; a bad
// period is a 400 with field codes, an unknown kind a 404.
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EURO_FORMAT } from '../../../server/modules/exports/xlsx';
import { expectError, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { created, makeMoneyWorld, type MoneyWorld, type Row } from '../support/money-helpers';
import { platform, withTenant } from '../../../server/db/doors';
import { queryRows } from '../../../server/db/statements';

async function readSheet(body: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(new Uint8Array(body).buffer);
  const sheet = workbook.worksheets[0]!;
  const rows: ExcelJS.Row[] = [];
  sheet.eachRow((row) => rows.push(row));
  return { sheet, header: (rows[0]!.values as unknown[]).slice(1), rows: rows.slice(1) };
}

describe.each(DATABASE_KINDS)('XLSX exports on %s', (kind) => {
  let t: TestApp;
  let w: MoneyWorld;
  const download = (url: string, token = w.token.ADMIN, language?: string) =>
    t.request({ url, token, headers: language ? { 'accept-language': language } : {} });

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeMoneyWorld(t, 2);
    const post = async (url: string, body: Row) => created(await t.request({ method: 'POST', url, body, token: w.token.ADMIN }));
    const contract = await post('/api/contracts', {
      student_id: w.students[0]!.id,
      category_id: w.category.id,
      start_date: '2026-09-01',
      end_date: '2027-06-30',
      register_cost: 5000,
      month_cost: 133_500,
    });
    await post('/api/contracts', { student_id: w.students[1]!.id, start_date: '2025-09-01', end_date: '2026-06-30', month_cost: 9000, with_receipt: false });
    await post('/api/payments', { contract_id: contract.id, kind: 'MONTHLY', month: '2026-10', amount: 133_500, method: 'CREDIT_CARD', paid_on: '2026-10-05' });
    await post('/api/payments', { contract_id: contract.id, kind: 'REGISTER', amount: 5000, method: 'CASH', paid_on: '2026-09-02' });
    await post('/api/payments', { contract_id: contract.id, kind: 'MONTHLY', month: '2026-11', amount: 1, method: 'BANK_ACCOUNT', paid_on: '2026-11-01' });
    const rent = await post('/api/expense-categories', { name: 'Ενοίκιο' });
    await post('/api/expenses', {
      date: '2026-10-01',
      amount: 40000,
      description: 'Ενοίκιο Οκτωβρίου',
      category_id: rent.id,
      bill_number: 'R-10',
      method: 'BANK_ACCOUNT',
    });
    await post('/api/expenses', { date: '2026-12-01', amount: 40000, description: 'Ενοίκιο Δεκεμβρίου', category_id: rent.id });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('payments of a period: Greek headers, amounts as euro numbers, dates as dates, methods in words', async () => {
    const res = await download('/api/exports/payments.xlsx?from=2026-09-01&to=2026-10-31');
    expect(res.statusCode, show(res)).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml.sheet');
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment;/);
    const { sheet, header, rows } = await readSheet(res.rawPayload);
    expect(sheet.name).toBe('Πληρωμές');
    expect(header).toEqual(['Ημερομηνία πληρωμής', 'Μαθητής', 'Σύμβαση', 'Είδος', 'Μήνας', 'Ποσό', 'Τρόπος πληρωμής', 'Αριθμός απόδειξης', 'Περιγραφή']);
    // Two payments in the period (the November one is not), then the totals row.
    expect(rows).toHaveLength(3);
    const [register, october, total] = rows as [ExcelJS.Row, ExcelJS.Row, ExcelJS.Row];
    expect(register.getCell(1).value).toEqual(new Date(Date.UTC(2026, 8, 2)));
    expect(register.getCell(1).numFmt).toBe('dd/mm/yyyy');
    expect(register.getCell(2).value).toBe('Μαθητής0 Δοκιμής');
    expect(register.getCell(4).value).toBe('Εγγραφή');
    expect(register.getCell(6).value).toBe(50);
    expect(register.getCell(7).value).toBe('Μετρητά');
    expect(october.getCell(5).value).toBe('2026-10');
    expect(october.getCell(6).value).toBe(1335);
    expect(typeof october.getCell(6).value).toBe('number');
    expect(october.getCell(6).numFmt).toBe(EURO_FORMAT);
    expect(october.getCell(7).value).toBe('Κάρτα');
    expect(total.getCell(6).value).toBe(1385);
  });

  it('in English for a reader who asks for it', async () => {
    const res = await download('/api/exports/payments.xlsx?from=2026-11-01&to=2026-11-30', w.token.ADMIN, 'en-GB,en;q=0.8');
    const { sheet, header, rows } = await readSheet(res.rawPayload);
    expect(sheet.name).toBe('Payments');
    expect(header[5]).toBe('Amount');
    expect(rows[0]!.getCell(6).value).toBe(0.01);
    expect(rows[0]!.getCell(7).value).toBe('Bank account');
  });

  it('expenses and contracts of a period', async () => {
    const expenses = await readSheet((await download('/api/exports/expenses.xlsx?from=2026-10-01&to=2026-10-31')).rawPayload);
    expect(expenses.header).toEqual(['Ημερομηνία', 'Κατηγορία', 'Περιγραφή', 'Ποσό', 'Τρόπος πληρωμής', 'Αριθμός απόδειξης']);
    expect(expenses.rows.map((r) => (r.values as unknown[]).slice(1))).toEqual([
      [new Date(Date.UTC(2026, 9, 1)), 'Ενοίκιο', 'Ενοίκιο Οκτωβρίου', 400, 'Τραπεζικός λογαριασμός', 'R-10'],
      [undefined, undefined, undefined, 400],
    ]);
    const contracts = await readSheet((await download('/api/exports/contracts.xlsx?from=2026-07-01&to=2026-08-31')).rawPayload);
    // No contract covers the summer of 2026: one ended in June, the other starts in September.
    expect(contracts.rows).toHaveLength(0);
    const year = await readSheet((await download('/api/exports/contracts.xlsx?from=2026-01-01&to=2026-12-31')).rawPayload);
    expect(year.rows.slice(0, 2).map((r) => [r.getCell(1).value, r.getCell(6).value, r.getCell(10).value])).toEqual([
      ['Μαθητής1 Δοκιμής', 90, 'Όχι'],
      ['Μαθητής0 Δοκιμής', 1335, 'Ναι'],
    ]);
    expect(year.rows[1]!.getCell(3).value).toEqual(new Date(Date.UTC(2026, 8, 1)));
  });

  it('receipts of a period: number, kind and status in words, payer, amount, MARK and AADE’s error', async () => {
    const [demo] = await queryRows<{ id: number }>(platform(t.database), sql`select id from tenants where slug = 'demo'`);
    const tenantId = Number(demo!.id);
    // Receipts as the issuing transaction writes them, in a month and series of their own
    // (the payments above issued theirs in the default series).
    await withTenant(t.database, tenantId, (q) =>
      q.execute(sql`insert into receipts (tenant_id, series, number, issued_on, kind, issuer, payer, lines, amount, method, status, mark, error) values
        (${tenantId}, 'Τ', 1, '2027-02-05', 'RECEIPT', '{}'::jsonb, '{"name": "Ελένη Παπαδοπούλου", "tax_id": "123456783"}'::jsonb, '[]'::jsonb, 133500, 'CASH', 'SENT', '400001000000001', null),
        (${tenantId}, 'Τ', 2, '2027-02-06', 'RECEIPT', '{}'::jsonb, '{"name": "Γιώργος Νικολάου"}'::jsonb, '[]'::jsonb, 5000, 'CASH', 'FAILED', null, 'Μη έγκυρο ΑΦΜ (203)'),
        (${tenantId}, 'Τ', 3, '2027-03-02', 'CREDIT', '{}'::jsonb, '{"name": "Ελένη Παπαδοπούλου"}'::jsonb, '[]'::jsonb, 133500, 'CASH', 'ISSUED', null, null)`),
    );
    const { sheet, header, rows } = await readSheet((await download('/api/exports/receipts.xlsx?from=2027-02-01&to=2027-02-28')).rawPayload);
    expect(sheet.name).toBe('Αποδείξεις');
    expect(header).toEqual([
      'Ημερομηνία έκδοσης',
      'Σειρά',
      'Αριθμός',
      'Είδος παραστατικού',
      'Πληρωτής',
      'ΑΦΜ πληρωτή',
      'Ποσό',
      'Κατάσταση',
      'ΜΑΡΚ',
      'Σφάλμα ΑΑΔΕ',
    ]);
    expect(rows.map((r) => (r.values as unknown[]).slice(1))).toEqual([
      [new Date(Date.UTC(2027, 1, 5)), 'Τ', 1, 'Απόδειξη (ΑΠΥ)', 'Ελένη Παπαδοπούλου', '123456783', 1335, 'Καταχωρίστηκε στο myDATA', '400001000000001'],
      [
        new Date(Date.UTC(2027, 1, 6)),
        'Τ',
        2,
        'Απόδειξη (ΑΠΥ)',
        'Γιώργος Νικολάου',
        undefined,
        50,
        'Απορρίφθηκε από την ΑΑΔΕ',
        undefined,
        'Μη έγκυρο ΑΦΜ (203)',
      ],
      [undefined, undefined, undefined, undefined, undefined, undefined, 1385],
    ]);
  });

  it('ADMIN only; a bad period is a 400 with field codes; an unknown kind is a 404', async () => {
    expectError(await download('/api/exports/payments.xlsx?from=2026-09-01&to=2026-10-31', w.token.SECRETARY), 403, 'forbidden');
    expectError(await t.request({ url: '/api/exports/payments.xlsx?from=2026-09-01&to=2026-10-31' }), 401, 'unauthorized');
    expectError(await download('/api/exports/payments.xlsx?from=2026-09-31&to=2026-10-31'), 400, 'validation', { from: 'invalid-format' });
    expectError(await download('/api/exports/payments.xlsx?from=2026-10-31&to=2026-10-01'), 400, 'validation', { to: 'too-small' });
    expectError(await download('/api/exports/payments.xlsx?to=2026-10-01'), 400, 'validation', { from: 'required' });
    expectError(await download('/api/exports/payments.xlsx?from=2026-09-01&to=2026-10-31&x=1'), 400, 'validation', { x: 'unknown-field' });
    expectError(await download('/api/exports/lessons.xlsx?from=2026-09-01&to=2026-10-31'), 404, 'not-found');
  });
});
