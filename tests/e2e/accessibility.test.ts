import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Role } from '../../domain/enums';
import { canOpenRoute } from '../../domain/permissions';
import { SCREENS } from '../../domain/resources/index';
import { post, rootToken } from './api';
import { contextOptions, launchChromium } from '../../bench/chromium';
import { stoppedMoving, submitSignIn } from './browser';
import { acceptInvitation, invitationPath, portalFamily } from './portal-steps';
import { e2eServer } from './server';

// axe-core, the accessibility engine, in a real Chromium over every screen a role can open
// (the sidebar's, My data, the notifications, the detail drawers of a student, a contract and
// a lesson, the sign-in page), in the light and the dark theme, in Greek and in English:
// no rule of impact "critical" or "serious" may fail. Each role's screens are audited in Greek
// in the light theme and in English in the dark one; ROOT's only where ADMIN cannot go (the
// rest she sees as ADMIN does); the sign-in and invitation pages in all four pairings. One
// browser, one signed-in page per role, moving between screens inside the app as a user does.
// Beside those impacts, a few rules of lesser impact must not fail either: headings that skip a
// level, an empty heading, an ARIA attribute an element may not carry. The calendar is audited
// in its month view too.
const baseUrl = e2eServer().baseUrl;
declare global {
  /** axe-core, once its source has run on the page. */
  interface Window {
    axe: { run(context: unknown, options: unknown): Promise<{ violations: unknown[] }> };
  }
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeNode {
  target: unknown[];
  any: { message: string }[];
  all: { message: string }[];
  none: { message: string }[];
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNode[];
}

let browser: Awaited<ReturnType<typeof launchChromium>>;
const ids = { student: 0, contract: 0, lesson: 0 };
const people: Record<Exclude<Role, 'ROOT'>, { username: string; password: string }> = {
  ADMIN: { username: '', password: 'admin-password-1' },
  SECRETARY: { username: '', password: 'secretary-password-1' },
  TEACHER: { username: '', password: 'teacher-password-1' },
  GUARDIAN: { username: '', password: 'guardian-password-1' },
};

/** Where a role lands after signing in. */
const homeOf = (role: Role) => (role === 'GUARDIAN' ? '/portal/' : '/');

const pad = (n: number) => String(n).padStart(2, '0');
const today = new Date();
const TODAY = `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;

beforeAll(async () => {
  browser = await launchChromium();
  const token = await rootToken();
  const n = Date.now() % 100_000;
  people.ADMIN.username = `a11yadmin${n}`;
  people.SECRETARY.username = `a11ysecretary${n}`;
  people.TEACHER.username = `a11yteacher${n}`;
  await post(token, '/api/users', { ...people.ADMIN, role: 'ADMIN', first_name: 'Αλίκη', last_name: 'Προσβάσιμη' });
  await post(token, '/api/users', { ...people.SECRETARY, role: 'SECRETARY', first_name: 'Σοφία', last_name: 'Προσβάσιμη' });
  const teacher = await post(token, '/api/teachers', {
    ...people.TEACHER,
    confirm_password: people.TEACHER.password,
    first_name: 'Θεοδώρα',
    last_name: `Αναγνώστου ${n}`,
  });
  const subject = await post(token, '/api/subjects', { name: `Γεωμετρία ${n}`, color: '#fadb14' });
  const room = await post(token, '/api/rooms', { name: `Αίθουσα Α ${n}`, capacity: 12 });
  const klass = await post(token, '/api/classes', { name: `Τμήμα Β ${n}` });
  ids.student = (await post(token, '/api/students', { first_name: 'Ορέστης', last_name: `Καλλέργης ${n}`, class_ids: [klass.id] })).id;
  ids.contract = (
    await post(token, '/api/contracts', {
      student_id: ids.student,
      start_date: `${today.getFullYear()}-${pad(today.getMonth() + 1)}-01`,
      end_date: `${today.getFullYear() + 1}-06-30`,
      register_cost: 5000,
      month_cost: 12000,
      with_receipt: true,
    })
  ).id;
  ids.lesson = (
    await post(token, '/api/lessons', {
      date: TODAY,
      start_time: '16:00',
      end_time: '17:30',
      teacher_id: teacher.id,
      subject_id: subject.id,
      room_id: room.id,
      class_id: klass.id,
    })
  ).id;
  // a mother of two with her portal: her children's lessons, an absence, a receipt
  const family = await portalFamily('a11y');
  await acceptInvitation(family.email, people.GUARDIAN.password);
  people.GUARDIAN.username = family.email;
  const other = await post(token, '/api/classes', { name: `Τμήμα Γ ${n}` });
  await post(token, '/api/lessons', { date: TODAY, start_time: '16:00', end_time: '17:00', subject_id: subject.id, class_id: other.id });
});

afterAll(async () => {
  await browser?.close();
});

/** The calendar in its month view (the home in the week view is audited as `/`). */
const MONTH_VIEW = '/ (month view)';

/** Rules whose every failure counts, whatever axe's impact for it. */
const ALWAYS = new Set(['heading-order', 'empty-heading', 'aria-prohibited-attr', 'aria-required-children']);

/** Every screen of the sidebar `role` may open (its route guard), and the drawers that show one row. */
function screensOf(role: Role): string[] {
  const routes = [...new Set(SCREENS.map((s) => s.screen.route))];
  if (role === 'ROOT') routes.push('/custom-entities/', '/custom-entities/builder/?mode=create');
  const open = routes.filter((route) => canOpenRoute(role, route.split('?')[0]!));
  // ROOT opens every screen ADMIN does, drawn alike (both hold every right in a centre): she is
  // audited on the screens only she opens, with her own sidebar and header
  if (role === 'ROOT') return open.filter((route) => !canOpenRoute('ADMIN', route.split('?')[0]!));
  const drawers = canOpenRoute(role, '/') ? [`/?mode=view&lesson=${ids.lesson}`] : [];
  if (canOpenRoute(role, '/students/')) drawers.push(`/students/?mode=view&student=${ids.student}`, '/students/?mode=create');
  if (canOpenRoute(role, '/contracts/')) drawers.push(`/contracts/?mode=view&contract=${ids.contract}`, `/contracts/?mode=status&contract=${ids.contract}`);
  if (canOpenRoute(role, '/')) drawers.push(MONTH_VIEW);
  return [...open, ...drawers];
}

/** Moves to `path` inside the app (no reload), as a link does, and waits until it has drawn. */
async function visit(page: Page, path: string) {
  if (path === MONTH_VIEW) return calendarView(page, 'month');
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await settle(page);
}

/** The calendar at home, switched to `view` with its toolbar's buttons (day, week, month), as a user does. */
async function calendarView(page: Page, view: 'week' | 'month') {
  await page.evaluate(() => {
    window.history.pushState({}, '', '/');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await page.locator('[data-testid=lesson-calendar]').waitFor();
  await page
    .locator('.rbc-toolbar .rbc-btn-group')
    .last()
    .locator('button')
    .nth(view === 'month' ? 2 : 1)
    .click();
  await page.locator(`[data-testid=lesson-calendar][data-view=${view}]`).waitFor();
  await settle(page);
}

async function settle(page: Page) {
  await page.waitForTimeout(100);
  await expect.poll(() => page.locator('.ant-spin-spinning, .ant-skeleton-active, .ant-btn-loading').count(), { timeout: 15_000 }).toBe(0);
  // colours are measured once nothing moves (the page asks for reduced motion, so little does)
  await stoppedMoving(page, 10_000);
}

/** The critical and serious violations on the page now, one line each: rule, impact, element. */
async function audit(page: Page, onlyColours = false): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (only) => {
    const result = await window.axe.run(document, { resultTypes: ['violations'], ...(only ? { runOnly: ['color-contrast'] } : {}) });
    return result.violations;
  }, onlyColours);
  return (violations as AxeViolation[])
    .filter((v) => v.impact === 'critical' || v.impact === 'serious' || ALWAYS.has(v.id))
    .flatMap((v) =>
      v.nodes.map((node) => `${v.id} (${v.impact}) ${JSON.stringify(node.target)}: ${[...node.any, ...node.all, ...node.none][0]?.message ?? v.help}`),
    );
}

/** Names a screen reader would read in English in the Greek interface (antd's icons name themselves "left", "filter"…). */
async function englishNames(page: Page): Promise<string[]> {
  const find = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('[aria-label]')]
        .filter((el) => el.getAttribute('aria-hidden') !== 'true' && !el.closest('[aria-hidden=true]'))
        .map((el) => el.getAttribute('aria-label') ?? '')
        .filter((name) => /^[a-z][a-z-]*$/.test(name) || name === 'Month View'),
    );
  // the names are written on the animation frame after the page changes: what a list redrawn
  // just now shows for a moment is not what stays
  let names = await find();
  for (let tries = 0; names.length > 0 && tries < 10; tries++) {
    await page.waitForTimeout(200);
    names = await find();
  }
  return [...new Set(names)].map((name) => `english-name: "${name}"`);
}

/** One line per violation, with the places (role, language, theme, screen) it was found at. */
function report(failures: { at: string; line: string }[]): string {
  const places = new Map<string, string[]>();
  for (const { at, line } of failures) places.set(line, [...(places.get(line) ?? []), at]);
  return [...places].map(([line, at]) => `${line}\n    at ${at.slice(0, 4).join('; ')}${at.length > 4 ? ` (+${at.length - 4})` : ''}`).join('\n');
}

/** Fails with the whole report as its message (an assertion's diff would cut it short). */
function noViolations(report: string) {
  expect(report === '', `critical or serious accessibility violations:\n${report}`).toBe(true);
}

async function setLanguage(page: Page, language: 'el' | 'en') {
  await page.getByTestId(`language-${language}`).click();
  await page.locator(`.ant-segmented-item-selected [data-testid=language-${language}]`).waitFor();
}

async function setTheme(page: Page, mode: 'light' | 'dark') {
  const toggle = page.locator('header .ant-switch');
  if ((await toggle.getAttribute('aria-checked')) !== String(mode === 'dark')) await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-checked')).toBe(String(mode === 'dark'));
  await stoppedMoving(page); // colours are read once they have changed
}

async function signedIn(role: Role): Promise<Page> {
  const context = await browser.newContext(contextOptions({ width: 1400, height: 900 }));
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const user = role === 'ROOT' ? inject('root') : people[role];
  await submitSignIn(page, baseUrl, user.username, user.password);
  await page.waitForURL(`${baseUrl}${homeOf(role)}`);
  await settle(page);
  return page;
}

/** Audits every screen of `role` in each theme and language given; answers every failure, by place. */
async function auditRole(role: Role, combinations: readonly { language: 'el' | 'en'; mode: 'light' | 'dark' }[]): Promise<string> {
  const page = await signedIn(role);
  const failures: { at: string; line: string }[] = [];
  try {
    for (const { language, mode } of combinations) {
      // a fresh page at home for each combination: nothing left open from the last screen
      await page.goto(`${baseUrl}/`);
      await page.getByTestId(`language-${language}`).waitFor();
      await setLanguage(page, language);
      await setTheme(page, mode);
      for (const path of screensOf(role)) {
        await visit(page, path);
        // A theme changes colours only: the dark one is checked for contrast, the light one for every rule.
        const lines = [...(await audit(page, mode === 'dark')), ...(language === 'el' ? await englishNames(page) : [])];
        for (const line of lines) failures.push({ at: `${role} ${language} ${mode} ${path}`, line });
        // the calendar opens in the view it was left in: back to the week for the next pass
        if (path === MONTH_VIEW) await calendarView(page, 'week');
      }
    }
  } finally {
    await page.context().close();
  }
  return report(failures);
}

const ALL = [
  { language: 'el', mode: 'light' },
  { language: 'el', mode: 'dark' },
  { language: 'en', mode: 'light' },
  { language: 'en', mode: 'dark' },
] as const;
/**
 * Each screen of a role in both languages and both themes, in two passes: Greek in the light
 * theme and English in the dark one. Contrast depends on the theme alone and names on the
 * language alone, so the other two pairings find nothing these two do not.
 */
const BOTH = [ALL[0], ALL[3]] as const;

/** A page open without signing in (`path`, ready once `ready` shows), audited in all four pairings. */
async function auditPublicPage(name: string, path: string, ready: string, viewport: { width: number; height: number }): Promise<string> {
  const context = await browser.newContext(contextOptions(viewport));
  const page = await context.newPage();
  const failures: { at: string; line: string }[] = [];
  for (const { language, mode } of ALL) {
    await page.addInitScript(
      ([l, m]) => {
        localStorage.setItem('frontis.language', l!);
        localStorage.setItem('frontis.theme', m!);
      },
      [language, mode],
    );
    await page.goto(`${baseUrl}${path}`);
    await page.locator(ready).waitFor();
    await settle(page);
    for (const line of await audit(page)) failures.push({ at: `${name} ${language} ${mode}`, line });
  }
  await context.close();
  return report(failures);
}

describe('accessibility (axe-core): no critical or serious violation', () => {
  it('the sign-in page, in both languages and themes', async () => {
    noViolations(await auditPublicPage('sign-in', '/login', '#login-username', { width: 1400, height: 900 }));
  });

  it('the invitation page of a guardian, in both languages and themes', async () => {
    const token = await rootToken();
    const email = `a11y.invitation.${Date.now() % 100_000}@example.gr`;
    await post(token, '/api/guardians', { first_name: 'Ευτέρπη', last_name: 'Προσκεκλημένη', relation: 'MOTHER', email, portal: true });
    noViolations(await auditPublicPage('invitation', await invitationPath(email), '#invitation-password', { width: 390, height: 844 }));
  });

  it.each(['ADMIN', 'GUARDIAN', 'ROOT', 'SECRETARY', 'TEACHER'] as const)(
    '%s: every screen of the role, Greek in the light theme and English in the dark',
    async (role) => {
      noViolations(await auditRole(role, BOTH));
    },
    300_000,
  );
});
