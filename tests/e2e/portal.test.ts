import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { openInApp, useBrowserTab } from './browser';
import { invitationPath, portalFamily } from './portal-steps';
import { e2eServer } from './server';

// A mother on her phone (390 px, Greek): the centre turns her portal on, she opens the link
// of the invitation e-mail, chooses her password, signs in with her e-mail address, moves
// between her two children, sees the first one's absence and the second one's receipt, and a
// staff screen's address brings her back to the portal. The used link then says so.
const baseUrl = e2eServer().baseUrl;
const WIDTH = 390;
const PASSWORD = 'mitera-kodikos-1';

const tab = useBrowserTab({ width: WIDTH, height: 844 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

/** Opens a portal screen from the menu, as on a phone (the menu is a drawer). */
async function openFromMenu(name: string) {
  await page.getByTestId('menu-toggle').click();
  await page.locator('.ant-drawer-content .ant-menu').getByRole('menuitem', { name }).click();
  await page.locator('.ant-drawer-content').waitFor({ state: 'hidden' });
}

/** Nothing runs off the side of the phone's screen. */
const fitsTheScreen = async () => {
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(WIDTH);
};

let used: string | undefined;

describe('the guardian portal on a phone', () => {
  it('a mother accepts her invitation, signs in, switches between her children, sees an absence and a receipt, and stays out of staff screens', async () => {
    const family = await portalFamily('pyli');
    const [first, second] = family.children;
    const path = await invitationPath(family.email);

    // The invitation: whom it is for, the password rules, the password twice.
    await page.goto(`${baseUrl}${path}`);
    await page.getByRole('heading', { name: 'Ορίστε τον κωδικό σας' }).waitFor();
    expect(await page.getByTestId('invitation-email').textContent()).toBe(family.email);
    await page.getByText('Από 8 έως 128 χαρακτήρες.').waitFor();
    await page.getByLabel('Νέος κωδικός').fill('short');
    await page.getByLabel('Επιβεβαίωση νέου κωδικού').fill('short');
    await page.getByRole('button', { name: 'Ορισμός κωδικού' }).click();
    await page.getByText('Ο κωδικός πρέπει να έχει τουλάχιστον 8 χαρακτήρες').waitFor();
    await page.getByLabel('Νέος κωδικός').fill(PASSWORD);
    await page.getByLabel('Επιβεβαίωση νέου κωδικού').fill(PASSWORD);
    await fitsTheScreen();
    await page.getByRole('button', { name: 'Ορισμός κωδικού' }).click();

    // The sign-in page, her e-mail address filled in.
    await page.waitForURL(`${baseUrl}/login`);
    await page.getByText('Ο κωδικός σας ορίστηκε. Συνδεθείτε με τη διεύθυνση e-mail σας.').waitFor();
    expect(await page.locator('#login-username').inputValue()).toBe(family.email);
    await page.fill('#login-password', PASSWORD);
    await page.click('button[type=submit]');

    // Home: each child with the next lessons and the latest homework.
    await page.waitForURL(`${baseUrl}/portal/`);
    const home = page.locator(`[data-child-id="${first!.id}"]`);
    await home.getByText(`${first!.first_name} ${first!.last_name}`).waitFor();
    await page.locator(`[data-child-id="${second!.id}"]`).waitFor();
    await home.getByText('Ασκήσεις 3 και 4').waitFor();
    await fitsTheScreen();

    // Attendance: the second child has no absence; the first one was absent today.
    await openFromMenu('Παρουσίες');
    await page.waitForURL(`${baseUrl}/portal/attendance/`);
    const switcher = page.getByTestId('child-switcher');
    await switcher.getByText(second!.first_name, { exact: true }).click();
    await page.waitForURL(new RegExp(`/portal/attendance/\\?child=${second!.id}$`));
    await page.getByText('Καμία σημείωση στο διάστημα').first().waitFor();
    await switcher.getByText(first!.first_name, { exact: true }).click();
    await page.waitForURL(new RegExp(`/portal/attendance/\\?child=${first!.id}$`));
    const absence = page.getByTestId('portal-attendance').locator('.ant-table-row', { hasText: family.absentIn });
    await absence.getByText('Απών', { exact: true }).waitFor();
    await fitsTheScreen();

    // Receipts: the first child has none; the second one's paid month has its receipt.
    await openFromMenu('Αποδείξεις');
    await page.waitForURL(/\/portal\/receipts\//);
    await page.getByText('Καμία απόδειξη').waitFor();
    await switcher.getByText(second!.first_name, { exact: true }).click();
    const receipt = page.getByTestId('portal-receipts').locator('[data-receipt-id]').first();
    await receipt.getByText(family.receiptAmount).waitFor();
    await receipt.getByRole('button', { name: /^PDF της απόδειξης / }).waitFor();
    await fitsTheScreen();

    // Her details: the e-mail address is the centre's to change; her city is hers.
    await openFromMenu('Τα στοιχεία μου');
    await page.waitForURL(`${baseUrl}/portal/details/`);
    expect(await page.locator('#portal-email').inputValue()).toBe(family.email);
    expect(await page.locator('#portal-email').isDisabled()).toBe(true);
    await page.getByLabel('Πόλη').fill('Λάρισα');
    await page.getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.getByText('Τα στοιχεία σας αποθηκεύτηκαν.').waitFor();
    await page.reload();
    await expect.poll(() => page.getByLabel('Πόλη').inputValue()).toBe('Λάρισα');
    await fitsTheScreen();

    // A staff screen is not hers: its address brings her back to the portal, and the menu names none.
    await page.goto(`${baseUrl}/students/`);
    await page.waitForURL(`${baseUrl}/portal/`);
    // nor is the staff's account page: her details are the portal's
    await openInApp(page, '/mydata/', '/portal/');
    await page.waitForURL(`${baseUrl}/portal/`);
    await page.getByTestId('menu-toggle').click();
    const menu = page.locator('.ant-drawer-content .ant-menu');
    await menu.getByRole('menuitem', { name: 'Αρχική' }).waitFor();
    expect(await menu.getByRole('menuitem', { name: 'Μαθητές' }).count()).toBe(0);
    expect(await menu.getByRole('menuitem', { name: 'Ημερολόγιο' }).count()).toBe(0);
    used = path;
  });

  it('the used invitation link says it has been used', async () => {
    expect(used).toBeDefined();
    await page.goto(`${baseUrl}${used}`);
    await page.getByRole('heading', { name: 'Ο σύνδεσμος χρησιμοποιήθηκε' }).waitFor();
    await page.getByRole('link', { name: 'Μετάβαση στη σύνδεση' }).waitFor();
  });
});
