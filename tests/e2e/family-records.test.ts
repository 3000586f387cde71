import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, post, rootToken } from './api';
import { modalOpened, signInAt, useBrowserTab, whollyOnScreen } from './browser';
import { e2eServer } from './server';

// A family's records in Greek, in a real Chromium: two guardians of the same name are told apart
// in every picker by their children and phone ending, and a contract's payer is picked among its
// student's guardians only; a new guardian typed in the student's form is saved only with the
// student, and is gone with the form when the office cancels it.
const baseUrl = e2eServer().baseUrl;

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const drawer = () => page.locator('.ant-drawer-content:visible');
const modal = () => page.locator('.ant-modal-content:visible');
const options = () => page.locator('.ant-select-dropdown:visible .ant-select-item-option');

interface Row {
  id: number;
  version: number;
}

async function anAdmin(root: string, stamp: string) {
  const admin = { username: `fadmin${stamp}`, password: 'admin-password-1' };
  await post(root, '/api/users', { ...admin, role: 'ADMIN', first_name: 'Άννα', last_name: 'Διευθύντρια' });
  return admin;
}

const guardiansNamed = async (root: string, name: string) =>
  ((await (await call(root, 'GET', `/api/guardians?q=${encodeURIComponent(name)}`)).json()) as { data: Row[] }).data;

describe("a family's records", () => {
  it("two guardians of the same name differ in the pickers; a contract's payer is one of its student's guardians", async () => {
    const root = await rootToken();
    const stamp = Date.now().toString(36);
    const admin = await anAdmin(root, stamp);
    const last = `Παππά${stamp}`;
    const nikos = await post(root, '/api/students', { first_name: 'Νίκος', last_name: `Παππάς${stamp}` });
    const eleni = await post(root, '/api/students', { first_name: 'Ελένη', last_name: `Κώστα${stamp}` });
    await post(root, '/api/guardians', { first_name: 'Μαρία', last_name: last, phone: '6941111234', student_ids: [nikos.id] });
    await post(root, '/api/guardians', { first_name: 'Μαρία', last_name: last, phone: '6945555678', student_ids: [eleni.id] });
    const first = `Μαρία ${last} · Νίκος Παππάς${stamp} · …1234`;
    const second = `Μαρία ${last} · Ελένη Κώστα${stamp} · …5678`;

    // the student's guardian picker: both, each with her child and phone ending
    await signInAt(page, baseUrl, admin.username, admin.password, '/students/?mode=create');
    const picker = drawer().getByLabel('Κηδεμόνες', { exact: true });
    await whollyOnScreen(page, picker);
    await picker.click({ force: true });
    await picker.fill(last);
    await options().filter({ hasText: first }).waitFor();
    await options().filter({ hasText: second }).waitFor();
    await page.keyboard.press('Escape');
    await drawer().getByRole('button', { name: 'Ακύρωση' }).click();
    await drawer().waitFor({ state: 'detached' });

    // a new contract for Nikos: the payer picker offers his guardian alone
    await page.goto(`${baseUrl}/contracts/?mode=create`);
    const form = drawer();
    const student = form.getByLabel('Μαθητής', { exact: true });
    await whollyOnScreen(page, student);
    await student.click({ force: true });
    await student.fill(`Παππάς${stamp}`);
    await options()
      .filter({ hasText: `Νίκος Παππάς${stamp}` })
      .first()
      .click();
    const payer = form.getByLabel('Πληρωτής', { exact: true });
    await payer.click({ force: true });
    await options().filter({ hasText: first }).waitFor();
    await expect.poll(() => options().allTextContents()).toEqual([first]);
    await options().filter({ hasText: first }).click();
    await form.locator('.ant-select-selection-item', { hasText: first }).waitFor();

    // another student: the payer, not hers, is cleared, and only her guardian is offered
    await student.click({ force: true });
    await student.fill(`Κώστα${stamp}`);
    await options()
      .filter({ hasText: `Ελένη Κώστα${stamp}` })
      .first()
      .click();
    await expect.poll(() => form.locator('.ant-select-selection-item', { hasText: first }).count()).toBe(0);
    await payer.click({ force: true });
    await options().filter({ hasText: second }).waitFor();
    await expect.poll(() => options().allTextContents()).toEqual([second]);
  });

  it('a new guardian typed in the student form is saved with the student only, and discarded with a cancelled form', async () => {
    const root = await rootToken();
    const stamp = Date.now().toString(36);
    const admin = await anAdmin(root, stamp);
    const surname = `Λάμπρου${stamp}`;

    await signInAt(page, baseUrl, admin.username, admin.password, '/students/?mode=create');
    await drawer().getByLabel('Όνομα', { exact: true }).fill('Δανάη');
    await drawer().getByLabel('Επώνυμο', { exact: true }).fill(surname);
    await drawer().getByRole('button', { name: 'Νέος κηδεμόνας' }).click();
    await modalOpened(page);
    await modal().getByLabel('Όνομα', { exact: true }).fill('Ιουλία');
    // closing the half-typed guardian asks first; "continue editing" keeps what was typed
    await modal().getByRole('button', { name: 'Ακύρωση' }).click();
    await page.getByRole('button', { name: 'Συνέχεια επεξεργασίας' }).click();
    await expect.poll(() => modal().getByLabel('Όνομα', { exact: true }).inputValue()).toBe('Ιουλία');
    await modal().getByLabel('Επώνυμο', { exact: true }).fill(surname);
    await modal().getByLabel('Διεύθυνση', { exact: true }).fill('Πατησίων 40');
    await modal().getByRole('button', { name: 'Προσθήκη' }).click();
    await modal().waitFor({ state: 'detached' });
    await drawer()
      .locator('.ant-select-selection-item', { hasText: `Ιουλία ${surname}` })
      .waitFor();
    expect(await guardiansNamed(root, surname)).toEqual([]);

    // cancelling the student asks, and discarding leaves no guardian and no student behind
    await drawer().getByRole('button', { name: 'Ακύρωση' }).click();
    await page.getByRole('button', { name: 'Απόρριψη' }).click();
    await page.waitForURL((url) => !url.search.includes('mode='));
    expect(await guardiansNamed(root, surname)).toEqual([]);
    const students = (await (await call(root, 'GET', `/api/students?q=${encodeURIComponent(surname)}`)).json()) as { total: number };
    expect(students.total).toBe(0);
  });
});
