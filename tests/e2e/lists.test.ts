import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { post, rootToken } from './api';
import { movingNow, openInApp, signInAt, useBrowserTab } from './browser';
import { e2eServer } from './server';

// What every list and view of the generic screen does, seen in Greek in a real Chromium: a
// header click sorts by that column alone, Greek names sort as a Greek reader expects, the
// footer and the in-use dialog speak Greek with the right plural, History names the records a
// change points to, an unknown id says the record does not exist, and the dark theme is legible.
const baseUrl = e2eServer().baseUrl;

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const tag = `t${Date.now() % 1_000_000}`;
let token = '';
const admin = { username: `lists${tag}`, password: 'lists-password-1' };

const create = async (path: string, body: unknown) => (await post(token, path, body)).id;

beforeAll(async () => {
  token = await rootToken();
  await create('/api/users', { ...admin, role: 'ADMIN', first_name: 'Λίνα', last_name: 'Λιστάκη' });
});

/** Signs in and lands on `path`: one page load. */
async function signIn(path = '/') {
  await signInAt(page, baseUrl, admin.username, admin.password, path);
}

const drawer = () => page.locator('.ant-drawer-content');
const firstCells = () => page.locator('.ant-table-tbody .ant-table-row td:first-child').allInnerTexts();
const header = (title: string) => page.locator('.ant-table-thead th', { hasText: title }).first();

/** Searches the list on screen for this file's tag, so rows of other tests stay out. */
async function searchTag() {
  await page.getByRole('searchbox').fill(tag);
  await page.waitForURL(/q/);
}

/** Moves to `path` in the app, searched for this file's tag once its screen, headed `title`, is drawn (the one before may have a search box too). */
async function openSearched(path: string, title: string) {
  await openInApp(page, path);
  await page.getByRole('heading', { name: title, exact: true }).first().waitFor();
  await searchTag();
}

/** Signs in to `path`, searched for this file's tag. */
async function signInSearched(path: string) {
  await signIn(path);
  await searchTag();
}

