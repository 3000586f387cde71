import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { call, post, rootToken } from './api';
import { fillSignIn, modalOpened, openInApp, signInAt, useBrowserTab, whollyOnScreen } from './browser';
import { acceptInvitation, portalFamily, today } from './portal-steps';
import { e2eServer } from './server';

// What a tester saw on the screens, each checked as a user meets it: a new contract's dates,
// the contracts list's monthly fee after the discount, a refused save told once, the stale
// comparison of custom fields, a guardian at a staff address, the portal's role and weekdays,
// and the lesson action's words.
const baseUrl = e2eServer().baseUrl;
const root = inject('root');

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const n = Date.now() % 100_000;
const pad = (v: number) => String(v).padStart(2, '0');
const shown = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/** The drawer whose title is `title`, once it has slid in. */
async function drawer(title: string) {
  const found = page.locator('.ant-drawer-content').filter({ has: page.locator('.ant-drawer-title').getByText(title, { exact: true }) });
  await found.waitFor();
  await whollyOnScreen(page, found);
  return found;
}

/** Every toast and message on the screen now, as text. */
const toasts = () => page.locator('.ant-notification-notice:visible, .ant-message-notice:visible').allTextContents();

describe('defects seen on the screens', () => {
  it('a new contract starts today and ends at the school year’s end, 30 June', async () => {
    await signInAt(page, baseUrl, root.username, root.password, '/contracts/?mode=create');
    const form = await drawer('Νέο συμβόλαιο');
    const now = new Date();
    const summer = now.getMonth() === 6 || now.getMonth() === 7;
    const start = summer ? `${now.getFullYear()}-09-01` : `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
    const end = `${now.getMonth() >= 6 ? now.getFullYear() + 1 : now.getFullYear()}-06-30`;
    await expect.poll(() => form.getByLabel('Έναρξη', { exact: true }).inputValue()).toBe(shown(start));
    expect(await form.getByLabel('Λήξη', { exact: true }).inputValue()).toBe(shown(end));
  });

  it('the contracts list shows a month’s fee after the discount, rounded to the cent', async () => {
    const token = await rootToken();
    const last = `Εκπτωτική ${n}`;
    const student = await post(token, '/api/students', { first_name: 'Ισμήνη', last_name: last });
    const year = new Date().getFullYear() + 5;
    // 123,45 € less 10 %: 111,105 € -> 111,11 € (and not 123,45 €)
    await post(token, '/api/contracts', {
      student_id: student.id,
      start_date: `${year}-09-01`,
      end_date: `${year + 1}-06-30`,
      register_cost: 0,
      month_cost: 12_345,
      discount_percent: 10,
    });
    await signInAt(page, baseUrl, root.username, root.password, '/contracts/');
    const row = page.locator('.ant-table-row', { hasText: last });
    await row.waitFor();
    await row.getByText('111,11 €').waitFor();
    expect(await row.getByText('123,45 €').count()).toBe(0);
  });

  it('a save refused because someone else saved first is told once, by its dialog; its comparison names the custom fields', async () => {
    const token = await rootToken();
    const key = `sxoleio${n}`;
    const label = `Σχολείο ${n}`;
    await post(token, '/api/student-custom-fields', { key, label, type: 'TEXT' });
    const last = `Συγκριτική ${n}`;
    const student = await post(token, '/api/students', { first_name: 'Δανάη', last_name: last, custom_fields: { [key]: '1ο Γυμνάσιο' } });

    await signInAt(page, baseUrl, root.username, root.password, `/students/?mode=update&student=${student.id}`);
    const form = await drawer('Επεξεργασία μαθητή');
    await expect.poll(() => form.getByLabel('Επώνυμο', { exact: true }).inputValue()).toBe(last);
    await expect.poll(() => form.getByLabel(label, { exact: true }).inputValue()).toBe('1ο Γυμνάσιο');

    // someone else saves first
    const fresh = (await (await call(token, 'GET', `/api/students/${student.id}`)).json()) as { data: { version: number } };
    const theirs = await call(token, 'PATCH', `/api/students/${student.id}`, { version: fresh.data.version, custom_fields: { [key]: '2ο Λύκειο' } });
    expect(theirs.status, await theirs.clone().text()).toBe(200);

    await form.getByLabel(label, { exact: true }).fill('3ο Γυμνάσιο');
    await form.getByRole('button', { name: 'Αποθήκευση' }).click();
    const dialog = page.locator('.ant-modal-content');
    await dialog.waitFor();
    await modalOpened(page);
    // the dialog says it; no toast says it again
    await page.waitForTimeout(1_000);
    expect(await toasts()).toEqual([]);
    expect(await page.getByText('Κάποιος άλλος άλλαξε αυτή την εγγραφή', { exact: true }).filter({ visible: true }).count()).toBe(1);

    await dialog.getByRole('button', { name: 'Σύγκριση' }).click();
    const line = dialog.locator('.frontis-stale-compare tbody tr', { has: page.getByRole('rowheader', { name: label, exact: true }) });
    await line.waitFor();
    expect(await line.locator('td').allTextContents()).toEqual(['3ο Γυμνάσιο', '2ο Λύκειο']);
    expect(await dialog.locator('.frontis-stale-compare').textContent()).not.toMatch(/[{}"]/);
  });

  it('another refused save is told by one toast', async () => {
    // a username that is taken: the server refuses the new teacher
    const taken = `didaskalos${n}`;
    await post(await rootToken(), '/api/teachers', {
      username: taken,
      password: 'teacher-password-1',
      confirm_password: 'teacher-password-1',
      first_name: 'Ευδοκία',
      last_name: `Πρώτη ${n}`,
    });
    await signInAt(page, baseUrl, root.username, root.password, '/teachers/?mode=create');
    const form = await drawer('Νέος καθηγητής');
    await form.getByLabel('Όνομα χρήστη', { exact: true }).fill(taken);
    await form.getByLabel('Κωδικός πρόσβασης', { exact: true }).fill('teacher-password-1');
    await form.getByLabel('Επιβεβαίωση κωδικού', { exact: true }).fill('teacher-password-1');
    await form.getByLabel('Όνομα', { exact: true }).fill('Ευδοκία');
    await form.getByLabel('Επώνυμο', { exact: true }).fill(`Διπλή ${n}`);
    await form.getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.locator('.ant-notification-notice', { hasText: 'Η αποθήκευση απέτυχε' }).waitFor();
    await page.waitForTimeout(1_000);
    expect(await toasts()).toHaveLength(1);
    expect(await page.locator('.ant-modal-content:visible').count()).toBe(0);
  });

  it('a guardian at a staff address lands on her portal home, which names her role; English weekdays are short names', async () => {
    const family = await portalFamily('ksenh');
    const password = 'guardian-password-1';
    await acceptInvitation(family.email, password);
    const first = family.children[0]!;

    // a link to the students list, opened while signed out
    await page.goto(`${baseUrl}/students/`);
    await page.waitForURL((url) => url.pathname === '/login');
    await fillSignIn(page, family.email, password);
    await page.waitForURL(`${baseUrl}/portal/`);
    await page.locator(`[data-child-id="${first.id}"]`).getByText(`${first.first_name} ${first.last_name}`).waitFor();
    await page.getByText('Κηδεμόνας', { exact: true }).waitFor();
    expect(await page.getByText('roles.GUARDIAN').count()).toBe(0);

    // the same address typed while signed in
    await page.goto(`${baseUrl}/students/`);
    await page.waitForURL(`${baseUrl}/portal/`);
    await page.locator(`[data-child-id="${first.id}"]`).getByText(`${first.first_name} ${first.last_name}`).waitFor();

    // her children's timetable in English: "Mon 07/12/2026", not "Mo 07/12/2026"
    await page.getByTestId('language-en').click();
    await page.goto(`${baseUrl}/portal/timetable/`);
    const day = today();
    const weekday = new Date(`${day}T12:00:00`).toLocaleDateString('en-GB', { weekday: 'short' });
    await page.getByRole('heading', { name: `${weekday} ${shown(day)}`, exact: true }).waitFor();
    await page.getByText('Guardian', { exact: true }).waitFor();
  });

  it('the lesson action reads “Mark as replaced” in English and “Σήμανση ως αναπληρωμένη” in Greek', async () => {
    const token = await rootToken();
    const subject = await post(token, '/api/subjects', { name: `Ιστορία ${n}`, color: '#13c2c2' });
    const lesson = await post(token, '/api/lessons', { date: today(), start_time: '21:00', end_time: '22:00', subject_id: subject.id });
    await signInAt(page, baseUrl, root.username, root.password, `/?mode=view&lesson=${lesson.id}`);
    await page.getByRole('button', { name: 'Σήμανση ως αναπληρωμένη', exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await page.locator('.ant-drawer-content').waitFor({ state: 'detached' });
    await page.getByTestId('language-en').click();
    await openInApp(page, `/?mode=view&lesson=${lesson.id}`);
    await page.getByRole('button', { name: 'Mark as replaced', exact: true }).waitFor();
  });

  it('a long student import shows how far the server has come, then its report', async () => {
    const last = `Πολυπληθής${n}`;
    const csv = ['Όνομα,Επώνυμο', ...Array.from({ length: 600 }, (_, i) => `Μαθητής${i},${last}`)].join('\n');
    await signInAt(page, baseUrl, root.username, root.password, '/students/');
    await page.getByRole('button', { name: 'Εισαγωγή από CSV' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('input[type=file]').setInputFiles({ name: 'polloi.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByRole('button', { name: 'Εισαγωγή (600)' }).click();
    // the server answers at once and works on: the dialog says how far it has come
    // (read where it is seen: it goes once the report is there)
    const progress = await page.waitForFunction(() => document.querySelector('[data-testid=import-progress]')?.textContent);
    expect(await progress.jsonValue()).toMatch(/^Ελέγχθηκαν \d+ από 600 γραμμές, δημιουργήθηκαν \d+$/);
    await dialog.getByText('Εισήχθησαν 600 μαθητές.', { exact: true }).waitFor({ timeout: 60_000 });
    const found = (await (await call(await rootToken(), 'GET', `/api/students?_end=1&q=${encodeURIComponent(last)}`)).json()) as { total: number };
    expect(found.total).toBe(600);
  });
});
