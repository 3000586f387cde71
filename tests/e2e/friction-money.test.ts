import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, post, rootToken } from './api';
import { signInAt, useBrowserTab, whollyOnScreen } from './browser';
import { e2eServer } from './server';

// The money screens' small daily things, in Greek, in a real Chromium against the real server:
// a new contract straight from a student; the unpaid list saying which months and how much;
// the month-by-month status usable on a phone; one "unpaid month" notification per month for
// the office, not one per contract; the account asking once for its expenses.
const baseUrl = e2eServer().baseUrl;

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const pad = (n: number) => String(n).padStart(2, '0');
const now = new Date();
/** The month `back` months before this one: "YYYY-MM". */
const monthBack = (back: number) => {
  const d = new Date(now.getFullYear(), now.getMonth() - back, 1);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}`;
};
const SHORT = ['Ιαν', 'Φεβ', 'Μαρ', 'Απρ', 'Μάι', 'Ιουν', 'Ιουλ', 'Αυγ', 'Σεπ', 'Οκτ', 'Νοε', 'Δεκ'];
/** "2026-10" as the list shows it: "Οκτ 2026". */
const short = (month: string) => `${SHORT[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;
const NEXT_YEAR_END = `${now.getFullYear() + 1}-06-30`;

const drawer = (title: string) => page.locator('.ant-drawer-content').filter({ has: page.locator('.ant-drawer-title').getByText(title, { exact: true }) });

/** Signs in and lands on `path`: one page load. */
async function signIn(user: { username: string; password: string }, path = '/') {
  await signInAt(page, baseUrl, user.username, user.password, path);
}

/** A new office user of the shared centre, made by ROOT. */
async function officeUser(role: 'ADMIN' | 'SECRETARY', prefix: string) {
  const token = await rootToken();
  const user = { username: `${prefix}${Date.now() % 1_000_000}`, password: 'office-password-1' };
  await post(token, '/api/users', { ...user, role, first_name: 'Κατερίνα', last_name: 'Ταμία' });
  return user;
}

/** A student with a contract from the first of `fromMonth`, 120 € a month, nothing paid. */
async function owingStudent(last: string, fromMonth: string) {
  const token = await rootToken();
  const student = await post(token, '/api/students', { first_name: 'Ορέστης', last_name: last });
  const contract = await post(token, '/api/contracts', {
    student_id: student.id,
    start_date: `${fromMonth}-01`,
    end_date: NEXT_YEAR_END,
    register_cost: 0,
    month_cost: 12000,
  });
  return { studentId: student.id, contractId: contract.id, name: `Ορέστης ${last}` };
}

async function setDate(scope: Locator, label: string, date: string) {
  const input = scope.getByLabel(label, { exact: true });
  await input.click();
  await input.fill(date);
  await input.press('Enter');
}

describe('daily friction with money', () => {
  it('a student’s Contracts tab opens a new contract for her, her guardian as payer', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const guardian = await post(token, '/api/guardians', { first_name: 'Ελπίδα', last_name: `Κηδεμονίδου ${n}` });
    const student = await post(token, '/api/students', { first_name: 'Μυρτώ', last_name: `Νεοφώτιστη ${n}`, guardian_ids: [guardian.id] });
    await signIn(await officeUser('SECRETARY', 'neosymv'), `/students/?mode=view&student=${student.id}`);

    await page.getByRole('tab', { name: 'Συμβόλαια' }).click();
    await page.getByRole('button', { name: 'Νέο συμβόλαιο' }).click();
    await page.waitForURL(/\/contracts\/\?mode=create/);
    const form = drawer('Νέο συμβόλαιο');
    await form.waitFor();
    await form.locator('.ant-select-selection-item', { hasText: new RegExp(`^Μυρτώ Νεοφώτιστη ${n}$`) }).waitFor();
    // the payer named with her child, as every guardian picker names her
    await form.locator('.ant-select-selection-item', { hasText: `Ελπίδα Κηδεμονίδου ${n} · Μυρτώ Νεοφώτιστη ${n}` }).waitFor();
    await setDate(form, 'Έναρξη', `01/09/${now.getFullYear() + 1}`);
    await setDate(form, 'Λήξη', `30/06/${now.getFullYear() + 2}`);
    await form.getByLabel('Μηνιαίο κόστος', { exact: true }).fill('95');
    await form.getByRole('button', { name: 'Αποθήκευση' }).click();
    await form.waitFor({ state: 'detached' });

    const made = (await (await call(token, 'GET', `/api/contracts?student_id=${student.id}`)).json()) as { data: Array<Record<string, unknown>> };
    expect(made.data.map((c) => [c.student_id, c.payer_guardian_id, c.month_cost])).toEqual([[student.id, guardian.id, 9500]]);
    // the next new contract starts empty
    expect(new URL(page.url()).searchParams.has('student_id')).toBe(false);
  });

  it('the list of this month’s unpaid says which months each contract owes and how much', async () => {
    const n = Date.now() % 100_000;
    const owing = await owingStudent(`Οφειλέτης ${n}`, monthBack(2));
    // 50 € paid towards the first month
    await post(await rootToken(), '/api/payments', {
      contract_id: owing.contractId,
      kind: 'MONTHLY',
      month: monthBack(2),
      amount: 5000,
      method: 'CASH',
      paid_on: `${monthBack(2)}-05`,
    });
    await signIn(await officeUser('SECRETARY', 'aplirotoi'), '/contracts/');
    await page.getByRole('button', { name: 'Απλήρωτοι αυτόν τον μήνα' }).click();
    await page.waitForURL(/unpaid_month/);
    // the shared centre has many: her name finds hers
    await page.getByRole('searchbox').fill(`Οφειλέτης ${n}`);
    await page.getByRole('columnheader', { name: 'Απλήρωτοι μήνες' }).waitFor();
    await page.getByRole('columnheader', { name: 'Οφειλή', exact: true }).waitFor();
    const row = page.locator('.ant-table-row', { hasText: owing.name });
    await row.waitFor();
    const cells = row.locator('td');
    await expect.poll(() => cells.allTextContents()).toContain(`${short(monthBack(2))}, ${short(monthBack(1))}, ${short(monthBack(0))}`);
    await expect.poll(() => cells.allTextContents()).toContain('310,00 €');
  });

  it('on a 390 px phone the status’s “record payment” buttons and its actions are wholly on screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const owing = await owingStudent(`Κινητός ${Date.now() % 100_000}`, monthBack(2));
    await signIn(await officeUser('SECRETARY', 'kinitostatus'), `/contracts/?mode=status&contract=${owing.contractId}`);
    const status = drawer('Κατάσταση συμβολαίου');
    const record = status.getByRole('button', { name: 'Καταχώριση πληρωμής' });
    await record.first().waitFor();
    // the three months due and every later one of the contract
    expect(await record.count()).toBeGreaterThanOrEqual(3);
    for (const button of await status.getByRole('button').all()) if (await button.isVisible()) await whollyOnScreen(page, button);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // and one of them works there: the payment form opens with that month
    await record.first().click();
    const form = drawer('Νέα πληρωμή');
    await form.waitFor();
    await whollyOnScreen(page, form.getByRole('button', { name: 'Αποθήκευση' }));
  });

  it('an administrator has one “unpaid month” notification per month, not one per contract; it opens the unpaid list', async () => {
    const n = Date.now() % 100_000;
    const owing = [];
    for (const k of [1, 2, 3]) owing.push(await owingStudent(`Καθυστερημένος ${k} ${n}`, monthBack(1)));
    const admin = await officeUser('ADMIN', 'omadiki');
    await signIn(admin);
    const token = (
      (await (
        await fetch(`${e2eServer().apiBase}/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-client-type': 'api', 'x-tenant-id': 'demo' },
          body: JSON.stringify({ ...admin, tenant: 'demo' }),
        })
      ).json()) as { token: string }
    ).token;
    type Listed = { data: Array<{ kind: string; title: string; body: string; link: string; read: boolean }>; unread: number };
    const inbox = async () => (await (await call(token, 'GET', '/api/notifications?_end=200')).json()) as Listed;
    const lastMonth = `${monthBack(1).slice(5, 7)}/${monthBack(1).slice(0, 4)}`;
    // the scheduled job reaches her within seconds
    await expect.poll(async () => (await inbox()).data.some((r) => r.title === `Απλήρωτος μήνας ${lastMonth}`), { timeout: 20_000 }).toBe(true);
    const listed = await inbox();
    const months = listed.data.filter((r) => r.kind === 'months-unpaid');
    // at most this month and the two before it, however many contracts owe them
    expect(months.length).toBeLessThanOrEqual(3);
    expect(listed.data.filter((r) => r.kind === 'month-unpaid')).toEqual([]);
    const last = months.find((r) => r.title === `Απλήρωτος μήνας ${lastMonth}`)!;
    const said = /^(\d+) συμβόλαια δεν έχουν εξοφλήσει τον μήνα (\d\d\/\d{4}), συνολικά ([\d.]+,\d\d €)\.$/.exec(last.body);
    expect(said?.[2]).toBe(lastMonth);
    expect(Number(said?.[1])).toBeGreaterThanOrEqual(owing.length);

    // the bell counts what the list counts: a handful, not one per contract and month
    const unread = (await inbox()).unread;
    expect(unread).toBeLessThan(10);
    await page.getByRole('button', { name: unread === 1 ? '1 μη αναγνωσμένη ειδοποίηση' : `${unread} μη αναγνωσμένες ειδοποιήσεις`, exact: true }).click();
    await page.waitForURL(`${baseUrl}/notifications/`);
    await page.locator('.ant-table-row', { hasText: `Απλήρωτος μήνας ${lastMonth}` }).click();
    await page.waitForURL(new RegExp(`unpaid_month.*${monthBack(1)}`));
    await page.getByRole('searchbox').fill(`Καθυστερημένος`);
    for (const o of owing) await page.locator('.ant-table-row', { hasText: o.name }).first().waitFor();
    await page.getByRole('columnheader', { name: 'Απλήρωτοι μήνες' }).waitFor();
  });

  it('the account asks for its expenses once', async () => {
    const admin = await officeUser('ADMIN', 'logariasmos');
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/expenses') asked.push(url.search);
    });
    await signIn(admin, '/account/');
    await expect.poll(() => asked.length, { timeout: 15_000 }).toBeGreaterThan(0);
    await page.locator('.ant-table').first().waitFor();
    // whatever else would come, a moment after the first
    await page.waitForTimeout(2000);
    expect(asked).toHaveLength(1);
    // the month's first to last day, from the first request on
    const first = `${monthBack(0)}-01`;
    expect(decodeURIComponent(asked[0]!)).toContain(`date_gte=${first}`);
  });
});
