import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { JSON_HEADERS, post, rootToken } from './api';
import { openInApp, signInAt, submitSignIn, useBrowserTab } from './browser';
import { e2eServer } from './server';

// The foundation screens in a real Chromium against the real server (tests/e2e/global-setup.ts).
const baseUrl = e2eServer().baseUrl;
const apiBase = e2eServer().apiBase;
const root = inject('root');

const tab = useBrowserTab({ width: 1280, height: 800 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const path = () => new URL(page.url()).pathname;
const text = (value: string) => page.getByText(value, { exact: true }).first().waitFor();
const heading = (name: string) => page.getByRole('heading', { name, exact: true }).first().waitFor();

const signIn = (username: string, password: string) => submitSignIn(page, baseUrl, username, password);

/** A SECRETARY of the demo tenant, created through the API as ROOT. */
async function createSecretary(): Promise<{ username: string; password: string }> {
  const headers = { 'content-type': 'application/json', 'x-client-type': 'api', 'x-tenant-id': 'demo' };
  const login = await fetch(`${apiBase}/login`, { method: 'POST', headers, body: JSON.stringify({ ...root, tenant: 'demo' }) });
  expect(login.status).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const user = { username: `secretary${Date.now()}`, password: 'secretary-password-1' };
  const created = await fetch(`${apiBase}/api/users`, {
    method: 'POST',
    headers: { ...headers, authorization: `Bearer ${token}` },
    body: JSON.stringify({ ...user, role: 'SECRETARY', first_name: 'Ελένη', last_name: 'Γραμματέως' }),
  });
  expect(created.status).toBe(201);
  return user;
}

describe('sign-in page', () => {
  it('is in Greek by default', async () => {
    await page.goto(`${baseUrl}/login`);
    await page.locator('h1', { hasText: 'Σύνδεση' }).waitFor();
    await text('Όνομα χρήστη');
    await text('Κωδικός πρόσβασης');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('el');
  });

  it('requires username and password, in Greek and in English', async () => {
    await page.goto(`${baseUrl}/login`);
    await page.click('button[type=submit]');
    await text('Το όνομα χρήστη είναι υποχρεωτικό');
    await text('Ο κωδικός πρόσβασης είναι υποχρεωτικός');
    await page.getByText('EN', { exact: true }).click();
    await text('Username is required');
    await text('Password is required');
    expect(path()).toBe('/login');
  });

  it('says the credentials are wrong', async () => {
    await page.goto(`${baseUrl}/login`);
    await page.getByText('EN', { exact: true }).click();
    // the page speaks English before the form is sent: its answer is then written in English
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.fill('#login-username', root.username);
    await page.fill('#login-password', 'not-the-password');
    await page.click('button[type=submit]');
    await text('Username or Password are incorrect!');
    await text('Login failed. Please check your credentials.');
    expect(path()).toBe('/login');
  });

  it('says so in Greek too', async () => {
    await signIn('nobody-here', 'whatever-password');
    await text('Λάθος όνομα χρήστη ή κωδικός πρόσβασης!');
  });
});

describe('the shell', () => {
  it('signs in, keeps the session record and shows the shell', async () => {
    await signIn(root.username, root.password);
    await page.waitForURL(`${baseUrl}/`);
    await heading('Ημερολόγιο');
    await text('Φροντιστήρια');
    await page.getByRole('menuitem', { name: 'Ρυθμίσεις' }).click();
    await text('Χρήστες/Διαχειριστές');
    const stored = await page.evaluate(() => ({ token: localStorage.getItem('token'), user: localStorage.getItem('user') }));
    expect(stored.token).toBeTruthy();
    const user = JSON.parse(stored.user ?? '{}') as { username: string; role: string; exp: number };
    expect(user.username).toBe(root.username);
    expect(user.role).toBe('ROOT');
    expect(user.exp).toBeGreaterThan(Date.now() / 1000);
  });

  it('sends a visitor to /login with the page to come back to, and returns there', async () => {
    await page.goto(`${baseUrl}/settings/`);
    await page.waitForURL(/\/login\?redirect=%2Fsettings%2F$/);
    await page.fill('#login-username', root.username);
    await page.fill('#login-password', root.password);
    await page.click('button[type=submit]');
    await page.waitForURL(`${baseUrl}/settings/`);
    await heading('Χρήστες/Διαχειριστές');
  });

  it('ignores a redirect to another site', async () => {
    await page.goto(`${baseUrl}/login?redirect=${encodeURIComponent('//example.com/x')}`);
    await page.fill('#login-username', root.username);
    await page.fill('#login-password', root.password);
    await page.click('button[type=submit]');
    await page.waitForURL(`${baseUrl}/`);
  });

  it('switches to English and remembers it', async () => {
    await signIn(root.username, root.password);
    await page.waitForURL(`${baseUrl}/`);
    await page.locator('header').getByText('EN', { exact: true }).click();
    await heading('Calendar');
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await text('Users/Admins');
    await page.reload();
    await heading('Calendar');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
  });

  it('shows Not Found for an unknown route', async () => {
    await signInAt(page, baseUrl, root.username, root.password, '/no-such-screen');
    await text('Δεν βρέθηκε');
  });

  it('sends a SECRETARY away from /settings/ to /', async () => {
    const secretary = await createSecretary();
    await signIn(secretary.username, secretary.password);
    await page.waitForURL(`${baseUrl}/`);
    await heading('Ημερολόγιο');
    expect(await page.getByText('Χρήστες/Διαχειριστές').count()).toBe(0);
    // followed inside the app, as a link; the next one typed, on a page loaded afresh
    await openInApp(page, '/settings/', '/');
    await page.waitForURL(`${baseUrl}/`);
    await heading('Ημερολόγιο');
    await page.goto(`${baseUrl}/tenants/`);
    await page.waitForURL(`${baseUrl}/`);
  });

  it('signs out from the user menu', async () => {
    await signIn(root.username, root.password);
    await page.waitForURL(`${baseUrl}/`);
    await page.click('[data-testid=user-menu]');
    await page.locator('.ant-dropdown-menu-item', { hasText: 'Αποσύνδεση' }).click();
    await page.waitForURL(`${baseUrl}/login`);
    const stored = await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')]);
    expect(stored).toEqual([null, null]);
    await page.goto(`${baseUrl}/`);
    await page.waitForURL(`${baseUrl}/login`);
  });
});

describe('Users/Admins', () => {
  it('creates a secretary from the drawer that ?mode=create opens, and edits it from ?mode=update', async () => {
    await signInAt(page, baseUrl, root.username, root.password, '/settings/?mode=create');
    await text('Νέος χρήστης');
    const username = `grammateia${Date.now()}`;
    const drawer = page.locator('.ant-drawer');
    await drawer.getByLabel('Όνομα χρήστη').fill(username);
    await drawer.getByLabel('Κωδικός πρόσβασης').fill('secretary-password-1');
    await drawer.getByLabel('Ρόλος').click({ force: true });
    await page.locator('.ant-select-item-option', { hasText: 'Γραμματεία' }).click();
    await drawer.getByLabel('Όνομα', { exact: true }).fill('Σοφία');
    await drawer.getByLabel('Επώνυμο').fill('Ζαχαρίου');
    await drawer.getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.locator('.ant-table-row', { hasText: username }).waitFor();
    expect(new URL(page.url()).searchParams.get('mode')).toBeNull();

    await page.locator('.ant-table-row', { hasText: username }).locator('button').first().click();
    expect(new URL(page.url()).searchParams.get('mode')).toBe('update');
    // The drawer loads the row first; typing before that would be overwritten.
    await expect.poll(() => drawer.getByLabel('Επώνυμο').inputValue(), { timeout: 10_000 }).toBe('Ζαχαρίου');
    await drawer.getByLabel('Επώνυμο').fill('Ζαχαρίου-Νικολάου');
    await drawer.getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.locator('.ant-table-row', { hasText: 'Ζαχαρίου-Νικολάου' }).waitFor();

    // The list exports what it shows as CSV, with translated headers and values.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Εξαγωγή CSV' }).click()]);
    const csv = await new Promise<string>((resolve, reject) => {
      void download.createReadStream().then((stream) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        stream.on('error', reject);
      }, reject);
    });
    expect(csv).toContain('Όνομα χρήστη');
    expect(csv).toContain(username);
    expect(csv).toContain('Γραμματεία');
  });

  it("refuses a save over someone else's newer version (409) and offers to load theirs", async () => {
    const token = await rootToken();
    const username = `stale${Date.now()}`;
    const { id } = await post(token, '/api/users', { username, password: 'secretary-password-1', role: 'SECRETARY', first_name: 'Άννα', last_name: 'Πρώτη' });
    await signInAt(page, baseUrl, root.username, root.password, `/settings/?mode=update&user=${id}`);
    const drawer = page.locator('.ant-drawer');
    await expect.poll(() => drawer.getByLabel('Επώνυμο').inputValue(), { timeout: 10_000 }).toBe('Πρώτη');

    // Someone else saves the same user while the drawer is open.
    const other = await fetch(`${apiBase}/api/users/${id}`, {
      method: 'PATCH',
      headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` },
      body: JSON.stringify({ last_name: 'Δεύτερη', version: 1 }),
    });
    expect(other.status, await other.clone().text()).toBe(200);

    await drawer.getByLabel('Επώνυμο').fill('Τρίτη');
    await drawer.getByRole('button', { name: 'Αποθήκευση' }).click();
    const offer = page.locator('.ant-modal-confirm', { hasText: 'Κάποιος άλλος άλλαξε αυτή την εγγραφή' });
    await offer.waitFor();
    await offer.getByRole('button', { name: 'Φόρτωση των τιμών του διακομιστή' }).click();
    await expect.poll(() => drawer.getByLabel('Επώνυμο').inputValue(), { timeout: 10_000 }).toBe('Δεύτερη');
  });
});
