import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { post, rootToken } from './api';
import { chooseOption, openInApp, useBrowserTab, whollyOnScreen } from './browser';
import { customEntitySteps } from './custom-entities-steps';
import { e2eServer } from './server';

// Custom entities in a real Chromium against the real server, in Greek: ROOT defines "Εξετάσεις"
// in the builder (a student reference, a date, a grade, a subject choice); an ADMIN finds it in
// the sidebar without a rebuild; a SECRETARY adds three exams, filters and exports them, and
// finds them on the student's new tab; a TEACHER reads them and cannot change them.
const baseUrl = e2eServer().baseUrl;
const root = inject('root');

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const n = Date.now() % 100_000;
const SLUG = `exams${n}`;
const people = {
  admin: { username: `dieythyntria${n}`, password: 'admin-password-1' },
  secretary: { username: `grammateia${n}`, password: 'secretary-password-1' },
  teacher: { username: `kathigitis${n}`, password: 'teacher-password-1' },
};
let eleni = 0;

beforeAll(async () => {
  const token = await rootToken();
  await post(token, '/api/users', { ...people.admin, role: 'ADMIN', first_name: 'Άννα', last_name: 'Διευθύντρια' });
  await post(token, '/api/users', { ...people.secretary, role: 'SECRETARY', first_name: 'Σοφία', last_name: 'Γραμματέως' });
  await post(token, '/api/teachers', { ...people.teacher, confirm_password: people.teacher.password, first_name: 'Νίκος', last_name: `Αλεξίου ${n}` });
  eleni = (await post(token, '/api/students', { first_name: 'Ελένη', last_name: `Παππά ${n}` })).id;
  await post(token, '/api/students', { first_name: 'Γιώργος', last_name: `Νικολάου ${n}` });
});

const { signIn, drawer, rows, sidebar, card, defineField } = customEntitySteps(tab);

/** Adds one exam through the drawer form. */
async function addExam(student: string, date: string, grade: string, subject: string) {
  await page.getByRole('button', { name: 'Νέα εγγραφή: Εξέταση' }).click();
  await page.waitForURL(/mode=create/);
  const form = drawer();
  // The drawer slides in: wait until its first field is wholly on the screen.
  await whollyOnScreen(page, form.getByLabel('Μαθητής', { exact: true }));
  await form.getByLabel('Μαθητής', { exact: true }).click({ force: true });
  await form.getByLabel('Μαθητής', { exact: true }).fill(student.split(' ')[1]!);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: student }).first().click();
  await form.getByLabel('Ημερομηνία', { exact: true }).fill(date);
  await form.getByLabel('Ημερομηνία', { exact: true }).press('Enter');
  await form.getByLabel('Βαθμός', { exact: true }).fill(grade);
  await chooseOption(page, form, 'Μάθημα', subject);
  await form.getByRole('button', { name: 'Αποθήκευση' }).click();
  await page.waitForURL((url) => !url.search.includes('mode='));
}

