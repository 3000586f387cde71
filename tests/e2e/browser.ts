import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

// Debian's Chromium, headless, with the flags this machine's closed network needs.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** One browser per test file, a fresh context and page per test: `tab.page` is the current page. */
export function useBrowserTab(viewport: { width: number; height: number }): { page: Page } {
  const tab = {} as { page: Page };
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
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
