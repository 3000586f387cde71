import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, post, rootToken } from './api';
import { modalOpened, openInApp, signInAt, useBrowserTab, whollyOnScreen } from './browser';
import { e2eServer } from './server';

// Nothing typed is lost, in Greek, in a real Chromium against the real server: a save refused
// as stale (another tab saved first) keeps the user's values and offers keep / load / compare;
// Esc closes only the innermost popup of a drawer; closing a changed drawer asks first.
const baseUrl = e2eServer().baseUrl;

// with motion: the view drawer sliding away while a form opens is what some tests here are about
const tab = useBrowserTab({ width: 1400, height: 900 }, { motion: true });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const drawerOf = (p: Page) => p.locator('.ant-drawer-content');
const dialog = (p: Page, title: string) => p.locator('.ant-modal-confirm', { hasText: title });

/** Signs in and lands on `path`: one page load. */
async function signIn(p: Page, username: string, password: string, path = '/') {
  await signInAt(p, baseUrl, username, password, path);
}

/** The address of the student's edit drawer. */
const editOf = (studentId: number) => `/students/?mode=update&student=${studentId}`;

/** An ADMIN and a student, created through the API as ROOT. */
async function adminAndStudent(): Promise<{ admin: { username: string; password: string }; studentId: number; token: string }> {
  const token = await rootToken();
  const n = Date.now() % 1_000_000;
  const admin = { username: `typing${n}`, password: 'admin-password-1' };
  await post(token, '/api/users', { ...admin, role: 'ADMIN', first_name: 'Άννα', last_name: 'Διευθύντρια' });
  const { id } = await post(token, '/api/students', { first_name: 'Ζωή', last_name: `Παππά ${n}` });
  return { admin, studentId: id, token };
}

/**
 * Opens the student's edit drawer on `p` and waits until its values are in: where a sign-in has
 * just led there, it is only awaited; a tab that shows the app moves there in it; a new tab
 * opens the link afresh.
 */
async function openEdit(p: Page, studentId: number, firstName: string) {
  await p.bringToFront(); // a background tab gets no animation frames: its drawer would not slide in
  const path = editOf(studentId);
  if (p.url().startsWith(baseUrl)) {
    const here = new URL(p.url());
    if (here.pathname + here.search !== path) await openInApp(p, path);
  } else await p.goto(`${baseUrl}${path}`);
  await whollyOnScreen(p, drawerOf(p));
  await expect.poll(() => drawerOf(p).getByLabel('Όνομα', { exact: true }).inputValue(), { timeout: 15_000 }).toBe(firstName);
}

