import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { call, post, rootToken } from './api';
import { signInAt, useBrowserTab } from './browser';
import { e2eServer } from './server';

// Small things of every day, in Greek, in a real Chromium against the real server: the lessons
// list opens at today, not at the oldest lesson; a new expense is dated today; a custom
// entity's import speaks of its records, not of students.
const baseUrl = e2eServer().baseUrl;

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const shown = (d: Date) => `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;

/** Signs in and lands on `path`: one page load. */
async function signIn(user: { username: string; password: string }, path = '/') {
  await signInAt(page, baseUrl, user.username, user.password, path);
}

describe('daily friction', () => {
  it('the lessons list opens at today’s and the coming lessons; the date filter brings back the old ones', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const teacher = { username: `simera${n}`, password: 'teacher-password-1' };
    const { id: teacherId } = await post(token, '/api/teachers', {
      ...teacher,
      confirm_password: teacher.password,
      first_name: 'Ευτυχία',
      last_name: `Σημερινή ${n}`,
    });
    const past = await post(token, '/api/subjects', { name: `Αρχαία ${n}`, color: '#722ed1' });
    const coming = await post(token, '/api/subjects', { name: `Χημεία ${n}`, color: '#13c2c2' });
    const tomorrow = new Date(Date.now() + 86_400_000);
    await post(token, '/api/lessons', { date: '2025-02-03', start_time: '10:00', end_time: '11:00', teacher_id: teacherId, subject_id: past.id });
    await post(token, '/api/lessons', { date: iso(tomorrow), start_time: '10:00', end_time: '11:00', teacher_id: teacherId, subject_id: coming.id });

    await signIn(teacher, `/lessons/`);
    const rows = page.locator('.ant-table-row');
    await rows.filter({ hasText: `Χημεία ${n}` }).waitFor();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(shown(tomorrow));
    expect(await rows.filter({ hasText: `Αρχαία ${n}` }).count()).toBe(0);

    // the date filter is shown as set, and clearing it lists the old lesson first
    const dateHeader = page.getByRole('columnheader', { name: /Ημερομηνία/ });
    const trigger = dateHeader.locator('.ant-table-filter-trigger');
    expect(await trigger.getAttribute('class')).toContain('active');
    await trigger.click();
    await page.locator('.ant-table-filter-dropdown:visible').locator('button', { hasText: 'Καθαρισμός' }).click();
    await rows.filter({ hasText: `Αρχαία ${n}` }).waitFor();
    expect(await rows.first().textContent()).toContain('03/02/2025');
  });

  it('a new expense is dated today', async () => {
    const token = await rootToken();
    const admin = { username: `exoda${Date.now() % 100_000}`, password: 'admin-password-1' };
    await post(token, '/api/users', { ...admin, role: 'ADMIN', first_name: 'Δήμητρα', last_name: 'Λογίστρια' });
    await signIn(admin, `/account/?mode=create`);
    const form = page.locator('.ant-drawer-content', { hasText: 'Νέο έξοδο' });
    await form.waitFor();
    await expect.poll(() => form.getByLabel('Ημερομηνία', { exact: true }).inputValue()).toBe(shown(new Date()));
  });

  it('importing a custom entity’s records names that entity, not students', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const slug = `ekdromes${n}`;
    const plural = `Εκδρομές ${n}`;
    const made = await call(token, 'POST', '/api/custom-entities', {
      slug,
      name_el: `Εκδρομή ${n}`,
      name_en: slug,
      name_plural_el: plural,
      name_plural_en: `${slug}s`,
      fields: [{ key: 'place', label_el: 'Τόπος', label_en: 'Place', type: 'TEXT', required: true }],
    });
    expect(made.status, await made.clone().text()).toBe(201);

    await signIn(inject('root'), `/custom-entities/entity/${slug}`);
    await page.getByRole('button', { name: 'Εισαγωγή από CSV' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('μία εγγραφή ανά γραμμή', { exact: false }).waitFor();
    await dialog.locator('input[type=file]').setInputFiles({ name: 'ekdromes.csv', mimeType: 'text/csv', buffer: Buffer.from('Τόπος\nΔελφοί\nΜετέωρα\n') });
    await dialog.getByRole('button', { name: 'Εισαγωγή (2)' }).click();
    await dialog.getByText(`Εισήχθησαν 2 εγγραφές σε «${plural}».`, { exact: true }).waitFor();
    expect(await dialog.getByText(/μαθητ/).count()).toBe(0);
  });

  it('on a 390 px phone the notifications break only between words', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const teacher = { username: `kinito${n}`, password: 'teacher-password-1' };
    const { id: teacherId } = await post(token, '/api/teachers', {
      ...teacher,
      confirm_password: teacher.password,
      first_name: 'Αναστασία',
      last_name: `Παπαδημητροπούλου ${n}`,
    });
    const subject = await post(token, '/api/subjects', { name: `Νεοελληνική Γλώσσα και Λογοτεχνία ${n}`, color: '#2f54eb' });
    await post(token, '/api/lessons', { date: '2027-11-09', start_time: '16:00', end_time: '17:00', teacher_id: teacherId, subject_id: subject.id });

    await signIn(teacher, `/notifications/`);
    await page.locator('.ant-table-row').first().waitFor();
    // a word drawn on two lines has client rectangles at two heights
    const broken = await page.evaluate(() => {
      const out: string[] = [];
      for (const cell of document.querySelectorAll('.ant-table-row td')) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const m of (node.textContent ?? '').matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) out.push(m[0]);
          }
        }
      }
      return out;
    });
    expect(broken).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it('on a 390 px phone analytics fits the width', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(inject('root'), `/analytics/`);
    await page.locator('.ant-table-row').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it('a teacher writes the notes of her lesson', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const teacher = { username: `simeioseis${n}`, password: 'teacher-password-1' };
    const { id: teacherId } = await post(token, '/api/teachers', {
      ...teacher,
      confirm_password: teacher.password,
      first_name: 'Ιφιγένεια',
      last_name: `Σημειώνου ${n}`,
    });
    const subject = await post(token, '/api/subjects', { name: `Βιολογία ${n}`, color: '#389e0d' });
    const lesson = await post(token, '/api/lessons', {
      date: '2027-12-07',
      start_time: '12:00',
      end_time: '13:00',
      teacher_id: teacherId,
      subject_id: subject.id,
    });

    await signIn(teacher, `/?mode=view&lesson=${lesson.id}`);
    const view = page.locator('.ant-drawer-content', { hasText: `Βιολογία ${n}` });
    await view.getByRole('button', { name: 'Επεξεργασία σημειώσεων' }).click();
    await view.getByLabel('Σημειώσεις', { exact: true }).fill('Έφερε το τετράδιο εργαστηρίου.');
    await view.getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.getByText('Οι σημειώσεις ενημερώθηκαν').waitFor();
    await view.locator('textarea').waitFor({ state: 'detached' });
    await view.getByText('Έφερε το τετράδιο εργαστηρίου.').waitFor();
    const stored = (await (await call(token, 'GET', `/api/lessons/${lesson.id}`)).json()) as { data: { notes: string } };
    expect(stored.data.notes).toBe('Έφερε το τετράδιο εργαστηρίου.');
  });
});
