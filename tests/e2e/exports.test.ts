import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { post, rootToken } from './api';
import { signInAt, useBrowserTab } from './browser';
import { e2eServer } from './server';

// The accountant's spreadsheet in a real Chromium, in Greek: an admin opens the account,
// downloads this month's payments as XLSX, and the file (read back with exceljs) holds the
// amount as a number in euro with the euro format, the date as a date, Greek headers.
const baseUrl = e2eServer().baseUrl;

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const pad = (n: number) => String(n).padStart(2, '0');
const now = new Date();
const TODAY = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
const THIS_MONTH = TODAY.slice(0, 7);

describe('the accountant’s spreadsheets', () => {
  it('an admin downloads the month’s payments as XLSX, with amounts as numbers and dates as dates', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const admin = { username: `logistis${n}`, password: 'admin-password-1' };
    await post(token, '/api/users', { ...admin, role: 'ADMIN', first_name: 'Μαρία', last_name: 'Λογίστρια' });
    const student = await post(token, '/api/students', { first_name: 'Φοίβη', last_name: `Εξαγωγής${n}` });
    const contract = await post(token, '/api/contracts', {
      student_id: student.id,
      start_date: `${THIS_MONTH}-01`,
      end_date: `${now.getFullYear() + 1}-06-30`,
      month_cost: 133_500,
    });
    await post(token, '/api/payments', {
      contract_id: contract.id,
      kind: 'MONTHLY',
      month: THIS_MONTH,
      amount: 133_500,
      method: 'CREDIT_CARD',
      paid_on: TODAY,
    });

    await signInAt(page, baseUrl, admin.username, admin.password, '/account/');
    await page.getByRole('button', { name: 'Εξαγωγή για λογιστή (XLSX)' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Πληρωμές' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^Πληρωμές .*\.xlsx$/);
    const bytes = await new Promise<Buffer>((resolve, reject) => {
      void download.createReadStream().then((stream) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => resolve(Buffer.concat(chunks)));
        stream.on('error', reject);
      }, reject);
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(bytes).buffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('Πληρωμές');
    expect(sheet.getRow(1).getCell(6).value).toBe('Ποσό');
    let found: ExcelJS.Row | undefined;
    sheet.eachRow((row) => {
      if (row.getCell(2).value === `Φοίβη Εξαγωγής${n}`) found = row;
    });
    expect(found).toBeDefined();
    expect(found!.getCell(6).value).toBe(1335);
    expect(found!.getCell(6).numFmt).toContain('€');
    expect(found!.getCell(1).value).toEqual(new Date(`${TODAY}T00:00:00Z`));
    expect(found!.getCell(7).value).toBe('Κάρτα');
  });
  it('an admin downloads the month’s receipts as XLSX: number and amount are numbers, the payer the guardian with her ΑΦΜ', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const admin = { username: `apodeixeis.logistis${n}`, password: 'admin-password-1' };
    await post(token, '/api/users', { ...admin, role: 'ADMIN', first_name: 'Μαρία', last_name: 'Λογίστρια' });
    const student = await post(token, '/api/students', { first_name: 'Άρης', last_name: `Αποδείξεων${n}` });
    const father = await post(token, '/api/guardians', {
      first_name: 'Στέλιος',
      last_name: `Αποδείξεων${n}`,
      relation: 'FATHER',
      tax_id: '123456783',
      student_ids: [student.id],
    });
    const contract = await post(token, '/api/contracts', {
      student_id: student.id,
      payer_guardian_id: father.id,
      start_date: `${THIS_MONTH}-01`,
      end_date: `${now.getFullYear() + 1}-06-30`,
      month_cost: 9_840,
      with_receipt: true,
    });
    await post(token, '/api/payments', { contract_id: contract.id, kind: 'MONTHLY', month: THIS_MONTH, amount: 9_840, paid_on: TODAY });

    await signInAt(page, baseUrl, admin.username, admin.password, '/account/');
    await page.getByRole('button', { name: 'Εξαγωγή για λογιστή (XLSX)' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('.ant-dropdown-menu').getByRole('menuitem', { name: 'Αποδείξεις', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^Αποδείξεις .*\.xlsx$/);
    const bytes = await new Promise<Buffer>((resolve, reject) => {
      void download.createReadStream().then((stream) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => resolve(Buffer.concat(chunks)));
        stream.on('error', reject);
      }, reject);
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(bytes).buffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('Αποδείξεις');
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(headers).toEqual([
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
    let found: ExcelJS.Row | undefined;
    sheet.eachRow((row) => {
      if (row.getCell(5).value === `Στέλιος Αποδείξεων${n}`) found = row;
    });
    expect(found).toBeDefined();
    expect(found!.getCell(1).value).toEqual(new Date(`${TODAY}T00:00:00Z`));
    expect(typeof found!.getCell(2).value).toBe('string');
    expect(typeof found!.getCell(3).value).toBe('number');
    expect(Number.isInteger(found!.getCell(3).value)).toBe(true);
    expect(found!.getCell(6).value).toBe('123456783');
    expect(found!.getCell(7).value).toBe(98.4);
    expect(found!.getCell(7).numFmt).toContain('€');
  });
});
