import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { contextOptions, launchChromium } from '../../bench/chromium';

/**
 * One browser per test file, a fresh context and page per test: `tab.page` is the current page.
 * Motion is reduced unless `motion` (chromium.ts, contextOptions).
 */
export function useBrowserTab(viewport: { width: number; height: number }, { motion = false } = {}): { page: Page } {
  const tab = {} as { page: Page };
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  let seen: string[] = [];
  beforeEach(async () => {
    context = await browser!.newContext(contextOptions(viewport, motion));
    tab.page = await context.newPage();
    tab.page.setDefaultTimeout(15_000);
    seen = watch(tab.page);
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') await report(tab.page, seen);
    await context?.close();
  });
  return tab;
}

/** What a failed test's page said and asked: its console errors and its API calls, slowest and failed first. */
function watch(page: Page): string[] {
  const seen: string[] = [];
  const started = new Map<object, number>();
  const at = () => new Date().toISOString().slice(11, 23);
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') seen.push(`${at()} console ${m.type()}: ${m.text().slice(0, 300)}`);
  });
  page.on('pageerror', (e) => seen.push(`${at()} page error: ${e.message.slice(0, 300)}`));
  page.on('request', (r) => started.set(r, Date.now()));
  page.on('requestfailed', (r) => seen.push(`${at()} ${r.method()} ${r.url()} failed: ${r.failure()?.errorText ?? ''}`));
  page.on('response', (r) => {
    const url = new URL(r.url());
    if (!url.pathname.startsWith('/api') && !url.pathname.startsWith('/login') && !url.pathname.startsWith('/logout') && r.status() < 400) return;
    const ms = Date.now() - (started.get(r.request()) ?? Date.now());
    seen.push(`${at()} ${r.request().method()} ${url.pathname}${url.search} ${r.status()} ${ms} ms`);
  });
  return seen;
}

async function report(page: Page, seen: string[]) {
  const shown = await page
    .evaluate(() =>
      [...document.querySelectorAll('.ant-modal-content, .ant-message-notice, .ant-notification-notice, [role=alert], [role=status], .ant-drawer-title')]
        .map((el) => (el.textContent ?? '').replace(/\s+/g, ' ').slice(0, 200))
        .filter(Boolean),
    )
    .catch(() => []);
  const lines = [`page: ${page.url()}`, ...shown.map((text) => `on screen: ${text}`), ...seen.slice(-40)];
  process.stderr.write(`--- what the failed test's page showed and asked ---\n${lines.join('\n')}\n---\n`);
}

/** Fills and sends the sign-in form on the page as it is (waits for nothing after). */
export async function fillSignIn(page: Page, username: string, password: string) {
  await page.fill('#login-username', username);
  await page.fill('#login-password', password);
  await page.click('button[type=submit]');
}

/** Opens the sign-in page, fills and sends its form (waits for nothing after). */
export async function submitSignIn(page: Page, baseUrl: string, username: string, password: string) {
  await page.goto(`${baseUrl}/login`);
  await fillSignIn(page, username, password);
}

/**
 * Whether the page is at `path`: its path and every parameter `path` names; a list may add its
 * own paging and sorting to the address as soon as it draws, and a slow machine may look only
 * after that.
 */
function isAt(url: URL, path: string) {
  const wanted = new URL(path, url);
  return url.pathname === wanted.pathname && [...wanted.searchParams].every(([name, value]) => url.searchParams.getAll(name).includes(value));
}

/**
 * Signs in through the form and lands on `path`, as a person who opened a link to it while
 * signed out: the sign-in page's `redirect` leads there in the app, one page load in all. A
 * page load costs the browser three to four core-seconds, an in-app move a fraction of that,
 * so a test that wants a screen signs in to it rather than signing in to the home and loading
 * the screen again.
 */
export async function signInAt(page: Page, baseUrl: string, username: string, password: string, path = '/') {
  await page.goto(path === '/' ? `${baseUrl}/login` : `${baseUrl}/login?redirect=${encodeURIComponent(path)}`);
  await fillSignIn(page, username, password);
  await page
    .waitForURL((url) => isAt(url, path))
    .catch((error: Error) => {
      // say where the sign-in led instead, not only that it timed out
      throw new Error(`signed in, but at ${page.url()} instead of ${path}: ${error.message}`);
    });
}

/** signInAt as `user` on a page where someone else may be signed in: that one is forgotten first (cookies, storage). */
export async function signInAsAnother(page: Page, baseUrl: string, user: { username: string; password: string }, path = '/') {
  await page.context().clearCookies();
  // a page not yet on the site has nothing stored there
  if (page.url().startsWith(baseUrl)) await page.evaluate(() => localStorage.clear());
  await signInAt(page, baseUrl, user.username, user.password, path);
}

/**
 * Moves to `path` inside the app, as following one of its links does: the router reads the new
 * address, nothing is loaded again. A test that is about a page's first load (a link opened in
 * a new tab, a part that fails to load) uses `page.goto` instead. `landsOn` is where the app is
 * to be once it has moved: `path` itself, or where a screen that may not be opened sends one.
 */
export async function openInApp(page: Page, path: string, landsOn = path) {
  await page.evaluate((to) => {
    // the entry as the router writes its own, so going back from it works as after a click
    const idx = ((window.history.state as { idx?: number } | null)?.idx ?? 0) + 1;
    window.history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx }, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForURL((url) => isAt(url, landsOn));
}

/**
 * Picks `option` in the antd Select labelled `label` inside `scope` (once a sliding drawer has
 * put it on the screen). A select that searches is typed into first, as a person looks for one
 * among many: a reference offers only its first 20 rows until then, and the browser tests' centre
 * holds what every earlier file made, so a row made just now need not be among them.
 */
export async function chooseOption(page: Page, scope: Locator, label: string, option: string) {
  const field = scope.getByLabel(label, { exact: true });
  await whollyOnScreen(page, field);
  await field.click({ force: true });
  if ((await field.getAttribute('readonly')) === null) await field.fill(option);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

/**
 * Waits until antd's modal has finished opening: a click in its opening animation is now and
 * then lost (the modal then stays open), as a person would not click before it has appeared.
 */
export async function modalOpened(page: Page) {
  await expect.poll(() => page.locator('.ant-modal[class*="zoom-appear"], .ant-modal[class*="zoom-enter"]').count()).toBe(0);
}

/** What is moving on the page now, one entry each (spinners run forever and are left out). */
export const movingNow = (page: Page) =>
  page.evaluate(() =>
    document
      .getAnimations()
      .filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
      .map((a) => `${(a.effect as KeyframeEffect | null)?.target?.className ?? ''} ${a.effect?.getTiming().duration}`),
  );

/** Waits until nothing on the page is moving (drawers, toasts and colours change with animations). */
export async function stoppedMoving(page: Page, timeout = 5_000) {
  await expect.poll(() => movingNow(page), { timeout }).toEqual([]);
}

/** Waits until `target` is wholly on the screen (a drawer slides in before its fields can be used). */
export async function whollyOnScreen(page: Page, target: Locator) {
  const width = page.viewportSize()?.width ?? 0;
  await expect
    .poll(
      async () => {
        const box = await target.boundingBox();
        return box !== null && box.x >= 0 && box.x + box.width <= width;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
}
