import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { post, rootToken } from './api';
import { signInAt, useBrowserTab } from './browser';
import { e2eServer } from './server';

// A phone (390 px wide) in Greek: the students list without sideways scrolling of the page,
// the surname in view, the menu opened from the header's toggle, and a student's view drawer
// across the whole screen with every tab label readable.
const baseUrl = e2eServer().baseUrl;

const WIDTH = 390;
const tab = useBrowserTab({ width: WIDTH, height: 844 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const create = async (token: string, path: string, body: unknown) => (await post(token, path, body)).id;

/** A SECRETARY and one student, named uniquely, created as ROOT. */
async function secretaryAndStudent() {
  const token = await rootToken();
  const n = Date.now() % 1_000_000;
  const user = { username: `kinito${n}`, password: 'mobile-password-1' };
  await create(token, '/api/users', { ...user, role: 'SECRETARY', first_name: 'Μαρία', last_name: 'Κινητού' });
  const surname = `Παπαχριστοδουλοπούλου${n}`;
  const id = await create(token, '/api/students', { first_name: 'Αικατερίνη', last_name: surname });
  return { user, surname, id };
}

const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);

/** Whether the element lies wholly within the viewport's width. */
const withinWidth = async (selector: ReturnType<Page['locator']>) => {
  const box = await selector.boundingBox();
  return box !== null && box.x >= 0 && box.x + box.width <= WIDTH + 0.5;
};

describe('at 390 px', () => {
  it('the students list fits, the surname shows, the menu opens from the header, the view drawer fills the screen', async () => {
    const { user, surname, id } = await secretaryAndStudent();
    await signInAt(page, baseUrl, user.username, user.password, '/students/');
    await page.getByRole('searchbox').fill(surname);
    const cell = page.locator('.ant-table-row td', { hasText: surname }).first();
    await cell.waitFor();
    expect(await pageWidth()).toBeLessThanOrEqual(WIDTH);
    expect(await withinWidth(page.locator('.ant-table-thead th', { hasText: 'Επώνυμο' }).first())).toBe(true);
    expect(await withinWidth(cell)).toBe(true);
    // the header's own controls are all on screen
    for (const control of [page.getByTestId('menu-toggle'), page.getByTestId('user-menu'), page.getByTestId('language-en')]) {
      expect(await withinWidth(control)).toBe(true);
    }

    // the sidebar is a drawer, opened from the header's toggle
    await page.getByTestId('menu-toggle').click();
    const classes = page.locator('.ant-drawer').getByRole('link', { name: 'Τμήματα' });
    await classes.waitFor();
    // the drawer slides in from the left
    await expect.poll(() => withinWidth(classes), { timeout: 5_000 }).toBe(true);
    await classes.click();
    await page.waitForURL(/\/classes\//);

    // a student's view: the drawer is the whole width, and no tab label is cut or folded away
    // loaded afresh: moved to in the app, the sidebar's closed drawer stays in the page beside the view's
    await page.goto(`${baseUrl}/students/?mode=view&student=${id}`);
    const drawer = page.locator('.ant-drawer-content-wrapper');
    await page.locator('.ant-drawer-content').getByRole('tab', { name: 'Ιστορικό' }).waitFor();
    expect(Math.round((await drawer.boundingBox())?.width ?? 0)).toBe(WIDTH);
    const tabs = page.locator('.ant-drawer-content [role=tab]');
    expect(await tabs.count()).toBeGreaterThanOrEqual(2);
    for (const one of await tabs.all()) {
      expect(await withinWidth(one)).toBe(true);
      expect(await one.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    }
    expect(await page.locator('.ant-drawer-content .ant-tabs-nav-more:visible').count()).toBe(0);
    expect(await pageWidth()).toBeLessThanOrEqual(WIDTH);
  });
});
