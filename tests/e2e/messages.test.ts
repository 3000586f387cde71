import dayjs from 'dayjs';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, post, rootToken } from './api';
import { openInApp, signInAt, useBrowserTab } from './browser';
import { e2eServer } from './server';

// The message log in a real Chromium, in Greek: an absence is told to one mother by e-mail (the
// browser tests' server has a mail server) and to another by SMS, which that server has no
// setting for, so the log shows it as what would be sent; a third guardian has no address for
// her channel, and the guardians list and her page say no notice reaches her. A secretary reads
// the log, filters it to SMS, and finds the SMS again on the mother's own page.
const baseUrl = e2eServer().baseUrl;

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

describe('messages to families', () => {
  it('a secretary reads the log, filters it to SMS, sees the unreachable guardian marked and a mother’s messages on her page', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const mobile = `69${String(40_000_000 + n).padStart(8, '0')}`;
    const secretary = { username: `minymata${n}`, password: 'secretary-password-1' };
    await post(token, '/api/users', { ...secretary, role: 'SECRETARY', first_name: 'Ρούλα', last_name: 'Γραμματέως' });
    const klass = await post(token, '/api/classes', { name: `Μηνύματα ${n}` });
    const subject = await post(token, '/api/subjects', { name: `Ιστορία ${n}`, color: '#13c2c2' });
    const student = await post(token, '/api/students', { first_name: 'Φοίβος', last_name: `Λαμπράκη${n}`, class_ids: [klass.id] });
    const bySms = await post(token, '/api/guardians', {
      first_name: 'Δέσποινα',
      last_name: `Λαμπράκη${n}`,
      relation: 'MOTHER',
      phone: mobile,
      student_ids: [student.id],
    });
    await post(token, '/api/guardians', {
      first_name: 'Στέλιος',
      last_name: `Λαμπράκης${n}`,
      relation: 'FATHER',
      email: `stelios.${n}@example.gr`,
      student_ids: [student.id],
    });
    const nowhere = await post(token, '/api/guardians', { first_name: 'Ουρανία', last_name: `Αόρατη${n}`, relation: 'GUARDIAN', student_ids: [student.id] });
    const lesson = await post(token, '/api/lessons', {
      date: dayjs().format('YYYY-MM-DD'),
      start_time: '08:00',
      end_time: '09:00',
      subject_id: subject.id,
      class_id: klass.id,
    });
    const marked = await call(token, 'PUT', `/api/lessons/${lesson.id}/attendance`, { marks: [{ student_id: student.id, status: 'ABSENT' }] });
    expect(marked.status, await marked.clone().text()).toBe(200);
    const sms = `+30${mobile}`;

    await signInAt(page, baseUrl, secretary.username, secretary.password, '/messages/');
    await page.getByRole('heading', { name: 'Μηνύματα' }).waitFor();
    // The SMS: queued, as what would be sent, with its Greek text.
    const smsRow = page.locator('.ant-table-row', { hasText: sms });
    await smsRow.waitFor();
    await expect.poll(() => smsRow.textContent()).toContain('Σε αναμονή');
    expect(await smsRow.getByTestId('message-not-configured').textContent()).toContain('Δεν στέλνεται');
    expect(await smsRow.textContent()).toContain('Φοίβος Λαμπράκη');
    // The e-mail to the father goes (the grace period is a second here).
    const mailRow = page.locator('.ant-table-row', { hasText: `stelios.${n}@example.gr` });
    await expect
      .poll(
        async () => {
          if (!(await mailRow.count()) || !(await mailRow.textContent())?.includes('Στάλθηκε')) {
            await page.reload();
            await smsRow.waitFor();
          }
          return (await mailRow.count()) ? await mailRow.textContent() : '';
        },
        { timeout: 20_000 },
      )
      .toContain('Στάλθηκε');

    // Filtered to SMS, the e-mail leaves the page.
    const channel = page.getByRole('combobox', { name: 'Κανάλι' });
    await channel.click({ force: true });
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'SMS' }).first().click();
    await expect.poll(() => mailRow.count()).toBe(0);
    await expect.poll(() => smsRow.count()).toBe(1);
    expect(new URL(page.url()).searchParams.toString()).toContain('channel');

    // The guardian no notice reaches is marked in the list and on her page.
    await openInApp(page, `/guardians/?q=${encodeURIComponent(`Αόρατη${n}`)}`, '/guardians/');
    const row = page.locator('.ant-table-row', { hasText: `Αόρατη${n}` });
    await row.waitFor();
    expect(await row.getByTestId('guardian-unreachable').textContent()).toBe('Χωρίς τρόπο ειδοποίησης');
    await openInApp(page, `/guardians/?mode=view&guardian=${nowhere.id}`, '/guardians/');
    await page.getByTestId('guardian-unreachable-alert').waitFor();

    // The mother's page lists her SMS under Messages.
    await openInApp(page, `/guardians/?mode=view&guardian=${bySms.id}`, '/guardians/');
    const drawer = page.locator('.ant-drawer-content', { hasText: 'Δέσποινα' });
    await drawer.getByRole('tab', { name: 'Μηνύματα' }).click();
    await drawer.locator('.ant-table-row', { hasText: sms }).waitFor();
    expect(await page.getByTestId('guardian-unreachable-alert').count()).toBe(0);
  });
});