describe('lists', () => {
  it('a header click sorts by that column alone, a second click reverses it, and the URL keeps it', async () => {
    await create('/api/rooms', { name: `Άλφα ${tag}`, capacity: 12 });
    await create('/api/rooms', { name: `Μέση ${tag}`, capacity: 30 });
    await create('/api/rooms', { name: `Ωμέγα ${tag}`, capacity: 5 });
    await signInSearched('/rooms/');
    const names = (order: string[]) => order.map((n) => `${n} ${tag}`);
    await expect.poll(firstCells, { timeout: 15_000 }).toEqual(names(['Άλφα', 'Μέση', 'Ωμέγα']));

    await header('Χωρητικότητα').click();
    await expect.poll(firstCells, { timeout: 15_000 }).toEqual(names(['Ωμέγα', 'Άλφα', 'Μέση']));
    expect(decodeURIComponent(page.url())).toContain('sorters[0][field]=capacity');
    expect(decodeURIComponent(page.url())).not.toContain('sorters[1]');
    expect(await header('Χωρητικότητα').getAttribute('aria-sort')).toBe('ascending');

    await header('Χωρητικότητα').click();
    await expect.poll(firstCells, { timeout: 15_000 }).toEqual(names(['Μέση', 'Άλφα', 'Ωμέγα']));
    expect(await header('Χωρητικότητα').getAttribute('aria-sort')).toBe('descending');

    // the link keeps the order: a reload shows the same rows and the same arrow
    await page.reload();
    await expect.poll(firstCells, { timeout: 15_000 }).toEqual(names(['Μέση', 'Άλφα', 'Ωμέγα']));
    expect(await header('Χωρητικότητα').getAttribute('aria-sort')).toBe('descending');

    // the footer speaks of one entry in the singular
    await page.getByRole('searchbox').fill(`Μέση ${tag}`);
    await expect.poll(firstCells, { timeout: 15_000 }).toEqual(names(['Μέση']));
    await page.getByText('Εμφάνιση 1 έως 1 από 1 συνολική εγγραφή', { exact: true }).waitFor();
  });

  it('Greek names sort alphabetically, accents and case ignored', async () => {
    const words = ['Έκθεση', 'βιολογία', 'Αγγλικά', 'Ωδική', 'άλγεβρα', 'Ιστορία'];
    for (const word of words) await create('/api/subjects', { name: `${word} ${tag}`, color: '#1677ff' });
    const expected = ['Αγγλικά', 'άλγεβρα', 'βιολογία', 'Έκθεση', 'Ιστορία', 'Ωδική'].map((w) => `${w} ${tag}`);
    await signInSearched('/subjects/');
    const name = header('Όνομα');
    await expect.poll(firstCells, { timeout: 15_000 }).toHaveLength(words.length);
    // whichever way the list starts, one click gives one direction and the next the other
    await name.click();
    await expect.poll(() => name.getAttribute('aria-sort'), { timeout: 15_000 }).toMatch(/ascending|descending/);
    if ((await name.getAttribute('aria-sort')) === 'descending') await name.click();
    await expect.poll(firstCells, { timeout: 15_000 }).toEqual(expected);
    await name.click();
    await expect.poll(firstCells, { timeout: 15_000 }).toEqual([...expected].reverse());
  });

  it("History names a class's old and new category; deleting a category in use says in Greek what uses it", async () => {
    const before = `Γυμνάσιο ${tag}`;
    const after = `Λύκειο ${tag}`;
    const categoryId = await create('/api/class-categories', { name: before });
    await create('/api/class-categories', { name: after });
    const classId = await create('/api/classes', { name: `Β΄ τάξη ${tag}`, category_id: categoryId });
    await signIn(`/classes/?mode=update&class=${classId}`);

    await drawer().getByText(before).waitFor();
    await drawer().getByLabel('Κατηγορία', { exact: true }).click({ force: true });
    await page.keyboard.type(after);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: after }).click();
    await drawer().getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.waitForURL((url) => !url.search.includes('mode='));

    await openInApp(page, `/classes/?mode=view&class=${classId}`);
    await drawer().getByRole('tab', { name: 'Ιστορικό' }).click();
    const change = drawer().locator('[data-testid=history-entry]', { hasText: 'Αλλαγή' }).first();
    const row = change.locator('.ant-table-row', { hasText: 'Κατηγορία' });
    await row.getByText(after, { exact: true }).waitFor();
    await row.getByText(before, { exact: true }).waitFor();
    expect(await row.textContent()).not.toMatch(/#\d/);

    // the category still used by one class cannot go, and the dialog says so in Greek
    await openSearched('/classes/settings', 'Κατηγορίες τμημάτων');
    await page.locator('.ant-table-row', { hasText: after }).getByRole('button', { name: 'Διαγραφή' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Διαγραφή' }).click();
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.getByText('Χρησιμοποιείται από 1 τμήμα, γι’ αυτό δεν μπορεί να διαγραφεί.').waitFor();
    expect(await dialog.textContent()).not.toMatch(/used by|classes/);
  });

  it('an unknown id in the link says plainly that the record does not exist', async () => {
    // each link opened afresh: the first as the sign-in leads to it, the second in a page of its own
    const [first, second] = ['/rooms/?mode=update&room=999999', '/classes/?mode=view&class=999999'];
    await signIn(first);
    await drawer().getByText('Αυτή η εγγραφή δεν υπάρχει: ίσως διαγράφηκε ή ο σύνδεσμος είναι λάθος.').waitFor();
    await page.goto(`${baseUrl}${second}`);
    await drawer().getByText('Αυτή η εγγραφή δεν υπάρχει: ίσως διαγράφηκε ή ο σύνδεσμος είναι λάθος.').waitFor();
  });

  it('in the dark theme the list and the view drawer are light text on a dark ground', async () => {
    await create('/api/rooms', { name: `Σκοτεινή ${tag}`, capacity: 9 });
    await signIn();
    await page.getByRole('switch', { name: 'Σκούρο θέμα' }).click();
    await openSearched('/rooms/', 'Αίθουσες');
    const cell = page.locator('.ant-table-row td', { hasText: `Σκοτεινή ${tag}` });
    await cell.waitFor();
    // antd animates the switch of theme: read the colours once it has settled
    await expect.poll(() => luminanceOf(page, '.ant-table-row td'), { timeout: 5_000 }).toBeLessThan(0.1);
    await expect.poll(() => contrast(page, '.ant-table-row td'), { timeout: 5_000 }).toBeGreaterThan(7);

    await page
      .locator('.ant-table-row', { hasText: `Σκοτεινή ${tag}` })
      .getByRole('button', { name: 'Επεξεργασία' })
      .click();
    // the form is drawn again once the room arrives: read its colours after that
    await expect.poll(() => drawer().getByLabel('Όνομα', { exact: true }).inputValue(), { timeout: 15_000 }).toBe(`Σκοτεινή ${tag}`);
    await expect.poll(() => luminanceOf(page, '.ant-drawer-content'), { timeout: 5_000 }).toBeLessThan(0.1);
    await expect.poll(() => contrast(page, '.ant-drawer-content .ant-form-item-label label:visible'), { timeout: 5_000 }).toBeGreaterThan(7);
  });

  it('asked for less motion, a drawer is there at once and nothing fades; asked no longer, buttons fade again', async () => {
    await create('/api/rooms', { name: `Ήσυχη ${tag}`, capacity: 5 });
    await signInSearched('/rooms/');
    const edit = page.locator('.ant-table-row', { hasText: `Ήσυχη ${tag}` }).getByRole('button', { name: 'Επεξεργασία' });
    const fade = () => edit.evaluate((button) => getComputedStyle(button).transitionDuration);
    // this file's pages ask for reduced motion (chromium.ts)
    expect(await fade()).toBe('0s');
    await edit.click();
    await drawer().getByLabel('Όνομα', { exact: true }).waitFor();
    // nothing slides or fades: what still runs is a spinner's endless turn, no motion of the drawer
    expect(await movingNow(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await drawer().waitFor({ state: 'hidden' });
    // the setting changed in the system while the page is open
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await expect.poll(fade).not.toBe('0s');
  });
});

/** The first `selector`'s text colour (with alpha) and its own or nearest painted background. */
function coloursOf(page: Page, selector: string): Promise<{ fg: number[]; bg: number[] }> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const parse = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
      let node: Element | null = element;
      let bg = [255, 255, 255];
      while (node) {
        const [r = 0, g = 0, b = 0, a = 1] = parse(getComputedStyle(node).backgroundColor);
        if (a > 0.5) {
          bg = [r, g, b];
          break;
        }
        node = node.parentElement;
      }
      return { fg: parse(getComputedStyle(element).color), bg };
    });
}

const channel = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
const luminance = ([r = 0, g = 0, b = 0]: number[]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);

/** The relative luminance of the first `selector`'s own (or nearest painted) background. */
async function luminanceOf(page: Page, selector: string): Promise<number> {
  return luminance((await coloursOf(page, selector)).bg);
}

/** The WCAG contrast ratio of the first `selector`'s text against its painted background. */
async function contrast(page: Page, selector: string): Promise<number> {
  const { fg, bg } = await coloursOf(page, selector);
  const [r = 0, g = 0, b = 0, a = 1] = fg;
  // antd's text colours are translucent: blend them over the ground they sit on
  const blended = [r * a + bg[0]! * (1 - a), g * a + bg[1]! * (1 - a), b * a + bg[2]! * (1 - a)];
  const [hi, lo] = [luminance(blended), luminance(bg)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}
