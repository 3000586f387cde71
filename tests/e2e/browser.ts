import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { launchChromium } from './chromium';

/** One browser per test file, a fresh context and page per test: `tab.page` is the current page. */
export function useBrowserTab(viewport: { width: number; height: number }): { page: Page } {
  const tab = {} as { page: Page };
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    context = await browser!.newContext({ viewport });
    tab.page = await context.newPage();
    tab.page.setDefaultTimeout(15_000);
  });
  afterEach(async () => {
    await context?.close();
  });
  return tab;
}

/** Fills and sends the sign-in form (waits for nothing after). */
export async function submitSignIn(page: Page, baseUrl: string, username: string, password: string) {
  await page.goto(`${baseUrl}/login`);
  await page.fill('#login-username', username);
  await page.fill('#login-password', password);
  await page.click('button[type=submit]');
}

/** Picks `option` in the antd Select labelled `label` inside `scope`. */
export async function chooseOption(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByLabel(label, { exact: true }).click({ force: true });
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

/** Waits until `target` is wholly on the screen (a drawer slides in before its fields can be used). */
export async function whollyOnScreen(page: Page, target: Locator) {
  const width = page.viewportSize()?.width ?? 0;
  await expect
    .poll(async () => {
      const box = await target.boundingBox();
      return box !== null && box.x >= 0 && box.x + box.width <= width;
    })
    .toBe(true);
}
