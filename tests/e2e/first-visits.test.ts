import type { Page, Request, Response } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { post, rootToken } from './api';
import { submitSignIn, useBrowserTab } from './browser';
import { e2eServer } from './server';

// The first visit of a screen after signing in waits for the screen's data only: once the week
// is drawn, the client fetches the code of every screen of the sidebar ahead, so a click on
// Students, Contracts, Lessons or Account downloads no code before it asks for its list, and
// the list's request waits for no other answer (its lookups go out beside it, not before it):
// one round trip to the first row.
const baseUrl = e2eServer().baseUrl;

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const n = Date.now() % 1_000_000;
const admin = { username: `firstvisit${n}`, password: 'first-visit-password-1' };
const pad = (v: number) => String(v).padStart(2, '0');
const now = new Date();
const TODAY = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;

beforeAll(async () => {
  const token = await rootToken();
  await post(token, '/api/users', { ...admin, role: 'ADMIN', first_name: 'Πρώτη', last_name: `Επίσκεψη ${n}` });
  // A row for each list, whichever other browser test ran before.
  const subject = await post(token, '/api/subjects', { name: `Φυσική ${n}`, color: '#2f54eb' });
  const klass = await post(token, '/api/classes', { name: `Τμήμα Πρώτης ${n}` });
  const student = await post(token, '/api/students', { first_name: 'Ιάσονας', last_name: `Πρωτάκης ${n}`, class_ids: [klass.id] });
  await post(token, '/api/contracts', {
    student_id: student.id,
    start_date: `${now.getFullYear()}-${pad(now.getMonth() + 1)}-01`,
    end_date: `${now.getFullYear() + 1}-06-30`,
    register_cost: 5000,
    month_cost: 12000,
    with_receipt: false,
  });
  await post(token, '/api/lessons', { date: TODAY, start_time: '23:00', end_time: '23:45', subject_id: subject.id, class_id: klass.id });
  await post(token, '/api/expenses', { date: TODAY, amount: 2500, description: `Γραφική ύλη ${n}` });
});

const SCREENS = [
  { link: 'Μαθητές', list: /\/api\/students\?/ },
  { link: 'Συμβόλαια', list: /\/api\/contracts\?.*_sort=/ },
  { link: 'Διδασκαλίες', list: /\/api\/lessons\?.*_sort=/ },
  { link: 'Λογαριασμός', list: /\/api\/expenses\?.*_sort=/ },
];

const path = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

describe('first visits', () => {
  it('after sign-in, each first visit of students, contracts, lessons and account downloads no code before its list, asks for the list at once and once, and keeps the notification stream open', async () => {
    await submitSignIn(page, baseUrl, admin.username, admin.password);
    await page.waitForURL(`${baseUrl}/`);
    await page.locator('[data-testid="lesson-calendar"][data-loading="false"]').waitFor();
    // The screens' code comes once the week is drawn and the page is idle.
    await page.waitForFunction(() => performance.getEntriesByName('frontis:screens-ready').length > 0, null, { timeout: 60_000 });

    for (const screen of SCREENS) {
      // Everything the page asks for and receives from the click on, in order.
      const events: string[] = [];
      const onRequest = (r: Request) => void events.push(`asks ${path(r.url())}`);
      const onResponse = (r: Response) => void events.push(`gets ${path(r.url())}`);
      page.on('request', onRequest);
      page.on('response', onResponse);
      const answered = page.waitForResponse((r) => screen.list.test(r.url()));
      await page.getByRole('link', { name: screen.link, exact: true }).click();
      await answered;
      await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
      page.off('request', onRequest);
      page.off('response', onResponse);

      const listAsked = events.findIndex((e) => e.startsWith('asks') && screen.list.test(e));
      expect(listAsked, `${screen.link}: ${events.join(' | ')}`).toBeGreaterThanOrEqual(0);
      const before = events.slice(0, listAsked);
      // no chunk (nor style sheet) of the screen was downloaded before its list was asked for
      expect(
        before.filter((e) => e.includes('/assets/')),
        screen.link,
      ).toEqual([]);
      // and the list's request went out without waiting for another answer of the API
      expect(
        before.filter((e) => e.startsWith('gets /api/')),
        screen.link,
      ).toEqual([]);
      // once: the list's request sent while the screen is drawn is the one its table waits for
      expect(
        events.filter((e) => e === events[listAsked]),
        screen.link,
      ).toHaveLength(1);
      // the header's notification stream stays open across the navigation (it was closed and opened again on each)
      expect(
        events.filter((e) => e.includes('/api/notifications/stream')),
        screen.link,
      ).toEqual([]);
    }
  });
});
