import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { post, rootToken } from './api';
import { signInAt, useBrowserTab } from './browser';
import { e2eServer } from './server';

// The calendar in the dark theme and on a phone, the recurring lessons shown as soon as they
// arrive, and My data saved: in a real Chromium against the real server.
const baseUrl = e2eServer().baseUrl;
const root = inject('root');

const tab = useBrowserTab({ width: 1280, height: 900 });
let page: Page;
beforeEach(() => {
  page = tab.page;
});

/** Signs in as ROOT and lands on `path`: one page load; on the calendar, once it has loaded. */
async function signInAsRoot(path = '/') {
  await signInAt(page, baseUrl, root.username, root.password, path);
  if (path === '/') await page.locator('[data-testid="lesson-calendar"][data-loading="false"]').waitFor();
}

/** Colours the page computes for the calendar: today's column, a grid line, the header text. */
const calendarColours = () =>
  page.evaluate(() => {
    const css = (selector: string, property: string) => {
      const el = document.querySelector(selector);
      return el ? getComputedStyle(el).getPropertyValue(property) : '';
    };
    return {
      today: css('.rbc-time-view .rbc-day-bg.rbc-today, .rbc-time-view .rbc-day-slot.rbc-today', 'background-color'),
      grid: css('.rbc-time-view .rbc-timeslot-group', 'border-bottom-color'),
      text: css('.rbc-time-view .rbc-header', 'color'),
    };
  });

/** WCAG contrast ratio of two `rgb(...)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (rgb: string) => {
    const [r, g, bl] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
      const s = Number(v) / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe('the calendar', () => {
  it('keeps today and the grid readable in the dark theme', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await signInAsRoot();
    await page.getByRole('button', { name: 'Εβδομάδα' }).click();
    const light = await calendarColours();
    expect(light.today).not.toBe('');

    await page.locator('header').getByRole('switch').click();
    await expect.poll(async () => (await calendarColours()).today).not.toBe(light.today);
    const dark = await calendarColours();
    expect(dark.grid).not.toBe(light.grid);
    // The header text reads on today's column, and the column stands out of the dark page.
    expect(contrast(dark.text, dark.today)).toBeGreaterThanOrEqual(4.5);
    const pageBackground = await page.evaluate(() => getComputedStyle(document.querySelector('.ant-layout')!).backgroundColor);
    expect(contrast(dark.today, pageBackground)).toBeGreaterThan(1.05);
    expect(contrast(dark.grid, pageBackground)).toBeGreaterThan(1.2);
  });

  it('fits a 390 px phone: the day view, the filters in a drawer, no sideways scrolling', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAsRoot();
    await page.locator('[data-testid="lesson-calendar"][data-view="day"]').waitFor();
    expect(await page.getByTestId('calendar-filters').count()).toBe(0);
    await page.getByTestId('calendar-filters-button').click();
    await page.locator('.ant-drawer').getByTestId('calendar-filters').waitFor();
    await page.keyboard.press('Escape');
    const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    // every toolbar button is on screen
    for (const button of await page.locator('.rbc-toolbar button').all()) {
      const box = (await button.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
  });
});

describe('the recurring lessons', () => {
  it('shows its rows promptly once the answer arrives', async () => {
    const token = await rootToken();
    const n = Date.now() % 100_000;
    const teacher = await post(token, '/api/teachers', {
      username: `seira${n}`,
      password: 'teacher-password-1',
      confirm_password: 'teacher-password-1',
      first_name: 'Σοφία',
      last_name: `Σειρά ${n}`,
    });
    const subject = await post(token, '/api/subjects', { name: `Αρχαία ${n}`, color: '#13c2c2' });
    for (const start of ['09:00', '11:00', '13:00']) {
      const end = `${String(Number(start.slice(0, 2)) + 1).padStart(2, '0')}:00`;
      await post(token, '/api/recurring-lessons', {
        start_time: start,
        end_time: end,
        teacher_id: teacher.id,
        subject_id: subject.id,
        repeat: 'WEEKLY',
        repeat_every: 1,
        weekdays: [1, 3],
        start_date: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
        end_type: 'AFTER',
        occurrences: 10,
      });
    }
    await signInAsRoot('/lessons/');
    await page.locator('.ant-segmented-item', { hasText: 'Επαναλαμβανόμενες διδασκαλίες' }).waitFor();
    // When the first row of a series is in the page, measured in the page itself.
    await page.evaluate((name) => {
      const w = window as Window & { rowsAt?: number; answeredAt?: number };
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as PerformanceResourceTiming[])
          if (entry.name.includes('/api/recurring-lessons?') && w.answeredAt === undefined) w.answeredAt = entry.responseEnd;
      }).observe({ type: 'resource' });
      const seen = () => {
        if (w.rowsAt === undefined && [...document.querySelectorAll('.ant-table-row')].some((row) => row.textContent?.includes(name)))
          w.rowsAt = performance.now();
      };
      new MutationObserver(seen).observe(document.body, { childList: true, subtree: true, characterData: true });
      // and every frame, in case the rows came in a change the observer was not told of
      const frame = () => {
        seen();
        if (w.rowsAt === undefined) requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    }, `Αρχαία ${n}`);
    await page.locator('.ant-segmented-item', { hasText: 'Επαναλαμβανόμενες διδασκαλίες' }).click();
    await page
      .locator('.ant-table-row', { hasText: `Αρχαία ${n}` })
      .first()
      .waitFor();
    await page.waitForFunction(() => (window as Window & { answeredAt?: number }).answeredAt !== undefined);
    const timing = await page.evaluate(() => {
      const w = window as Window & { rowsAt?: number; answeredAt?: number };
      return { rowsAt: w.rowsAt ?? Number.NaN, answeredAt: w.answeredAt ?? Number.NaN };
    });
    expect(timing.rowsAt - timing.answeredAt, JSON.stringify(timing)).toBeLessThan(1500);
    expect(await page.locator('.ant-table-row', { hasText: `Αρχαία ${n}` }).count()).toBe(3);
  });
});

describe('My data', () => {
  it('saves the signed-in user’s phone', async () => {
    const token = await rootToken();
    const user = { username: `mydata${Date.now() % 100_000}`, password: 'secretary-password-1' };
    await post(token, '/api/users', { ...user, role: 'SECRETARY', first_name: 'Ιωάννα', last_name: 'Δεδομένων' });
    await signInAt(page, baseUrl, user.username, user.password, '/mydata/');
    const phone = page.getByLabel('Τηλέφωνο', { exact: true });
    await expect.poll(() => page.getByLabel('Επώνυμο', { exact: true }).inputValue()).toBe('Δεδομένων');
    await phone.fill('2101234567');
    await page.getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.getByText('Τα στοιχεία σας αποθηκεύτηκαν.').waitFor();
    await page.reload();
    await expect.poll(() => page.getByLabel('Τηλέφωνο', { exact: true }).inputValue()).toBe('2101234567');
  });
});
