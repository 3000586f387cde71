import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatMoney } from '../../domain/money-format';
import { call, post, rootToken } from './api';
import { openInApp, signInAt, useBrowserTab, whollyOnScreen } from './browser';
import { e2eServer } from './server';

declare global {
  /** How many times the page asked to print (counted instead of opening the print dialog). */
  interface Window {
    printed: number;
  }
}

// The centre's money in a real Chromium, in Greek, against the real server: a secretary makes
// a contract, takes the registration and this month's fee with receipt numbers, sees the month
// turn paid, finds the student gone from "unpaid this month" and opens the printable receipt;
// an admin finds the same figures in the account's month and sees the analytics charts.
const baseUrl = e2eServer().baseUrl;

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

/** A SECRETARY, an ADMIN and a student, named uniquely, created as ROOT. */
async function centre() {
  const token = await rootToken();
  const n = Date.now() % 100_000;
  const secretary = { username: `tameio${n}`, password: 'secretary-password-1' };
  const admin = { username: `dieythynsi${n}`, password: 'admin-password-1' };
  await post(token, '/api/users', { ...secretary, role: 'SECRETARY', first_name: 'Άννα', last_name: 'Γραμματέως' });
  await post(token, '/api/users', { ...admin, role: 'ADMIN', first_name: 'Νίκος', last_name: 'Διευθυντής' });
  // the student's class holds one lesson, for the student's Lessons tab
  const className = `Τμήμα Ταμείου ${n}`;
  const klass = await post(token, '/api/classes', { name: className });
  const student = { first_name: 'Ιάσονας', last_name: `Οικονόμου${n}`, class_ids: [klass.id] };
  const { id } = await post(token, '/api/students', student);
  await post(token, '/api/lessons', { date: LESSON_DAY, start_time: '07:00', end_time: '08:00', class_id: klass.id });
  return { secretary, admin, student: `${student.first_name} ${student.last_name}`, studentId: id, className };
}

/** The account's income of this month and of this year's totals, as the API answers them now (other tests' payments count too). */
async function incomeNow() {
  const token = await rootToken();
  const month = (await (await call(token, 'GET', `/api/account/month?month=${THIS_MONTH}`)).json()) as {
    data: { income: { total: number; with_receipt: number } };
  };
  const year = (await (await call(token, 'GET', `/api/account/year?year=${THIS_MONTH.slice(0, 4)}`)).json()) as {
    data: { totals: { income: { total: number } } };
  };
  return { month: month.data.income, year: year.data.totals.income.total };
}

/** Signs in and lands on `path`: one page load. */
async function signIn(user: { username: string; password: string }, path = '/') {
  await signInAt(page, baseUrl, user.username, user.password, path);
}

const pad = (n: number) => String(n).padStart(2, '0');
const now = new Date();
const THIS_MONTH = `${now.getFullYear()}-${pad(now.getMonth() + 1)}`;
const NEXT = new Date(now.getFullYear(), now.getMonth() + 1, 1);
const NEXT_MONTH = `${NEXT.getFullYear()}-${pad(NEXT.getMonth() + 1)}`;
const START = `01/${pad(now.getMonth() + 1)}/${now.getFullYear()}`;
const LESSON_DAY = `${NEXT.getFullYear()}-${pad(NEXT.getMonth() + 1)}-15`;
const END = `28/${pad(now.getMonth() + 1)}/${now.getFullYear() + 1}`;

const drawer = (title: string) => page.locator('.ant-drawer-content').filter({ has: page.locator('.ant-drawer-title').getByText(title, { exact: true }) });

async function setDate(scope: Locator, label: string, date: string) {
  const input = scope.getByLabel(label, { exact: true });
  await input.click();
  await input.fill(date);
  await input.press('Enter');
}

/** Records the payment the status line `line` offers (its kind, month and what is left), with receipt as its contract (the number is given on save). */
async function recordPayment(status: Locator, line: string) {
  await status
    .locator('tr[data-line]', { has: page.getByRole('cell', { name: line, exact: true }) })
    .getByRole('button', { name: 'Καταχώριση πληρωμής' })
    .click();
  const form = drawer('Νέα πληρωμή');
  await form.waitFor();
  await form.getByText(/^Θα εκδοθεί απόδειξη με αριθμό περίπου /).waitFor();
  await form.getByRole('button', { name: 'Αποθήκευση' }).click();
  await form.waitFor({ state: 'detached' });
}

