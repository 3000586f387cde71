import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, post, rootToken } from './api';
import { chooseOption, modalOpened, signInAsAnother, useBrowserTab } from './browser';
import { e2eServer } from './server';

// A student leaves, in a real Chromium, in Greek: a secretary withdraws her contract on today's
// date from the contract's status; this month stays owed, next month no longer is; the admin's
// account shows next month's expected income fall by the contract's fee.
const baseUrl = e2eServer().baseUrl;

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const pad = (n: number) => String(n).padStart(2, '0');
const now = new Date();
const THIS_MONTH = `${now.getFullYear()}-${pad(now.getMonth() + 1)}`;
const NEXT = new Date(now.getFullYear(), now.getMonth() + 1, 1);
const NEXT_MONTH = `${NEXT.getFullYear()}-${pad(NEXT.getMonth() + 1)}`;

/** "1.234,56 €" -> 123456 cents. */
const cents = (text: string) => Number(text.replace(/[.\s€]/g, '').replace(',', ''));

const signIn = (user: { username: string; password: string }, path = '/') => signInAsAnother(page, baseUrl, user, path);

/** Signs in as `user` on the account of `month`: its expected income as the card shows it, in cents. */
async function expectedIn(user: { username: string; password: string }, month: string): Promise<number> {
  await signIn(user, `/account/?income_month=${month}`);
  const card = page.locator('[data-figure="expected"]');
  await card.getByText(/€/).first().waitFor();
  const text = (await card.textContent()) ?? '';
  return cents(/(\d[\d.]*,\d{2})\s*€/.exec(text)![1]!);
}

