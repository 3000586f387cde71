import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { post, rootToken } from './api';
import { openInApp, submitSignIn, useBrowserTab } from './browser';
import { e2eServer } from './server';

// What a teacher sees of her students, in Greek, in a real Chromium against the real server:
// the students of her lesson's class by first and last name, and nothing else of them — no
// column, filter, detail or tab of their contacts, guardian, custom fields or money.
const baseUrl = e2eServer().baseUrl;

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

describe('a teacher’s students', () => {
  it('lists and shows only their first and last names', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const teacher = { username: `ourania${n}`, password: 'teacher-password-1' };
    const { id: teacherId } = await post(token, '/api/teachers', {
      ...teacher,
      confirm_password: teacher.password,
      first_name: 'Ουρανία',
      last_name: `Λεοντίου ${n}`,
    });
    const { id: classId } = await post(token, '/api/classes', { name: `Τμήμα Ορατό ${n}` });
    const { id: subjectId } = await post(token, '/api/subjects', { name: `Χημεία ${n}`, color: '#1677ff' });
    const { id: roomId } = await post(token, '/api/rooms', { name: `Αίθουσα Χ ${n}`, capacity: 10 });
    await post(token, '/api/lessons', {
      date: '2027-11-09',
      start_time: '16:00',
      end_time: '17:00',
      teacher_id: teacherId,
      subject_id: subjectId,
      room_id: roomId,
      class_id: classId,
    });
    const surname = `Φανερή${n}`;
    const hidden = { phone: `+30 697 ${String(n).padStart(5, '0')}`, email: `krifo${n}@example.org` };
    const guardianName = `Κηδεμόνας${n}`;
    const { id: studentId } = await post(token, '/api/students', { first_name: 'Δανάη', last_name: surname, class_ids: [classId], ...hidden });
    await post(token, '/api/guardians', { first_name: 'Κρυφός', last_name: guardianName, student_ids: [studentId] });
    // her guardian's name is as hidden from the teacher as her contacts
    const secrets = { ...hidden, guardian: guardianName };

    await submitSignIn(page, baseUrl, teacher.username, teacher.password);
    await page.waitForURL(`${baseUrl}/`);
    // The sidebar leads her to the students.
    await page.getByRole('link', { name: 'Μαθητές' }).click();
    await page.waitForURL(/\/students\//);
    const row = page.locator('.ant-table-row', { hasText: surname });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain('Δανάη');
    const headers = (await page.locator('.ant-table-thead th').allTextContents()).map((h) => h.trim()).filter(Boolean);
    expect(headers).toEqual(['Επώνυμο', 'Όνομα', 'Ενέργειες']);
    const text = (await page.locator('main').textContent()) ?? '';
    for (const value of Object.values(secrets)) expect(text).not.toContain(value);
    // No import or create: she reads, never writes.
    expect(await page.getByRole('button', { name: 'Εισαγωγή' }).count()).toBe(0);

    // The view: her names, the lessons and the history, no contracts or payments.
    await openInApp(page, `/students/?mode=view&student=${studentId}`);
    const drawer = page.locator('.ant-drawer-content');
    await drawer.getByRole('tab', { name: 'Ιστορικό' }).waitFor();
    await expect.poll(() => drawer.textContent()).toContain(surname);
    const tabs = (await drawer.getByRole('tab').allTextContents()).map((t) => t.trim());
    expect(tabs).not.toContain('Συμβόλαια');
    expect(tabs).not.toContain('Πληρωμές');
    const labels = (await drawer.locator('.ant-descriptions-item-label').allTextContents()).map((l) => l.trim());
    expect(labels).toEqual(['Όνομα', 'Επώνυμο']);
    const shown = (await drawer.textContent()) ?? '';
    for (const value of Object.values(secrets)) expect(shown).not.toContain(value);
  });
});
