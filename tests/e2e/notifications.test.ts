import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { JSON_HEADERS, post, rootToken } from './api';
import { submitSignIn, useBrowserTab } from './browser';
import { e2eServer } from './server';

// Notifications in Greek, in a real Chromium against the real server: a teacher has the app
// open when the office moves her lesson (through the API, as another client would); the
// bell's count rises without a reload, and the notification opens that lesson.
const baseUrl = e2eServer().baseUrl;
const apiBase = e2eServer().apiBase;

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const bell = (count: number) =>
  page.getByRole('button', { name: count === 1 ? '1 μη αναγνωσμένη ειδοποίηση' : `${count} μη αναγνωσμένες ειδοποιήσεις`, exact: true });

describe('notifications', () => {
  it('a teacher sees the bell rise when the office moves her lesson, and the notification opens it', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const teacher = { username: `kalliopi${n}`, password: 'teacher-password-1' };
    const { id: teacherId } = await post(token, '/api/teachers', {
      ...teacher,
      confirm_password: teacher.password,
      first_name: 'Καλλιόπη',
      last_name: `Δημητρίου ${n}`,
    });
    const subject = `Φυσική ${n}`;
    const { id: subjectId } = await post(token, '/api/subjects', { name: subject, color: '#1677ff' });
    const { id: roomId } = await post(token, '/api/rooms', { name: `Αίθουσα Φ ${n}`, capacity: 10 });
    const { id: lessonId } = await post(token, '/api/lessons', {
      date: '2027-10-05',
      start_time: '16:00',
      end_time: '17:00',
      teacher_id: teacherId,
      subject_id: subjectId,
      room_id: roomId,
    });

    await submitSignIn(page, baseUrl, teacher.username, teacher.password);
    await page.waitForURL(`${baseUrl}/`);
    // The lesson booked for her is her first notification.
    await bell(1).waitFor();

    // The office moves the lesson from another client while her page stays open.
    const headers = { ...JSON_HEADERS, authorization: `Bearer ${token}` };
    const current = (await (await fetch(`${apiBase}/api/lessons/${lessonId}`, { headers })).json()) as { data: { version: number } };
    const moved = await fetch(`${apiBase}/api/lessons/${lessonId}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ start_time: '18:00', end_time: '19:00', version: current.data.version }),
    });
    expect(moved.status).toBe(200);
    await bell(2).waitFor();
    await expect.poll(() => page.getByText('Το μάθημά σας μετακινήθηκε').first().isVisible()).toBe(true);

    await bell(2).click();
    await page.waitForURL(`${baseUrl}/notifications/`);
    await page.getByText('2 μη αναγνωσμένες', { exact: true }).waitFor();
    const row = page.locator('.ant-table-row', { hasText: 'Το μάθημά σας μετακινήθηκε' });
    await expect.poll(() => row.textContent()).toContain(`${subject}: από 05/10/2027, 16:00 σε 05/10/2027, 18:00–19:00.`);
    await page.getByText(/Εμφάνιση 1 έως 2 από 2/).waitFor();

    await row.click();
    await page.waitForURL(`${baseUrl}/?mode=view&lesson=${lessonId}`);
    await page.locator('.ant-drawer-content', { hasText: subject }).waitFor();
    await bell(1).waitFor();
  });
});