describe('a student leaves', () => {
  it('a secretary withdraws her contract and next month leaves the expected income', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const secretary = { username: `apoxorisi${n}`, password: 'secretary-password-1' };
    const admin = { username: `logistirio${n}`, password: 'admin-password-1' };
    await post(token, '/api/users', { ...secretary, role: 'SECRETARY', first_name: 'Μαρία', last_name: 'Γραμματέως' });
    await post(token, '/api/users', { ...admin, role: 'ADMIN', first_name: 'Κώστας', last_name: 'Διευθυντής' });
    const student = await post(token, '/api/students', { first_name: 'Δανάη', last_name: `Αποχωρούσα${n}` });
    // 987,65 € a month less 20% = 790,12 €, from the first of this month for a year
    const contract = await post(token, '/api/contracts', {
      student_id: student.id,
      start_date: `${THIS_MONTH}-01`,
      end_date: `${now.getFullYear() + 1}-${pad(now.getMonth() + 1)}-28`,
      register_cost: 0,
      month_cost: 98765,
      discount_percent: 20,
    });
    const fee = 79012;

    const before = await expectedIn(admin, NEXT_MONTH);
    expect(before).toBeGreaterThanOrEqual(fee);

    await signIn(secretary, `/contracts/?mode=status&contract=${contract.id}`);
    const status = page.locator('.ant-drawer-content');
    await status.getByText('Έκπτωση 20%').waitFor();
    await status.locator(`tr[data-line="${NEXT_MONTH}"]`).waitFor();
    expect(await status.locator(`tr[data-line="${NEXT_MONTH}"]`).textContent()).toContain('790,12 €');
    // only an administrator undoes a withdrawal: a secretary has no such button
    await status.getByRole('button', { name: 'Αποχώρηση' }).click();
    const dialog = page.locator('.ant-modal-content', { hasText: 'Αποχώρηση μαθητή από το συμβόλαιο' });
    await dialog.waitFor();
    await modalOpened(page);
    await dialog.getByLabel('Λόγος αποχώρησης').fill('Μετακόμισε σε άλλη πόλη');
    await dialog.getByRole('button', { name: 'Αποχώρηση' }).click();
    await dialog.waitFor({ state: 'detached' });
    await status.locator('[data-contract-status="WITHDRAWN"]').waitFor();
    await status.getByText(/Αποχώρησε στις .*: Μετακόμισε σε άλλη πόλη/).waitFor();
    // this month stays owed; next month is gone from the contract
    await expect.poll(() => status.locator(`tr[data-line="${NEXT_MONTH}"]`).count()).toBe(0);
    expect(await status.locator(`tr[data-line="${THIS_MONTH}"]`).count()).toBe(1);
    expect(await status.getByRole('button', { name: 'Αναίρεση αποχώρησης' }).count()).toBe(0);

    expect(await expectedIn(admin, NEXT_MONTH)).toBe(before - fee);
  });

  it("the account's cards move as soon as an expense is added below them, without reloading", async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const admin = { username: `exoda${n}`, password: 'admin-password-1' };
    await post(token, '/api/users', { ...admin, role: 'ADMIN', first_name: 'Ελένη', last_name: 'Ταμίας' });
    await signIn(admin, `/account/?income_month=${THIS_MONTH}`);
    const card = page.locator('[data-figure="expenses"]');
    await card.getByText(/€/).first().waitFor();
    const money = async () => cents(/(\d[\d.]*,\d{2})\s*€/.exec((await card.textContent()) ?? '')![1]!);
    const before = await money();

    await page.getByRole('button', { name: 'Νέο έξοδο' }).click();
    const form = page.locator('.ant-drawer-content', { hasText: 'Νέο έξοδο' });
    await form.waitFor();
    const date = form.getByLabel('Ημερομηνία', { exact: true });
    await date.click();
    await date.fill(`01/${THIS_MONTH.slice(5, 7)}/${THIS_MONTH.slice(0, 4)}`);
    await date.press('Enter');
    await form.getByLabel('Ποσό', { exact: true }).fill('123,45');
    await form.getByLabel('Περιγραφή', { exact: true }).fill(`Γραφική ύλη ${n}`);
    await form.getByRole('button', { name: 'Αποθήκευση' }).click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(money).toBe(before + 12345);
  });

  it('setting a student inactive offers to withdraw her active contracts, and does it', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const secretary = { username: `anenergi${n}`, password: 'secretary-password-1' };
    await post(token, '/api/users', { ...secretary, role: 'SECRETARY', first_name: 'Ρένα', last_name: 'Γραμματέως' });
    const student = await post(token, '/api/students', { first_name: 'Ορέστης', last_name: `Φεύγων${n}` });
    const contract = await post(token, '/api/contracts', {
      student_id: student.id,
      start_date: `${THIS_MONTH}-01`,
      end_date: `${now.getFullYear() + 1}-${pad(now.getMonth() + 1)}-28`,
      month_cost: 10000,
    });

    await signIn(secretary, `/students/?mode=update&student=${student.id}`);
    const form = page.locator('.ant-drawer-content', { hasText: 'Επεξεργασία μαθητή' });
    // her values are in (the form is covered while it loads)
    await expect.poll(() => form.getByLabel('Όνομα', { exact: true }).inputValue()).toBe('Ορέστης');
    await chooseOption(page, form, 'Κατάσταση', 'Ανενεργός');
    await form.getByRole('button', { name: 'Αποθήκευση' }).click();
    const dialog = page.locator('.ant-modal-content', { hasText: 'Ο μαθητής έγινε ανενεργός' });
    await dialog.getByText('Έχει 1 ενεργό συμβόλαιο. Να διακοπεί με αποχώρηση;').waitFor();
    await modalOpened(page);
    await dialog.getByLabel('Λόγος αποχώρησης').fill('Ολοκλήρωσε νωρίτερα');
    await dialog.getByRole('button', { name: 'Αποχώρηση από τα συμβόλαια' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Διακόπηκε 1 συμβόλαιο.').waitFor();
    const row = (await (await call(token, 'GET', `/api/contracts/${contract.id}`)).json()) as { data: Record<string, unknown> };
    expect(row.data).toMatchObject({ status: 'WITHDRAWN', withdrawal_reason: 'Ολοκλήρωσε νωρίτερα' });
  });
});
