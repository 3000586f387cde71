import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, post, rootToken } from './api';
import { signInAsAnother, useBrowserTab } from './browser';
import { e2eServer } from './server';

// Turning a contract's reminders to the family off is the administrator's: her contract form
// has the switch and her change is saved; the secretary's form for the same contract leaves
// it out (the server refuses her such a change too).
const baseUrl = e2eServer().baseUrl;

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const pad = (n: number) => String(n).padStart(2, '0');
const now = new Date();
const THIS_MONTH = `${now.getFullYear()}-${pad(now.getMonth() + 1)}`;

const signIn = (user: { username: string; password: string }, path = '/') => signInAsAnother(page, baseUrl, user, path);

describe('reminders per contract', () => {
  it('the admin turns a contract’s reminders off in its form; the secretary’s form has no such switch', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const admin = { username: `ypenthymiseis.admin${n}`, password: 'admin-password-1' };
    const secretary = { username: `ypenthymiseis.gram${n}`, password: 'secretary-password-1' };
    await post(token, '/api/users', { ...admin, role: 'ADMIN', first_name: 'Ελένη', last_name: 'Διευθύντρια' });
    await post(token, '/api/users', { ...secretary, role: 'SECRETARY', first_name: 'Άννα', last_name: 'Γραμματέας' });
    const student = await post(token, '/api/students', { first_name: 'Μελίνα', last_name: `Υπενθύμισης${n}` });
    const contract = await post(token, '/api/contracts', {
      student_id: student.id,
      start_date: `${THIS_MONTH}-01`,
      end_date: `${now.getFullYear() + 1}-06-30`,
      month_cost: 10000,
    });
    const form = page.locator('.ant-drawer-content', { has: page.getByLabel('Έκπτωση %') });

    await signIn(secretary, `/contracts/?mode=update&contract=${contract.id}`);
    await form.getByLabel('Έκπτωση %').waitFor();
    expect(await form.getByRole('switch', { name: 'Με απόδειξη' }).count()).toBe(1);
    expect(await form.getByText('Υπενθυμίσεις', { exact: true }).count()).toBe(0);
    expect(await form.getByRole('switch', { name: 'Υπενθυμίσεις' }).count()).toBe(0);

    await signIn(admin, `/contracts/?mode=update&contract=${contract.id}`);
    await form.getByLabel('Έκπτωση %').waitFor();
    // the form shows its fields while the contract loads: the switch is on once its values are in
    const reminders = form.getByRole('switch', { name: 'Υπενθυμίσεις' });
    await expect.poll(() => reminders.getAttribute('aria-checked')).toBe('true');
    await reminders.click();
    await form.getByRole('button', { name: 'Αποθήκευση' }).click();
    await form.waitFor({ state: 'detached' });
    await expect
      .poll(
        async () =>
          ((await (await call(token, 'GET', `/api/contracts/${contract.id}`)).json()) as { data: { reminders_enabled: boolean } }).data.reminders_enabled,
      )
      .toBe(false);
  });
});
