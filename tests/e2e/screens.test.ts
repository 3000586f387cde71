import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { call, post, rootToken } from './api';
import { openInApp, signInAt, useBrowserTab, whollyOnScreen } from './browser';
import { e2eServer } from './server';

// The screens and modes no other browser test opens, in Greek, as ROOT against the real server:
// the teachers (list, the new-teacher drawer, a teacher's view), the notes, the lesson types and
// tags, the contract categories, the centres' drawers; the lessons' filter and series
// (bulk_update) modes; the contracts' filter mode and contract_type links; the account's expense
// drawers and expense_month; the calendar's previous, next and today; the error page of a screen
// that cannot load, and the reload-once rule when its part fails to load once.
const baseUrl = e2eServer().baseUrl;
const root = inject('root');

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const n = Date.now() % 100_000;
const pad = (v: number) => String(v).padStart(2, '0');
const now = new Date();
const THIS_MONTH = `${now.getFullYear()}-${pad(now.getMonth() + 1)}`;
const LAST = new Date(now.getFullYear(), now.getMonth() - 1, 10);
const LAST_MONTH = `${LAST.getFullYear()}-${pad(LAST.getMonth() + 1)}`;

/** Signs in as ROOT and lands on `path`: one page load. */
const signInAsRoot = (path = '/') => signInAt(page, baseUrl, root.username, root.password, path);

const drawer = (title: string) => page.locator('.ant-drawer-content').filter({ has: page.locator('.ant-drawer-title').getByText(title, { exact: true }) });

/** The drawer titled `title`, once it has slid in. */
async function opened(title: string): Promise<Locator> {
  const found = drawer(title);
  await found.waitFor();
  await whollyOnScreen(page, found);
  return found;
}

/** How long a check of the page may wait for it to settle. */
const settle = { timeout: 10_000 };

/** The screen's heading. */
const heading = (name: string) => page.getByRole('heading', { name, exact: true }).first();

