import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, post, rootToken } from './api';
import { submitSignIn, useBrowserTab } from './browser';
import { e2eServer } from './server';

// The calendar with the keyboard alone, in Greek: Tab reaches the "new lesson" button, the form
// is filled by typing, the lesson opens with Enter and with Space, and is moved by its form;
// whatever has the focus shows a ring.
const baseUrl = e2eServer().baseUrl;

const tab = useBrowserTab({ width: 1500, height: 1000 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

async function centre() {
  const token = await rootToken();
  const n = Date.now() % 100_000;
  const user = { username: `pliktrologio${n}`, password: 'secretary-password-1' };
  await post(token, '/api/users', { ...user, role: 'SECRETARY', first_name: 'Άννα', last_name: 'Γραμματέως' });
  const names = { teacher: `Κανελλοπούλου ${n}`, subject: `Αρχαία ${n}`, class: `Β Λυκείου ${n}`, room: `Αίθουσα Κ${n}` };
  await post(token, '/api/teachers', {
    username: `kanel${n}`,
    password: 'teacher-password-1',
    confirm_password: 'teacher-password-1',
    first_name: 'Μαρία',
    last_name: names.teacher,
  });
  await post(token, '/api/subjects', { name: names.subject, color: '#722ed1' });
  await post(token, '/api/classes', { name: names.class });
  await post(token, '/api/rooms', { name: names.room, capacity: 12 });
  return { user, names, token };
}

const drawer = (title: string) => page.locator('.ant-drawer-content').filter({ has: page.locator('.ant-drawer-title').getByText(title, { exact: true }) });
const calendar = () => page.getByTestId('lesson-calendar');
const settled = () => page.locator('[data-testid="lesson-calendar"][data-loading="false"]').waitFor();

/** Presses Tab until `matches` holds for the focused element (keyboard only, as a user would). */
async function tabUntil(what: string, matches: () => Promise<boolean>, limit = 120) {
  for (let i = 0; i < limit; i++) {
    if (await matches()) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${what}`);
}

const focusedText = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.textContent?.trim() ?? '');

/** Tabs to the field labelled `label` inside `scope`. */
async function tabToField(scope: Locator, label: string) {
  const id = await scope.getByLabel(label, { exact: true }).first().getAttribute('id');
  await tabUntil(label, async () => (await page.evaluate(() => document.activeElement?.id)) === id);
}

/** Tabs to the button reading `name`. */
async function tabToButton(name: string) {
  await tabUntil(name, async () => (await page.evaluate(() => document.activeElement?.tagName)) === 'BUTTON' && (await focusedText()) === name);
}

/** The focused element draws a visible focus ring (read until the page has drawn its focus). */
async function ringShown() {
  const outline = () =>
    page.evaluate(() => {
      const focused = document.activeElement as HTMLElement;
      const style = getComputedStyle(focused);
      return `${focused.tagName}.${focused.className}: ${style.outlineStyle} ${Number.parseFloat(style.outlineWidth) > 0 ? 'wide' : 'zero'}`;
    });
  await expect.poll(outline).toMatch(/: (?!none )\S+ wide$/);
}

/** Types a value into the focused picker (date or time), replacing what it held, and confirms it. */
async function typeInPicker(text: string) {
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

/** Picks an option of the focused searchable select by typing its name. */
async function typeInSelect(text: string) {
  await page.keyboard.type(text);
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option-active', { hasText: text }).waitFor();
  await page.keyboard.press('Enter');
}

const today = new Date();
const dd = (n: number) => String(n).padStart(2, '0');
const greekToday = `${dd(today.getDate())}/${dd(today.getMonth() + 1)}/${today.getFullYear()}`;

describe('the calendar by keyboard', () => {
  it('creates a lesson, opens it with Enter and Space, and moves it by its form, with the focus always visible', async () => {
    const { user, names, token } = await centre();
    await submitSignIn(page, baseUrl, user.username, user.password);
    await page.waitForURL(`${baseUrl}/`);
    await settled();

    // the sidebar's links show a ring when Tab reaches them
    await tabUntil('the sidebar', async () => (await page.evaluate(() => document.activeElement?.closest('.ant-menu') !== null)) === true);
    await ringShown();

    // "new lesson", by Tab and Enter
    await tabToButton('Νέα διδασκαλία');
    await ringShown();
    await page.keyboard.press('Enter');
    await page.waitForURL(/mode=create/);
    const create = drawer('Νέα διδασκαλία');
    await create.waitFor();

    // Enter confirms a picker's typed value without sending the form
    await tabToField(create, 'Ημερομηνία');
    await typeInPicker(greekToday);
    await tabToField(create, 'Από');
    await typeInPicker('17:00');
    await tabToField(create, 'Έως');
    await typeInPicker('18:00');
    await tabToField(create, 'Καθηγητής');
    await typeInSelect(names.teacher);
    await tabToField(create, 'Μάθημα');
    await typeInSelect(names.subject);
    await tabToField(create, 'Τμήμα');
    await typeInSelect(names.class);
    await tabToField(create, 'Αίθουσα');
    await typeInSelect(names.room);
    await tabToButton('Αποθήκευση');
    await page.keyboard.press('Enter');
    await page.getByText('Η διδασκαλία δημιουργήθηκε.').waitFor();
    await page.waitForURL((url) => !url.search.includes('mode='));
    // the drawer has slid away and given the focus back to the button that opened it
    await expect.poll(() => page.locator('.ant-drawer-open').count()).toBe(0);
    await expect.poll(focusedText).toBe('Νέα διδασκαλία');
    await settled();

    // a busy week holds everyone's lessons (the other browser tests' too): as a user would, she
    // narrows the calendar to her room with its filter, by keyboard
    await tabUntil('the room filter', () =>
      page.evaluate(() => document.activeElement?.closest('[data-testid=calendar-filters] fieldset')?.getAttribute('aria-label') === 'Αίθουσα'),
    );
    await typeInSelect(names.room);
    await page.keyboard.press('Escape');
    await page.waitForURL(/room_id=\d+/);
    // the week read again for her room alone holds only her lesson (the address changes before
    // the calendar starts reading, so "not loading" alone may be the unfiltered week's)
    await expect.poll(() => calendar().locator('.rbc-event').count(), { timeout: 5000 }).toBe(1);
    await settled();

    // the lesson, reached by Tab: Enter opens it
    const event = calendar().locator('.rbc-event', { hasText: names.subject });
    await event.waitFor();
    const isEvent = async () =>
      (await page.evaluate(() => document.activeElement?.classList.contains('rbc-event') === true)) && (await focusedText()).includes(names.subject);
    await tabUntil('the lesson', isEvent, 400);
    await ringShown();
    await page.keyboard.press('Enter');
    await page.waitForURL(/mode=view&lesson=\d+/);
    const id = Number(new URL(page.url()).searchParams.get('lesson'));
    await drawer('Διδασκαλία').waitFor();
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => !url.search.includes('mode='));

    // and Space too
    await tabUntil('the lesson', isEvent, 400);
    await page.keyboard.press(' ');
    await page.waitForURL(/mode=view&lesson=\d+/);
    const view = drawer('Διδασκαλία');
    await view.waitFor();

    // moved by its form: 18:00–19:00
    await tabToButton('Επεξεργασία');
    await page.keyboard.press('Enter');
    const edit = drawer('Επεξεργασία διδασκαλίας');
    await edit.waitFor();
    await expect.poll(() => edit.getByLabel('Από', { exact: true }).inputValue()).toBe('17:00');
    await tabToField(edit, 'Από');
    await typeInPicker('18:00');
    await tabToField(edit, 'Έως');
    await typeInPicker('19:00');
    await tabToButton('Αποθήκευση');
    await page.keyboard.press('Enter');
    await page.getByText('Η διδασκαλία αποθηκεύτηκε.').waitFor();
    const res = await call(token, 'GET', `/api/lessons/${id}`);
    const lesson = ((await res.json()) as { data: { start_time: string; end_time: string } }).data;
    expect([lesson.start_time.slice(0, 5), lesson.end_time.slice(0, 5)]).toEqual(['18:00', '19:00']);
    await settled();
    await expect.poll(async () => ((await event.textContent()) ?? '').includes('18:00')).toBe(true);
  });
});
