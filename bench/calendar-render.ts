import { launchChromium } from './chromium';

interface RenderTimes {
  runs: number;
  events: number;
  p50: number;
  max: number;
}

/**
 * Clicks the toolbar's "next" and resolves with the milliseconds from the end of the new
 * week's response to the frame after the one where every lesson of it is in the page (so
 * style, layout and paint are counted). Kept as source text: the bench runs through tsx,
 * whose helpers don't exist in the page.
 */
const NEXT_WEEK_RENDERED = `new Promise((resolve, reject) => {
  const root = document.querySelector('[data-testid="lesson-calendar"]');
  const clicked = performance.now();
  document.querySelectorAll('.rbc-toolbar .rbc-btn-group')[0].querySelectorAll('button')[2].click();
  const frame = () => {
    const arrived = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/lessons/calendar') && e.startTime >= clicked).pop();
    const count = Number(root.getAttribute('data-count'));
    const shown = root.querySelectorAll('[data-lesson-id]').length;
    if (arrived && arrived.responseEnd > 0 && root.getAttribute('data-loading') === 'false' && count > 0 && shown === count) {
      // One frame more: the one that found them in the page has now been laid out and painted.
      requestAnimationFrame(() => resolve({ ms: performance.now() - arrived.responseEnd, events: shown }));
    } else if (performance.now() - clicked > 60000) reject(new Error('the next week did not render within 60 s'));
    else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})`;

export async function timeCalendarRender(baseUrl: string, user: { username: string; password: string }, week: string, runs = 6): Promise<RenderTimes> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    // Open the calendar on the seeded week, whatever today is (the calendar keeps its view and
    // date in sessionStorage; a fake clock would also fake the frame times measured here).
    await page.addInitScript(`sessionStorage.setItem('frontis.calendar', JSON.stringify({ view: 'week', date: '${week}' }))`);
    await page.goto(`${baseUrl}/login`);
    await page.fill('#login-username', user.username);
    await page.fill('#login-password', user.password);
    await page.click('button[type=submit]');
    await page.locator('[data-testid="lesson-calendar"][data-loading="false"] [data-lesson-id]').first().waitFor({ state: 'attached', timeout: 60_000 });
    const times: number[] = [];
    let events = 0;
    for (let run = 0; run < runs; run++) {
      const result = (await page.evaluate(NEXT_WEEK_RENDERED)) as { ms: number; events: number };
      times.push(result.ms);
      events = result.events;
    }
    times.sort((a, b) => a - b);
    return { runs, events, p50: times[Math.floor(times.length / 2)]!, max: times.at(-1)! };
  } finally {
    await browser.close();
  }
}