describe('the centre’s money', () => {
  it('a secretary takes payments with receipts; an admin finds the same figures; analytics draws its charts', async () => {
    const { secretary, admin, student, studentId, className } = await centre();
    // the browser tests share one centre: what came in before this test is added to what it takes
    const before = await incomeNow();
    await signIn(secretary);

    // a contract for the student: registration 50 €, 120 € a month
    await page.getByRole('menuitem', { name: 'Συμβόλαια' }).click();
    await page.waitForURL(/\/contracts\//);
    await page.getByRole('button', { name: 'Νέο συμβόλαιο' }).click();
    const form = drawer('Νέο συμβόλαιο');
    await form.waitFor();
    await whollyOnScreen(page, form.getByLabel('Μαθητής', { exact: true }));
    await form.getByLabel('Μαθητής', { exact: true }).click({ force: true });
    await form.getByLabel('Μαθητής', { exact: true }).fill(student.split(' ')[1]!);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: student }).first().click();
    await setDate(form, 'Έναρξη', START);
    await setDate(form, 'Λήξη', END);
    await form.getByLabel('Κόστος εγγραφής', { exact: true }).fill('50');
    await form.getByLabel('Μηνιαίο κόστος', { exact: true }).fill('120');
    await form.getByRole('button', { name: 'Αποθήκευση' }).click();
    await form.waitFor({ state: 'detached' });

    // "unpaid this month" lists the student, with the contract's 13 months and registration as rest
    await page.getByRole('button', { name: 'Απλήρωτοι αυτόν τον μήνα' }).click();
    await page.waitForURL(/unpaid_month/);
    const row = page.locator('.ant-table-row', { hasText: student });
    await row.waitFor();
    await row.getByText('1.610,00 €').first().waitFor();

    // the status, month by month; the registration and this month paid with receipts
    await row.getByRole('button', { name: 'Κατάσταση' }).click();
    await page.waitForURL(/mode=status/);
    const status = drawer('Κατάσταση συμβολαίου');
    await status.locator('tr[data-line]').first().waitFor();
    expect(await status.locator('tr[data-line]').count()).toBe(14);
    await recordPayment(status, 'Εγγραφή');
    const month = status.locator(`tr[data-line="${THIS_MONTH}"]`);
    await expect.poll(() => month.textContent()).toContain('Απλήρωτο');
    // a month still ahead is not owed yet
    expect(await status.locator(`tr[data-line="${NEXT_MONTH}"]`).textContent()).toContain('Δεν έχει λήξει');
    const monthName = (await month.locator('td').first().textContent())!;
    await recordPayment(status, monthName);
    await expect.poll(() => month.textContent()).toContain('Πληρωμένο');
    await expect.poll(() => status.locator('tr[data-line="REGISTER"]').textContent()).toContain('Πληρωμένο');
    await status.locator('[data-total="total_paid"]').getByText('170,00 €').waitFor();

    // the printable receipt of this month's payment
    await status.getByRole('tab', { name: 'Πληρωμές' }).click();
    const paymentRow = status.locator('.ant-table-row', { hasText: '120,00 €' });
    await paymentRow.getByRole('button', { name: 'Απόδειξη' }).click();
    const receipt = page.locator('.ant-modal-content', { hasText: 'Απόδειξη Παροχής Υπηρεσιών' });
    await receipt.getByText('εκατόν είκοσι ευρώ').waitFor();
    await receipt.getByText(student).waitFor();
    await receipt.getByText('Απαλλάσσεται από ΦΠΑ (άρθρο 22 Κώδικα ΦΠΑ)').waitFor();
    await page.evaluate(() => {
      window.printed = 0;
      window.print = () => {
        window.printed += 1;
      };
    });
    await receipt.getByRole('button', { name: 'Εκτύπωση' }).click();
    expect(await page.evaluate(() => window.printed)).toBe(1);
    await receipt.locator('.ant-modal-footer').getByRole('button', { name: 'Κλείσιμο' }).click();

    // back on the list, still filtered by "unpaid this month": the student is gone
    await status.locator('.ant-drawer-close').click();
    await page.waitForURL((url) => !url.search.includes('mode='));
    expect(new URL(page.url()).search).toContain('unpaid_month');
    // (other browser tests' contracts may owe this month too: only this student's row is known to go)
    await expect.poll(() => page.locator('.ant-table-row', { hasText: student }).count()).toBe(0);

    // the admin's account month: 170 € more came in, all with receipt
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await signIn(admin, `/account/?income_month=${THIS_MONTH}`);
    const income = page.locator('[data-figure="income"]');
    const total = formatMoney(before.month.total + 17_000);
    const withReceipt = formatMoney(before.month.with_receipt + 17_000);
    await income.getByText(total, { exact: true }).first().waitFor();
    // the total and its part with receipt
    await income.getByText(withReceipt, { exact: true }).first().waitFor();
    await page.locator('.ant-table-row', { hasText: student }).first().waitFor();

    // the year: this month's column and the year's totals hold the same income
    await page.getByRole('tab', { name: 'Έτος' }).click();
    await page.getByRole('img', { name: 'Έσοδα, έξοδα και αναμενόμενα ανά μήνα' }).waitFor();
    const totals = page.locator('.ant-table-row', { hasText: 'Σύνολα' });
    await totals
      .getByText(formatMoney(before.year + 17_000), { exact: true })
      .first()
      .waitFor();

    // the student's view: Contracts, Payments and Lessons tabs; the lessons are those of the student's class
    await openInApp(page, `/students/?mode=view&student=${studentId}`);
    const view = page.locator('.ant-drawer-content');
    await view.getByRole('tab', { name: 'Ιστορικό' }).waitFor();
    const names = await view.getByRole('tab').allTextContents();
    expect(names.indexOf('Συμβόλαια')).toBeLessThan(names.indexOf('Πληρωμές'));
    expect(names.indexOf('Πληρωμές')).toBeLessThan(names.indexOf('Διδασκαλίες'));
    await view.getByRole('tab', { name: 'Διδασκαλίες' }).click();
    await view.locator('.ant-table-row', { hasText: className }).waitFor();
    await view.locator('.ant-table-row', { hasText: '07:00–08:00' }).waitFor();
    await openInApp(page, '/');

    // the analytics tab draws its charts
    await page.getByRole('menuitem', { name: 'Αναλυτικά' }).click();
    await page.waitForURL(/\/analytics\//);
    await page.getByRole('tab', { name: 'Συμβόλαια' }).waitFor();
    await page.getByRole('img', { name: 'Νέα και ενεργά συμβόλαια' }).waitFor();
    await page.getByRole('img', { name: 'Αναμενόμενα και εισπραγμένα' }).waitFor();
    expect(await page.locator('svg[data-chart="expected,collected"] rect').count()).toBeGreaterThan(0);
  });
});
