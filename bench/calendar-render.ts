/**
 * In Debian's Chromium: how long the calendar takes to show a week of lessons once their data
 * has arrived (PRODUCT.md section 9: a week of 1,000 lessons under 300 ms). Each run moves the
 * calendar to the next or previous week and measures from the end of the week's response to
 * the animation frame in which every lesson of it is in the page.
 */
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface RenderTimes {
  runs: number;
  events: number;
  p50: number;
  max: number;
}

/**
 * Milliseconds from the calendar response's end to the frame showing `count` lessons. Kept as
 * source text: the bench runs through tsx, whose helpers don't exist in the page.
 */
const untilRendered = (count: number) => `new Promise((resolve, reject) => {
  const started = performance.now();
  const frame = () => {
    const root = document.querySelector('[data-testid="lesson-calendar"]');
    const shown = root ? root.querySelectorAll('[data-lesson-id]').length : 0;
    if (root && root.getAttribute('data-loading') === 'false' && shown >= ${count}) {
      const arrived = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/lessons/calendar')).pop();
      resolve(performance.now() - (arrived ? arrived.responseEnd : started));
    } else if (performance.now() - started > 30000) reject(new Error('only ' + shown + ' of ${count} lessons after 30 s'));
    else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})`;

export async function timeCalendarRender(baseUrl: string, user: { username: string; password: string }, runs = 6): Promise<RenderTimes> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    // The seeded school year is around this date, whatever today is.
    await page.clock.setFixedTime(new Date('2026-11-18T10:00:00'));
    await page.goto(`${baseUrl}/login`);
    await page.fill('#login-username', user.username);
    await page.fill('#login-password', user.password);
    await page.click('button[type=submit]');
    await page.waitForURL(`${baseUrl}/`);
    const times: number[] = [];
    let events = 0;
    for (let run = 0; run <= runs; run++) {
      const answer = page.waitForResponse((r) => r.url().includes('/api/lessons/calendar') && r.ok());
      // react-big-calendar's toolbar: today, previous, next.
      if (run > 0) await page.locator(`.rbc-toolbar .rbc-btn-group >> nth=0 >> button >> nth=${run % 2 ? 2 : 1}`).click();
      const { total } = (await (await answer).json()) as { total: number };
      const ms = (await page.evaluate(untilRendered(total))) as number;
      // The first run also loads the calendar's code and fonts: not counted.
      if (run > 0) times.push(ms);
      events = total;
    }
    times.sort((a, b) => a - b);
    return { runs, events, p50: times[Math.floor(times.length / 2)]!, max: times.at(-1)! };
  } finally {
    await browser.close();
  }
}
