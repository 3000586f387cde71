import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, post, rootToken } from './api';
import { openInApp, signInAt, useBrowserTab } from './browser';
import { e2eServer } from './server';

// Guardians in Greek, in a real Chromium: an ADMIN creates a student and, from the student's
// form, a new guardian on the spot ("+ Νέος κηδεμόνας"); the guardian is then shared with the
// student's brother, and each student's Κηδεμόνες tab shows her, with the other sibling beside.
const baseUrl = e2eServer().baseUrl;

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const drawer = () => page.locator('.ant-drawer-content');
const modal = () => page.locator('.ant-modal-content');
/** Rows of the open detail tab (the list behind the drawer has rows too). */
const tabRow = (text: string) => page.locator('.ant-tabs-tabpane-active .ant-table-row', { hasText: text });

describe('guardians', () => {
  it('an ADMIN creates a guardian inline from a new student and sees her on the student’s and the sibling’s tab', async () => {
    const root = await rootToken();
    const stamp = Date.now().toString(36);
    const admin = { username: `gadmin${stamp}`, password: 'admin-password-1' };
    await post(root, '/api/users', { ...admin, role: 'ADMIN', first_name: 'Άννα', last_name: 'Διευθύντρια' });
    const brother = (await (await call(root, 'POST', '/api/students', { first_name: 'Στέλιος', last_name: `Μαυρίδης${stamp}` })).json()) as {
      data: { id: number };
    };

    await signInAt(page, baseUrl, admin.username, admin.password, '/students/?mode=create');
    await drawer().getByLabel('Όνομα', { exact: true }).fill('Ελπίδα');
    await drawer().getByLabel('Επώνυμο', { exact: true }).fill(`Μαυρίδη${stamp}`);

    // the guardian is made on the spot, then stands chosen in the picker
    await drawer().getByRole('button', { name: 'Νέος κηδεμόνας' }).click();
    await modal().getByLabel('Όνομα', { exact: true }).fill('Ασπασία');
    await modal().getByLabel('Επώνυμο', { exact: true }).fill(`Μαυρίδη${stamp}`);
    await modal().getByLabel('Τηλέφωνο', { exact: true }).fill('+30 694 7654321');
    // her address, for the receipts she is named on
    await modal().getByLabel('Διεύθυνση', { exact: true }).fill('Ερμού 12');
    await modal().getByLabel('Πόλη', { exact: true }).fill('Αθήνα');
    await modal().getByLabel('Τ.Κ.', { exact: true }).fill('10563');
    await modal().getByLabel('ΑΦΜ', { exact: true }).fill('123456789');
    await modal().getByRole('button', { name: 'Προσθήκη' }).click();
    // a wrong ΑΦΜ is said in Greek before anything is sent
    await modal().getByText('Ο ΑΦΜ δεν είναι έγκυρος', { exact: false }).waitFor();
    await modal().getByLabel('ΑΦΜ', { exact: true }).fill('094014201');
    await modal().getByRole('button', { name: 'Προσθήκη' }).click();
    await modal().waitFor({ state: 'hidden' });
    await drawer()
      .locator('.ant-select-selection-item', { hasText: `Ασπασία Μαυρίδη${stamp} (νέος· αποθηκεύεται μαζί με τον μαθητή)` })
      .waitFor();
    // nothing is saved before the student is
    const search = `/api/guardians?q=${encodeURIComponent(`μαυριδη${stamp}`)}`;
    expect(((await (await call(root, 'GET', search)).json()) as { total: number }).total).toBe(0);
    await drawer().getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.waitForURL((url) => !url.search.includes('mode='));

    // the brother shares her (as the office would pick her on his form)
    const guardians = (await (await call(root, 'GET', search)).json()) as {
      data: Array<{ id: number; version: number; student_ids: number[]; address: string; city: string; postal_code: string }>;
    };
    expect(guardians.data).toHaveLength(1);
    const guardian = guardians.data[0]!;
    expect(guardian).toMatchObject({ address: 'Ερμού 12', city: 'Αθήνα', postal_code: '10563' });
    expect(guardian.student_ids).toHaveLength(1);
    const [sister] = guardian.student_ids;
    const shared = await call(root, 'PATCH', `/api/guardians/${guardian.id}`, { version: guardian.version, student_ids: [sister, brother.data.id] });
    expect(shared.status).toBe(200);

    // her tab: the guardian, and the brother as the other student
    await openInApp(page, `/students/?mode=view&student=${sister}`);
    await page.getByRole('tab', { name: 'Κηδεμόνες' }).click();
    const row = tabRow(`Ασπασία Μαυρίδη${stamp}`);
    await row.waitFor();
    await row.getByText('Κηδεμόνας', { exact: true }).waitFor();
    await row.getByRole('link', { name: `Στέλιος Μαυρίδης${stamp}` }).waitFor();

    // his tab: the same guardian, and the sister beside (her view closed first, as the office
    // does: her tabs would otherwise take the click meant for his)
    await page.keyboard.press('Escape');
    await page.locator('.ant-drawer-content:visible').waitFor({ state: 'detached' });
    await openInApp(page, `/students/?mode=view&student=${brother.data.id}`);
    await page.getByRole('tab', { name: 'Κηδεμόνες' }).click();
    const his = tabRow(`Ασπασία Μαυρίδη${stamp}`);
    await his.waitFor();
    await his.getByRole('link', { name: `Ελπίδα Μαυρίδη${stamp}` }).waitFor();

    // and the guardians' own screen lists her
    await openInApp(page, '/guardians/');
    // its own screen drawn (the students' list, with a search box too, stays until it is)
    await page.getByRole('heading', { name: 'Κηδεμόνες', exact: true }).first().waitFor();
    await page.getByRole('searchbox').fill(`μαυριδη${stamp}`);
    await page.locator('.ant-table-row', { hasText: `Ασπασία` }).waitFor();
  });
});