async function student(token: string, id: number): Promise<{ first_name: string; last_name: string; phone: string | null }> {
  const res = await call(token, 'GET', `/api/students/${id}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { first_name: string; last_name: string; phone: string | null } }).data;
}

describe('nothing typed is lost', () => {
  it('a stale save keeps what was typed and offers to compare, keep mine, or load the saved values', async () => {
    const { admin, studentId, token } = await adminAndStudent();
    await signIn(page, admin.username, admin.password, editOf(studentId));
    // a second tab of the same browser, signed in by the first
    const other = await page.context().newPage();

    // both tabs open the same student; this one types a phone number
    await openEdit(page, studentId, 'Ζωή');
    await openEdit(other, studentId, 'Ζωή');
    await page.bringToFront();
    await drawerOf(page).getByLabel('Τηλέφωνο', { exact: true }).fill('2610 123456');

    // the other tab renames her and saves first
    await other.bringToFront();
    await drawerOf(other).getByLabel('Όνομα', { exact: true }).fill('Ζωίτσα');
    await drawerOf(other).getByRole('button', { name: 'Αποθήκευση' }).click();
    await other.waitForURL((url) => !url.search.includes('mode='));

    // this tab's save is refused as stale: the dialog offers three ways, the values stay
    await page.bringToFront();
    await drawerOf(page).getByRole('button', { name: 'Αποθήκευση' }).click();
    const stale = dialog(page, 'Κάποιος άλλος άλλαξε αυτή την εγγραφή');
    await stale.waitFor();
    await modalOpened(page);
    await stale.getByText('Οι τιμές που πληκτρολογήσατε κρατήθηκαν.').waitFor();
    // the refused save fetches the record again; what was typed must survive that
    await page.waitForTimeout(1500);
    expect(await drawerOf(page).getByLabel('Τηλέφωνο', { exact: true }).inputValue()).toBe('2610 123456');
    expect(await drawerOf(page).getByLabel('Όνομα', { exact: true }).inputValue()).toBe('Ζωή');

    // compare: the fields that differ, mine beside the saved ones
    await stale.getByRole('button', { name: 'Σύγκριση' }).click();
    const name = stale.getByRole('row', { name: /Όνομα/ });
    await name.getByRole('cell', { name: 'Ζωή', exact: true }).waitFor();
    await name.getByRole('cell', { name: 'Ζωίτσα', exact: true }).waitFor();
    const phone = stale.getByRole('row', { name: /Τηλέφωνο/ });
    await phone.getByRole('cell', { name: '2610 123456', exact: true }).waitFor();
    expect(await stale.getByRole('row', { name: /Επώνυμο/ }).count()).toBe(0);

    // keep mine: saved over the other version
    await stale.getByRole('button', { name: 'Κράτηση των δικών μου' }).click();
    await page.waitForURL((url) => !url.search.includes('mode='));
    await expect.poll(async () => (await student(token, studentId)).phone).toBe('2610 123456');
    expect((await student(token, studentId)).first_name).toBe('Ζωή');

    // again, and this time load the saved values instead
    await openEdit(page, studentId, 'Ζωή');
    await openEdit(other, studentId, 'Ζωή');
    await page.bringToFront();
    await drawerOf(page).getByLabel('Τηλέφωνο', { exact: true }).fill('2610 999999');
    await other.bringToFront();
    await drawerOf(other).getByLabel('Τηλέφωνο', { exact: true }).fill('2610 555555');
    await drawerOf(other).getByRole('button', { name: 'Αποθήκευση' }).click();
    await other.waitForURL((url) => !url.search.includes('mode='));
    await page.bringToFront();
    await drawerOf(page).getByRole('button', { name: 'Αποθήκευση' }).click();
    await stale.waitFor();
    await modalOpened(page);
    await stale.getByRole('button', { name: 'Φόρτωση των τιμών του διακομιστή' }).click();
    await expect.poll(() => drawerOf(page).getByLabel('Τηλέφωνο', { exact: true }).inputValue()).toBe('2610 555555');
    expect(page.url()).toContain('mode=update');
    expect((await student(token, studentId)).phone).toBe('2610 555555');
  }, 180_000);

  it('a form opened from a view takes typing at once: the view sliding away does not pull the focus back to the list', async () => {
    const { admin, studentId, token } = await adminAndStudent();
    const { last_name } = await student(token, studentId);
    await signIn(page, admin.username, admin.password, '/students/');
    await page.getByRole('searchbox').fill(last_name);
    await page.waitForURL(/q/);
    const row = page.locator('.ant-table-row', { hasText: last_name });
    await expect.poll(() => page.locator('.ant-table-row').count(), { timeout: 15_000 }).toBe(1);
    await row.getByRole('button', { name: 'Προβολή' }).click();
    await page.waitForURL(/mode=view/);
    await whollyOnScreen(page, drawerOf(page));

    // Edit, and the phone typed at a person's pace while the view is still sliding away
    await drawerOf(page).getByRole('button', { name: 'Επεξεργασία' }).click();
    await page.waitForURL(/mode=update/);
    const form = page.locator('.ant-drawer-open .ant-drawer-content');
    await expect.poll(() => form.getByLabel('Όνομα', { exact: true }).inputValue()).toBe('Ζωή');
    const phone = form.getByLabel('Τηλέφωνο', { exact: true });
    await phone.focus();
    await page.keyboard.type('2610 123456', { delay: 120 });
    expect(await phone.inputValue()).toBe('2610 123456');
    expect(await phone.evaluate((input) => input === document.activeElement)).toBe(true);

    await form.getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.waitForURL((url) => !url.search.includes('mode='));
    expect((await student(token, studentId)).phone).toBe('2610 123456');
    // the focus is back where the view was opened, on the student's row, once the form has slid away
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('.ant-table-row')?.textContent ?? ''), { timeout: 10_000 })
      .toContain(last_name);
  });

  it('Esc closes an open date picker or select, not the drawer; a changed drawer asks before it closes', async () => {
    const { admin, studentId } = await adminAndStudent();
    await signIn(page, admin.username, admin.password, editOf(studentId));
    await openEdit(page, studentId, 'Ζωή');
    const drawer = drawerOf(page);

    // the date picker: Esc closes it, the drawer stays
    await drawer.getByLabel('Ημερομηνία γέννησης', { exact: true }).click();
    const picker = page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)');
    await picker.waitFor();
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'hidden' });
    await page.waitForTimeout(400);
    expect(page.url()).toContain('mode=update');
    await expect.poll(() => drawer.isVisible()).toBe(true);

    // a select's list: the same
    await drawer.getByLabel('Φύλο', { exact: true }).click({ force: true });
    const list = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
    await list.waitFor();
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'hidden' });
    await page.waitForTimeout(400);
    expect(page.url()).toContain('mode=update');

    // nothing changed: Esc closes the drawer at once
    await drawer.getByLabel('Όνομα', { exact: true }).focus();
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => !url.search.includes('mode='));
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);

    // changed: Esc, × and Cancel each ask; "keep editing" keeps the typing, "discard" closes
    await openEdit(page, studentId, 'Ζωή');
    await drawer.getByLabel('Τηλέφωνο', { exact: true }).fill('2610 424242');
    const ask = dialog(page, 'Απόρριψη αλλαγών;');
    await page.keyboard.press('Escape');
    await ask.waitFor();
    await modalOpened(page);
    await ask.getByRole('button', { name: 'Συνέχεια επεξεργασίας' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect(page.url()).toContain('mode=update');
    expect(await drawer.getByLabel('Τηλέφωνο', { exact: true }).inputValue()).toBe('2610 424242');

    await drawer.getByRole('button', { name: 'Ακύρωση' }).click();
    await ask.waitFor();
    await modalOpened(page);
    await ask.getByRole('button', { name: 'Συνέχεια επεξεργασίας' }).click();
    await ask.waitFor({ state: 'hidden' });

    // a click on the mask beside the drawer
    await page.mouse.click(150, 450);
    await ask.waitFor();
    await modalOpened(page);
    await ask.getByRole('button', { name: 'Συνέχεια επεξεργασίας' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect(page.url()).toContain('mode=update');

    await drawer.locator('.ant-drawer-close').click();
    await ask.waitFor();
    await modalOpened(page);
    await ask.getByRole('button', { name: 'Απόρριψη' }).click();
    await page.waitForURL((url) => !url.search.includes('mode='));
  });
});

describe('leaving with unsaved changes', () => {
  it('a link to another screen asks first from the changed My data page, and goes at once when nothing is unsaved', async () => {
    const { admin } = await adminAndStudent();
    await signIn(page, admin.username, admin.password, '/mydata/');
    const ask = dialog(page, 'Απόρριψη αλλαγών;');

    // unchanged, a link goes at once
    await expect.poll(() => page.getByLabel('Επώνυμο', { exact: true }).inputValue()).toBe('Διευθύντρια');
    await page.getByRole('link', { name: 'Μαθητές', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/students/');
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);

    // changed: asks; after saving, goes at once
    await openInApp(page, '/mydata/');
    const phone = page.getByLabel('Τηλέφωνο', { exact: true });
    await expect.poll(() => page.getByLabel('Επώνυμο', { exact: true }).inputValue()).toBe('Διευθύντρια');
    await phone.fill('2101111111');
    await page.getByRole('link', { name: 'Μαθητές', exact: true }).click();
    await ask.waitFor();
    await modalOpened(page);
    await ask.getByRole('button', { name: 'Συνέχεια επεξεργασίας' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect(await phone.inputValue()).toBe('2101111111');
    await page.getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.getByText('Τα στοιχεία σας αποθηκεύτηκαν.').waitFor();
    await page.getByRole('link', { name: 'Μαθητές', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/students/');
  });
});
