import dayjs from 'dayjs';
import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { call, mailbox, post, rootToken } from './api';
import { signInAt, submitSignIn, useBrowserTab } from './browser';
import { e2eServer } from './server';

// A teacher on her phone (390 px, Greek) opens today's lesson in the calendar, marks one
// student absent and the rest present with "all present", and saves; the absent student's
// guardian receives the notice in the test SMTP server's mailbox after the grace period.
const baseUrl = e2eServer().baseUrl;
const WIDTH = 390;

const tab = useBrowserTab({ width: WIDTH, height: 844 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

/** Today where the browser runs (its calendar opens at this day), YYYY-MM-DD. */
const today = () => dayjs().format('YYYY-MM-DD');

async function opened(title: string): Promise<Locator> {
  const found = page.locator('.ant-drawer-content').filter({ has: page.locator('.ant-drawer-title').getByText(title, { exact: true }) });
  await found.waitFor();
  let last = '';
  await expect
    .poll(async () => {
      const now = JSON.stringify(await found.boundingBox());
      const still = now === last;
      last = now;
      return still;
    })
    .toBe(true);
  return found;
}

/** The absent student of the first test, whose Attendance tab the second one reads. */
let absent: { id: number; subject: string } | undefined;

describe('attendance on a phone', () => {
  it('a teacher marks one student absent and the rest present; the guardian receives the notice', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const username = `parousies${n}`;
    const password = 'teacher-password-1';
    const teacher = await post(token, '/api/teachers', { username, password, confirm_password: password, first_name: 'Ελένη', last_name: `Δασκάλου ${n}` });
    const subject = `Χημεία ${n}`;
    const subjectRow = await post(token, '/api/subjects', { name: subject, color: '#13c2c2' });
    const klass = await post(token, '/api/classes', { name: `Γ΄ Λυκείου ${n}` });
    const names = [
      ['Άρης', `Αντωνίου ${n}`],
      ['Βέτα', `Βασιλείου ${n}`],
      ['Γιάννα', `Γαλάνη ${n}`],
    ];
    const students: number[] = [];
    for (const [first, last] of names) students.push((await post(token, '/api/students', { first_name: first, last_name: last, class_ids: [klass.id] })).id);
    const email = `mitera.${n}@example.gr`;
    await post(token, '/api/guardians', {
      first_name: 'Κατερίνα',
      last_name: `Βασιλείου ${n}`,
      relation: 'MOTHER',
      email,
      notify: true,
      student_ids: [students[1]],
    });
    const date = today();
    const lesson = await post(token, '/api/lessons', {
      date,
      start_time: '12:00',
      end_time: '13:00',
      teacher_id: teacher.id,
      subject_id: subjectRow.id,
      class_id: klass.id,
    });

    await submitSignIn(page, baseUrl, username, password);
    await page.waitForURL(`${baseUrl}/`);
    const calendar = page.locator('[data-testid="lesson-calendar"][data-loading="false"]');
    await calendar.waitFor();
    await calendar.locator('[data-lesson-id]', { hasText: subject }).first().click();
    await page.waitForURL(new RegExp(`mode=view&lesson=${lesson.id}`));
    const view = await opened('Διδασκαλία');
    await view.getByRole('tab', { name: 'Παρουσίες' }).click();
    const roster = view.getByTestId('attendance-roster');
    await roster.waitFor();
    await expect.poll(() => roster.locator('li[data-student-id]').count()).toBe(3);
    expect(await roster.getByText('3 μαθητές χωρίς σημείωση').count()).toBe(1);

    // One tap: Βέτα is absent. Every mark is a thumb-sized target inside the screen.
    const row = roster.locator(`li[data-student-id="${students[1]}"]`);
    await row.getByText('Απών', { exact: true }).click();
    for (const target of await row.locator('.ant-radio-button-wrapper').all()) {
      const box = (await target.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(WIDTH);
    }
    await roster.getByRole('button', { name: 'Όλοι παρόντες' }).click();
    await roster.getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.getByText('Οι παρουσίες αποθηκεύτηκαν.').waitFor();
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(WIDTH);

    // What the server holds: Βέτα absent, the others present, marked by the teacher.
    const held = (await (await call(token, 'GET', `/api/lessons/${lesson.id}/attendance`)).json()) as {
      data: { students: { student_id: number; mark: { status: string; marked_by_name: string } | null }[] };
    };
    const status = Object.fromEntries(held.data.students.map((s) => [s.student_id, s.mark?.status]));
    expect(status).toEqual({ [students[0]!]: 'PRESENT', [students[1]!]: 'ABSENT', [students[2]!]: 'PRESENT' });
    expect(held.data.students[0]!.mark!.marked_by_name).toBe(`Ελένη Δασκάλου ${n}`);

    // The guardian's mailbox: one notice, in Greek, after the grace period (1 s here).
    await expect.poll(() => mailbox().filter((m) => m.to.includes(email)).length, { timeout: 30_000 }).toBe(1);
    const [notice] = mailbox().filter((m) => m.to.includes(email));
    const [y, m, d] = date.split('-');
    expect(notice!.subject).toContain(`Απουσία: Βέτα Βασιλείου ${n}`);
    expect(notice!.text).toContain(`Ο/Η Βέτα Βασιλείου ${n} απουσίαζε από το μάθημα ${subject} · Γ΄ Λυκείου ${n} στις ${d}/${m}/${y}, 12:00–13:00.`);
    absent = { id: students[1]!, subject };
  });

  it("the student's Attendance tab shows this month's absence and the rate", async () => {
    expect(absent).toBeDefined();
    const root = inject('root');
    await signInAt(page, baseUrl, root.username, root.password, `/students/?mode=view&student=${absent!.id}`);
    const drawer = page.locator('.ant-drawer-content');
    await drawer.getByRole('tab', { name: 'Παρουσίες' }).click();
    const tab = drawer.getByTestId('attendance-tab');
    await tab.locator('.ant-table-row', { hasText: absent!.subject }).waitFor();
    expect(await tab.locator('.ant-table-row', { hasText: absent!.subject }).getByText('Απών', { exact: true }).count()).toBe(1);
    await tab.getByText('Ποσοστό παρουσίας').waitFor();
    expect(await tab.locator('.ant-statistic', { hasText: 'Ποσοστό παρουσίας' }).locator('.ant-statistic-content').textContent()).toMatch(/^0\s?%$/);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(WIDTH);
  });
});