describe('custom entities', () => {
  it('ROOT defines "Εξετάσεις" in the builder, with a live preview, and finds it in the sidebar at once', async () => {
    await signIn(root);
    await sidebar().getByText('Προσαρμοσμένες οντότητες').click();
    await page.waitForURL(/\/custom-entities\/$/);
    await page.getByRole('button', { name: 'Νέα οντότητα' }).click();
    await page.waitForURL(/\/custom-entities\/builder\/\?mode=create/);
    await page.getByText('Προεπισκόπηση φόρμας').waitFor();
    const box = (name: string) => page.getByLabel(name, { exact: true });

    await box('Αναγνωριστικό (slug)').fill(SLUG);
    await box('Όνομα (ελληνικά)').fill('Εξέταση');
    await box('Όνομα στον πληθυντικό (ελληνικά)').fill('Εξετάσεις');
    await box('Όνομα (αγγλικά)').fill('Exam');
    await box('Όνομα στον πληθυντικό (αγγλικά)').fill('Exams');
    await box('Περιγραφή').fill('Διαγωνίσματα προσομοίωσης');

    await defineField(0, { key: 'student', el: 'Μαθητής', en: 'Student', type: 'Αναφορά σε εγγραφή' });
    await chooseOption(page, card(0), 'Αναφέρεται σε', 'Μαθητές');
    await card(0).getByLabel('Υποχρεωτικό').check();
    await defineField(1, { key: 'held_on', el: 'Ημερομηνία', en: 'Date', type: 'Ημερομηνία' });
    await defineField(2, { key: 'grade', el: 'Βαθμός', en: 'Grade', type: 'Αριθμός' });
    await defineField(3, { key: 'subject', el: 'Μάθημα', en: 'Subject', type: 'Μία επιλογή' });
    const options = card(3).getByLabel('Επιλογές', { exact: true });
    for (const option of ['Μαθηματικά', 'Φυσική', 'Χημεία']) {
      await options.fill(option);
      await options.press('Enter');
    }

    // the preview shows the record form as it will be
    const preview = page.getByTestId('entity-preview');
    for (const label of ['Μαθητής', 'Ημερομηνία', 'Βαθμός', 'Μάθημα']) await preview.getByText(label, { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.waitForURL(/\/custom-entities\/$/);
    await rows().filter({ hasText: SLUG }).getByText('4 πεδία').waitFor();
    // no sign-out, no reload: the entity is in the sidebar
    await sidebar().getByText('Εξετάσεις', { exact: true }).click({ timeout: 30_000 });
    await page.waitForURL(new RegExp(`/custom-entities/entity/${SLUG}/`));
    await page.getByText('Διαγωνίσματα προσομοίωσης').waitFor();
    await page.getByText('Κανένα αποτέλεσμα.').first().waitFor();
  });

  it('an ADMIN sees it in the sidebar without a rebuild', async () => {
    await signIn(people.admin);
    await sidebar().getByText('Εξετάσεις', { exact: true }).click({ timeout: 30_000 });
    await page.waitForURL(new RegExp(`/custom-entities/entity/${SLUG}/`));
    await page.getByRole('button', { name: 'Νέα εγγραφή: Εξέταση' }).waitFor();
    // the builder stays ROOT's
    expect(await sidebar().getByText('Προσαρμοσμένες οντότητες').count()).toBe(0);
  });

  it('a SECRETARY adds three exams, filters and exports them, and sees them on the student', async () => {
    await signIn(people.secretary);
    await sidebar().getByText('Εξετάσεις', { exact: true }).click({ timeout: 30_000 });
    await page.waitForURL(new RegExp(`/custom-entities/entity/${SLUG}/`));
    await addExam(`Ελένη Παππά ${n}`, '12/01/2027', '18', 'Μαθηματικά');
    await addExam(`Ελένη Παππά ${n}`, '19/01/2027', '15', 'Φυσική');
    await addExam(`Γιώργος Νικολάου ${n}`, '19/01/2027', '17', 'Φυσική');
    await expect.poll(() => rows().count(), { timeout: 15_000 }).toBe(3);
    // the reference shows the student's name and links to the student
    const link = rows()
      .first()
      .getByRole('link', { name: /Παππά|Νικολάου/ });
    expect(await link.getAttribute('href')).toMatch(/^\/students\/\?mode=view&student=\d+$/);

    // filter by subject: the two physics exams
    await page.getByRole('columnheader', { name: 'Μάθημα' }).locator('.ant-table-filter-trigger').click();
    const dropdown = page.locator('.ant-table-filter-dropdown:visible');
    await dropdown.getByText('Φυσική', { exact: true }).click();
    await dropdown.getByRole('button', { name: 'Φίλτρο' }).click();
    await expect.poll(() => rows().count(), { timeout: 15_000 }).toBe(2);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Εξαγωγή CSV' }).click()]);
    const csv = await new Promise<string>((resolve, reject) => {
      void download.createReadStream().then((stream) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        stream.on('error', reject);
      }, reject);
    });
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toContain('Μαθητής');
    expect(lines[0]).toContain('Βαθμός');
    expect(lines).toHaveLength(3);
    expect(csv).toContain(`Γιώργος Νικολάου ${n}`);
    expect(csv).toContain('19/01/2027');
    expect(csv).not.toContain('Μαθηματικά');

    // the student's view has a tab of her exams
    await openInApp(page, `/students/?mode=view&student=${eleni}`);
    await drawer().getByRole('tab', { name: 'Εξετάσεις' }).click();
    const panel = drawer().locator('.ant-tabs-tabpane-active');
    await panel.getByText('Μαθηματικά').waitFor();
    await panel.getByText('Φυσική').waitFor();
    expect(await panel.locator('.ant-table-row').count()).toBe(2);
  });

  it('a TEACHER reads the exams and cannot change them', async () => {
    await signIn(people.teacher);
    await sidebar().getByText('Εξετάσεις', { exact: true }).click({ timeout: 30_000 });
    await page.waitForURL(new RegExp(`/custom-entities/entity/${SLUG}/`));
    await expect.poll(() => rows().count(), { timeout: 15_000 }).toBe(3);
    expect(await page.getByRole('button', { name: 'Νέα εγγραφή: Εξέταση' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Εισαγωγή από CSV' }).count()).toBe(0);
    expect(await rows().first().getByRole('button', { name: 'Επεξεργασία' }).count()).toBe(0);
    expect(await rows().first().getByRole('button', { name: 'Διαγραφή' }).count()).toBe(0);
    await rows().first().getByRole('button', { name: 'Προβολή' }).click();
    await page.waitForURL(/mode=view/);
    await drawer().getByText('Βαθμός').waitFor();
    expect(await drawer().getByRole('button', { name: 'Επεξεργασία' }).count()).toBe(0);
    // the builder is not theirs
    await openInApp(page, '/custom-entities/builder/?mode=create', '/');
    await page.waitForURL(`${baseUrl}/`);
  });
});