describe('screens and modes', () => {
  it('teachers: the list, a new teacher made in its drawer, and her view', async () => {
    await signInAsRoot(`/teachers/`);
    await heading('Καθηγητές').waitFor();
    await page.getByRole('button', { name: 'Νέος καθηγητής' }).click();
    const form = await opened('Νέος καθηγητής');
    await form.getByLabel('Όνομα χρήστη', { exact: true }).fill(`kathigitria${n}`);
    await form.getByLabel('Κωδικός πρόσβασης', { exact: true }).fill('teacher-password-1');
    await form.getByLabel('Επιβεβαίωση κωδικού', { exact: true }).fill('teacher-password-1');
    await form.getByLabel('Όνομα', { exact: true }).fill('Ασπασία');
    await form.getByLabel('Επώνυμο', { exact: true }).fill(`Οθέλλου${n}`);
    await form.getByRole('button', { name: 'Αποθήκευση' }).click();
    await form.waitFor({ state: 'detached' });
    const row = page.locator('.ant-table-row', { hasText: `Οθέλλου${n}` });
    await row.waitFor();

    const token = await rootToken();
    const found = (await (await call(token, 'GET', `/api/teachers?q=${encodeURIComponent(`Οθέλλου${n}`)}`)).json()) as { data: { id: number }[] };
    expect(found.data).toHaveLength(1);
    await openInApp(page, `/teachers/?mode=view&teacher=${found.data[0]!.id}`);
    const view = await opened('Καθηγητής');
    await view.getByText(`kathigitria${n}`).first().waitFor();
    await view.getByText(`Οθέλλου${n}`).first().waitFor();
  });

  it('notes: the list, and a note opened in view mode from its link', async () => {
    const token = await rootToken();
    const note = await post(token, '/api/notes', { title: `Υπενθύμιση ${n}`, body: `Φέρτε τα βιβλία της ${n}.` });
    await signInAsRoot(`/notes/`);
    await heading('Σημειώσεις').waitFor();
    await page.locator('.ant-table-row', { hasText: `Υπενθύμιση ${n}` }).waitFor();
    await openInApp(page, `/notes/?mode=view&note=${note.id}`);
    const view = await opened('Σημείωση');
    await view.getByText(`Φέρτε τα βιβλία της ${n}.`).waitFor();
  });

  it('lesson types and tags, and contract categories: their settings screens list them', async () => {
    const token = await rootToken();
    await post(token, '/api/lesson-types', { name: `Προετοιμασία ${n}` });
    await post(token, '/api/lesson-tags', { name: `Επανάληψη ${n}` });
    await post(token, '/api/contract-categories', { name: `Θερινό ${n}` });
    await signInAsRoot(`/lessons/settings`);
    await page.getByText('Τύποι μαθημάτων').first().waitFor();
    await page.getByText(`Προετοιμασία ${n}`).waitFor();
    await page.getByRole('tab', { name: 'Ετικέτες μαθημάτων' }).click();
    await page.getByText(`Επανάληψη ${n}`).waitFor();

    await openInApp(page, `/contracts/settings`);
    await page.getByText('Κατηγορία συμβολαίων').first().waitFor();
    await page.getByText(`Θερινό ${n}`).waitFor();
    await page.getByRole('button', { name: 'Νέα κατηγορία' }).click();
    const form = await opened('Νέα κατηγορία');
    await form.getByLabel('Όνομα', { exact: true }).waitFor();
  });

  it('centres: the new-centre drawer, and a centre opened for editing from its link', async () => {
    await signInAsRoot(`/tenants/`);
    await heading('Φροντιστήρια').waitFor();
    await page.getByRole('button', { name: 'Νέο φροντιστήριο' }).click();
    const form = await opened('Νέο φροντιστήριο');
    await form.getByLabel('Όνομα υποτομέα', { exact: true }).waitFor();
    await form.getByText('Πρώτος διαχειριστής').first().waitFor();
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });

    const token = await rootToken();
    const tenants = (await (await call(token, 'GET', '/api/tenants?q=demo')).json()) as { data: { id: number; slug: string; name: string }[] };
    const demo = tenants.data.find((t) => t.slug === 'demo')!;
    await openInApp(page, `/tenants/?mode=update&tenant=${demo.id}`);
    const edit = await opened('Επεξεργασία φροντιστηρίου');
    await expect.poll(() => edit.getByLabel('Επωνυμία', { exact: true }).inputValue(), settle).toBe(demo.name);
  });

  it('lessons: the filter mode and a series opened in bulk_update mode', async () => {
    const token = await rootToken();
    const teacher = await post(token, '/api/teachers', {
      username: `seira${n}`,
      password: 'teacher-password-1',
      confirm_password: 'teacher-password-1',
      first_name: 'Σοφία',
      last_name: `Σειράς ${n}`,
    });
    const series = await post(token, '/api/recurring-lessons', {
      start_time: '09:00',
      end_time: '10:00',
      teacher_id: teacher.id,
      repeat: 'WEEKLY',
      repeat_every: 1,
      weekdays: [2],
      start_date: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
      end_type: 'AFTER',
      occurrences: 4,
    });
    await signInAsRoot(`/lessons/?mode=filter`);
    const filters = await opened('Φίλτρα');
    await filters.getByRole('button', { name: 'Φίλτρο' }).waitFor();
    await page.keyboard.press('Escape');
    await filters.waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('mode')).toBeNull();

    await openInApp(page, `/lessons/?mode=bulk_update&recurring_lesson=${series.id}`);
    const edit = await opened('Επεξεργασία σειράς');
    await expect.poll(() => edit.locator('input[value="09:00"]').count(), settle).toBeGreaterThan(0);
  });

  it('contracts: the filter mode, and contract_type=true|false links filter by receipt', async () => {
    const token = await rootToken();
    const category = await post(token, '/api/contract-categories', { name: `Ετήσιο ${n}` });
    const contract = (first: string, withReceipt: boolean) =>
      post(token, '/api/students', { first_name: first, last_name: `Διαθήκης${n}` }).then((s) =>
        post(token, '/api/contracts', {
          student_id: s.id,
          category_id: category.id,
          start_date: `${THIS_MONTH}-01`,
          end_date: `${now.getFullYear() + 1}-06-30`,
          register_cost: 0,
          month_cost: 10000,
          with_receipt: withReceipt,
        }),
      );
    await contract('Ρόδη', true);
    await contract('Κρίτων', false);
    await signInAsRoot(`/contracts/?mode=filter`);
    const filters = await opened('Φίλτρα συμβολαίων');
    await filters.getByText('Ενεργά στις', { exact: true }).waitFor();
    await filters.getByText('Τμήμα', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await filters.waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('mode')).toBeNull();

    const row = (first: string) => page.locator('.ant-table-row', { hasText: `${first} Διαθήκης${n}` });
    const shown = async (type: string) => {
      await page.goto(`${baseUrl}/contracts/${type}`);
      await page.getByRole('searchbox').fill(`Διαθήκης${n}`);
      await page.getByRole('searchbox').press('Enter');
      await row(type.includes('false') ? 'Κρίτων' : 'Ρόδη').waitFor();
      return [await row('Ρόδη').count(), await row('Κρίτων').count()];
    };
    expect(await shown('')).toEqual([1, 1]);
    await page.locator('.ant-select-selection-item', { hasText: 'Με και χωρίς απόδειξη' }).waitFor();
    await shown('?contract_type=true');
    await expect.poll(() => row('Κρίτων').count(), settle).toBe(0);
    expect(await row('Ρόδη').count()).toBe(1);
    await page.locator('.ant-select-selection-item', { hasText: 'Με απόδειξη' }).waitFor();
    await shown('?contract_type=false');
    await expect.poll(() => row('Ρόδη').count(), settle).toBe(0);
    expect(await row('Κρίτων').count()).toBe(1);
    await page.locator('.ant-select-selection-item', { hasText: 'Χωρίς απόδειξη' }).waitFor();
  });

  it('account: the new-expense and edit-expense drawers, and expense_month showing that month', async () => {
    const token = await rootToken();
    const expense = await post(token, '/api/expenses', { date: `${LAST_MONTH}-10`, amount: 12345, description: `Χαρτικά ${n}` });
    await signInAsRoot(`/account/?expense_month=${LAST_MONTH}`);
    await heading('Λογαριασμός').waitFor();
    const row = page.locator('.ant-table-row', { hasText: `Χαρτικά ${n}` });
    await row.waitFor();
    await row.getByText('123,45 €').waitFor();
    await openInApp(page, `/account/?expense_month=${THIS_MONTH}`);
    await heading('Λογαριασμός').waitFor();
    await expect.poll(() => row.count(), settle).toBe(0);

    await page.getByRole('button', { name: 'Νέο έξοδο' }).click();
    const create = await opened('Νέο έξοδο');
    await create.getByLabel('Ποσό', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await create.waitFor({ state: 'detached' });

    await openInApp(page, `/account/?expense_month=${LAST_MONTH}&mode=update&expense=${expense.id}`);
    const edit = await opened('Επεξεργασία εξόδου');
    await expect.poll(() => edit.getByLabel('Περιγραφή', { exact: true }).inputValue(), settle).toBe(`Χαρτικά ${n}`);
  });

  it("the calendar's previous, next and today move its range and bring it back", async () => {
    await signInAsRoot();
    const calendar = page.locator('[data-testid="lesson-calendar"][data-loading="false"]');
    await calendar.waitFor();
    const label = page.locator('.rbc-toolbar-label');
    // the big calendar's own toolbar (the sidebar's small month calendar has its own arrows)
    const toolbar = page.getByTestId('lesson-calendar');
    const first = await label.textContent();
    await toolbar.getByRole('button', { name: 'Επόμενο' }).click();
    await expect.poll(() => label.textContent(), settle).not.toBe(first);
    const next = await label.textContent();
    await toolbar.getByRole('button', { name: 'Προηγούμενο' }).click();
    await expect.poll(() => label.textContent(), settle).toBe(first);
    await toolbar.getByRole('button', { name: 'Προηγούμενο' }).click();
    await expect.poll(() => label.textContent(), settle).not.toBe(first);
    expect(await label.textContent()).not.toBe(next);
    await toolbar.getByRole('button', { name: 'Σήμερα' }).click();
    await expect.poll(() => label.textContent(), settle).toBe(first);
  });

  it('a screen whose part fails to load once reloads once and shows; failing again, the error page with its toggle', async () => {
    await signInAsRoot();
    const chunk = /\/assets\/teachers-[^/]+\.js$/;
    let documents = 0;
    page.on('request', (r) => {
      if (r.resourceType() === 'document') documents++;
    });
    // As after a deploy: the part is missing for the page as first loaded, there after a reload.
    let failures = 0;
    await page.route(chunk, (route) => {
      if (documents < 2) {
        failures++;
        return route.abort('failed');
      }
      return route.continue();
    });
    await page.goto(`${baseUrl}/teachers/`);
    await heading('Καθηγητές').waitFor();
    expect(failures).toBeGreaterThan(0);
    // the page itself, then the one reload
    expect(documents).toBe(2);
    await page.unroute(chunk);

    // A part that never loads: one reload, then the error page instead of reloading forever.
    await page.route(/\/assets\/notes?-[^/]*\.js$|\/assets\/contracts-[^/]+\.js$/, (route) => route.abort('failed'));
    documents = 0;
    await page.goto(`${baseUrl}/contracts/`);
    const alert = page.getByRole('alert').filter({ hasText: 'Κάτι πήγε στραβά!' });
    await alert.waitFor();
    expect(documents).toBe(2);
    await alert.getByRole('button', { name: 'Εμφάνιση σφάλματος' }).click();
    await alert.locator('pre').waitFor();
    await alert.getByRole('button', { name: 'Απόκρυψη σφάλματος' }).click();
    await expect.poll(() => alert.locator('pre').count(), settle).toBe(0);
    await alert.getByRole('button', { name: 'Επαναφόρτωση σελίδας' }).waitFor();
  });
});
