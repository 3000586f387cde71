import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { post, rootToken } from './api';
import { signInAt, stoppedMoving, useBrowserTab } from './browser';
import { e2eServer } from './server';

// The toasts in Greek (src/providers/toasts.ts): a notification is a status a screen reader
// reads, F8 takes the focus to it, a swipe to the right dismisses it; a confirmation is
// announced through the page's live region and is 356 px wide.
const baseUrl = e2eServer().baseUrl;

const tab = useBrowserTab({ width: 1400, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

const drawer = () => page.locator('.ant-drawer-content');

describe('toasts', () => {
  it('an ADMIN hears a saved room, reaches the notice with F8, swipes it away, and hears the room deleted', async () => {
    const token = await rootToken();
    const admin = { username: `toasts${Date.now()}`, password: 'toasts-password-1' };
    await post(token, '/api/users', { ...admin, role: 'ADMIN', first_name: 'Νίκη', last_name: 'Ειδοποιού' });
    await signInAt(page, baseUrl, admin.username, admin.password, '/rooms/?mode=create');

    const name = `Αίθουσα Ειδοποιήσεων ${Date.now()}`;
    await drawer().getByLabel('Όνομα', { exact: true }).fill(name);
    await drawer().getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.waitForURL((url) => !url.search.includes('mode='));

    // (a live notification of the shared centre may stand beside it: this is the save's own)
    const notice = page.locator('.ant-notification-notice', { hasText: 'Αποθηκεύτηκε' });
    await notice.waitFor();
    expect(await notice.locator('[role="status"]').count()).toBe(1);
    expect(await notice.locator('[role="alert"]').count()).toBe(0);

    await page.keyboard.press('F8');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Ειδοποιήσεις (F8)');

    // Dragged less than 50 px it springs back; past it, it goes (the pointer on it holds antd's timer).
    // Measured once it has slid in: a box taken during its entrance is not where it stays.
    await stoppedMoving(page);
    const box = (await notice.boundingBox())!;
    await page.mouse.move(box.x + 40, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 40 + 30, box.y + box.height / 2, { steps: 3 });
    await page.mouse.up();
    expect(await notice.evaluate((el) => (el as HTMLElement).style.transform)).toBe('');
    expect(await notice.count()).toBe(1);
    await page.mouse.move(box.x + 40, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 40 + 70, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await notice.waitFor({ state: 'detached' });

    const row = page.locator('.ant-table-row', { hasText: name });
    await row.getByRole('button', { name: 'Διαγραφή' }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Διαγραφή' }).click();
    // Drawn inside the page's polite live region, which was there before it.
    const confirmation = page.getByRole('status').locator('.ant-message-notice-content', { hasText: `Διαγράφηκε: ${name}` });
    await confirmation.waitFor();
    expect(await page.locator('[aria-live="polite"] .ant-message').count()).toBe(1);
    expect((await confirmation.boundingBox())?.width).toBe(356);
  });
});
