import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { chooseOption, openInApp, submitSignIn, useBrowserTab } from './browser';
import { e2eServer } from './server';

// The directory screens in a real Chromium against the real server (tests/e2e/global-setup.ts):
// custom fields defined at run time, a student created with one, found by an accent-free search,
// edited, and the change seen in the History tab; a SECRETARY kept out of the settings.
const baseUrl = e2eServer().baseUrl;
const apiBase = e2eServer().apiBase;
const root = inject('root');

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const path = () => new URL(page.url()).pathname;
const heading = (name: string) => page.getByRole('heading', { name, exact: true }).first().waitFor();
const drawer = () => page.locator('.ant-drawer-content');

async function signIn(username: string, password: string) {
  await submitSignIn(page, baseUrl, username, password);
  await page.waitForURL(`${baseUrl}/`);
}

/** A user of the demo tenant with `role`, created through the API as ROOT. */
async function createUser(role: 'ADMIN' | 'SECRETARY'): Promise<{ username: string; password: string }> {
  const headers = { 'content-type': 'application/json', 'x-client-type': 'api', 'x-tenant-id': 'demo' };
  const login = await fetch(`${apiBase}/login`, { method: 'POST', headers, body: JSON.stringify({ ...root, tenant: 'demo' }) });
  expect(login.status).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const user = { username: `${role.toLowerCase()}${Date.now()}`, password: `${role.toLowerCase()}-password-1` };
  const created = await fetch(`${apiBase}/api/users`, {
    method: 'POST',
    headers: { ...headers, authorization: `Bearer ${token}` },
    body: JSON.stringify({ ...user, role, first_name: 'Άννα', last_name: role === 'ADMIN' ? 'Διευθύντρια' : 'Γραμματέως' }),
  });
  expect(created.status).toBe(201);
  return user;
}

/** Picks `option` in the antd Select of the form item labelled `label`. */
const choose = (label: string, option: string) => chooseOption(page, drawer(), label, option);

describe('the directory', () => {
  it('an ADMIN defines a custom field, creates a student with it, finds, edits and sees the history', async () => {
    const admin = await createUser('ADMIN');
    await signIn(admin.username, admin.password);

    // Student Custom Fields: a text field "Σχολείο"
    await page.getByRole('menuitem', { name: 'Ρυθμίσεις' }).click();
    await page.getByRole('link', { name: 'Πρόσθετα πεδία μαθητών' }).click();
    await page.waitForURL(/\/students\/settings/);
    await heading('Πρόσθετα πεδία μαθητών');
    await page.getByRole('button', { name: 'Νέο πεδίο' }).click();
    await page.waitForURL(/mode=create/);
    await drawer().getByLabel('Κλειδί', { exact: true }).fill('school');
    await drawer().getByLabel('Ετικέτα', { exact: true }).fill('Σχολείο');
    await choose('Τύπος', 'Κείμενο');
    await drawer().getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.waitForURL((url) => !url.search.includes('mode='));
    await page.locator('.ant-table-row', { hasText: 'Σχολείο' }).waitFor();

    // a student with a value for it
    await openInApp(page, '/students/?mode=create');
    await heading('Μαθητές');
    await drawer().getByLabel('Όνομα', { exact: true }).fill('Ζωή');
    await drawer().getByLabel('Επώνυμο', { exact: true }).fill('Ζαχαριάδου');
    await drawer().getByLabel('Σχολείο', { exact: true }).fill('2ο Λύκειο Πάτρας');
    await drawer().getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.waitForURL((url) => !url.search.includes('mode='));

    // found by the surname typed without accents, in lower case
    await page.getByRole('searchbox').fill('ζαχαριαδου');
    await page.waitForURL(/q/);
    const row = page.locator('.ant-table-row', { hasText: 'Ζαχαριάδου' });
    await row.waitFor();
    await expect.poll(() => page.locator('.ant-table-row').count(), { timeout: 15_000 }).toBe(1);
    await row.getByText('2ο Λύκειο Πάτρας').waitFor();

    // edit the custom value
    await row.getByRole('button', { name: 'Επεξεργασία' }).click();
    await page.waitForURL(/mode=update&student=\d+|student=\d+.*mode=update/);
    const school = drawer().getByLabel('Σχολείο', { exact: true });
    await expect.poll(() => school.inputValue(), { timeout: 15_000 }).toBe('2ο Λύκειο Πάτρας');
    await school.fill('3ο Λύκειο Πάτρας');
    await drawer().getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.waitForURL((url) => !url.search.includes('mode='));
    await row.getByText('3ο Λύκειο Πάτρας').waitFor();

    // the view's History tab shows the change, old -> new
    await row.getByRole('button', { name: 'Προβολή' }).click();
    await page.waitForURL(/mode=view/);
    await drawer().getByRole('tab', { name: 'Ιστορικό' }).click();
    const change = drawer().locator('[data-testid=history-entry]', { hasText: '3ο Λύκειο Πάτρας' });
    await change.waitFor();
    await change.getByText('2ο Λύκειο Πάτρας').waitFor();
    await change.getByText('Σχολείο', { exact: true }).waitFor();
    await change.getByText('Αλλαγή', { exact: true }).waitFor();
    await drawer().locator('[data-testid=history-entry]', { hasText: 'Δημιουργία' }).waitFor();
  });

  it('a SECRETARY has no Student Custom Fields: no sidebar entry, and the route sends them to /', async () => {
    const secretary = await createUser('SECRETARY');
    await signIn(secretary.username, secretary.password);
    await page.getByRole('link', { name: 'Μαθητές' }).waitFor();
    expect(await page.getByText('Πρόσθετα πεδία μαθητών').count()).toBe(0);
    await openInApp(page, '/students/settings', '/');
    await page.waitForURL(`${baseUrl}/`);
    expect(path()).toBe('/');
    await heading('Ημερολόγιο');
  });
});
