/**
 * `npx tsx bench/first-visits.ts`: in Chromium, with the built client (./dist) served by a
 * Frontis of its own (PGlite, the demo centre's data), the first visit of each main screen
 * after signing in as the demo ADMIN:
 *  - the calendar: from pressing "sign in" to the first lesson of the week on screen;
 *  - the students, contracts, lessons and account: signed in, the week painted and the
 *    network quiet (the user looks at the week for a moment), from the click on the screen's
 *    sidebar entry to the first data row of its table on screen.
 * Each run uses a new browser context (an empty cache, as on a first visit). For the first run
 * it also prints what the browser asked for between the click and the row (start and end in ms
 * after the click), which shows the chunks and requests waited on one after another.
 * Options: --runs N (5), --waterfall false, --before DIR (another checkout, built, e.g. of the
 * previous commit: its server and client are measured too, run by run beside this one's, so
 * both see the same load).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from './free-port';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    waterfall: { type: 'string', default: 'true' },
    before: { type: 'string' },
  },
});
const RUNS = Number(args.runs);
const ADMIN = { username: 'admin', password: 'demo-admin-2024' };

/** The screens measured: the sidebar link's path; `null` for the home (the calendar). */
const SCREENS: { name: string; path: string | null }[] = [
  { name: 'calendar (sign in to the first lesson)', path: null },
  { name: 'students', path: '/students/' },
  { name: 'contracts', path: '/contracts/' },
  { name: 'lessons', path: '/lessons/' },
  { name: 'account', path: '/account/' },
];

/** A Frontis with the demo data in a process of its own; resolves once healthy. */
async function startServer(cwd: string): Promise<{ base: string; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'frontis-first-visits-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      DEFAULT_TENANT: 'demo',
      DEMO_DATA: '1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    cwd,
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  const until = Date.now() + 900_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      await stop();
      throw new Error('the server was not healthy within 15 minutes');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base: `http://demo.localhost:${port}`, stop };
}

/**
 * Resolves with the ms from now until the frame after the one in which `selector` first
 * matches a visible element (so style, layout and paint are counted). Source text: the bench
 * runs through tsx, whose helpers don't exist in the page.
 */
const untilShown = (selector: string, start: 'click-submit' | { click: string }) => `new Promise((resolve, reject) => {
  const started = performance.now();
  ${start === 'click-submit' ? `document.querySelector('button[type=submit]').click();` : `document.querySelector(${JSON.stringify(`aside a[href="${start.click}"]`)}).click();`}
  const frame = () => {
    const hit = [...document.querySelectorAll(${JSON.stringify(selector)})].find((e) => e.getClientRects().length > 0);
    if (hit) requestAnimationFrame(() => resolve({ ms: performance.now() - started, at: performance.timeOrigin + started }));
    else if (performance.now() - started > 60000) reject(new Error('nothing shown within 60 s'));
    else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})`;

const LESSON = '[data-lesson-id]';
/** Of each run: ms from pressing "sign in" until the client had fetched the screens ahead. */
const aheadAfterSignIn: number[] = [];
const DATA_ROW = '.ant-table-tbody tr.ant-table-row';

interface Timed {
  url: string;
  start: number;
  end?: number;
}

async function signIn(page: Page, base: string): Promise<{ ms: number; at: number }> {
  await page.goto(`${base}/login`, { waitUntil: 'networkidle' });
  await page.fill('#login-username', ADMIN.username);
  await page.fill('#login-password', ADMIN.password);
  return (await page.evaluate(untilShown(LESSON, 'click-submit'))) as { ms: number; at: number };
}

async function visit(browser: Browser, base: string, screen: (typeof SCREENS)[number]): Promise<{ ms: number; requests: Timed[] }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  try {
    const requests: Timed[] = [];
    // Wall-clock ms: the request's start and, from its timing, the end of its answer.
    page.on('requestfinished', (request) => {
      const timing = request.timing();
      const entry = {
        url: new URL(request.url()).pathname + new URL(request.url()).search,
        start: timing.startTime,
        end: timing.startTime + timing.responseEnd,
      };
      requests.push(entry);
    });
    const signedIn = await signIn(page, base);
    if (!screen.path) return { ms: signedIn.ms, requests: relative(requests, signedIn.at) };
    // The user looks at the week: until the client has fetched the screens ahead (at most 20 s).
    await page.waitForLoadState('networkidle');
    // (polled with evaluate: the page's Content-Security-Policy refuses waitForFunction's eval)
    let ready: number | undefined;
    for (const until = Date.now() + 20_000; ready === undefined && Date.now() < until; ) {
      ready = (await page.evaluate(`performance.getEntriesByName('frontis:screens-ready')[0]?.startTime + performance.timeOrigin || undefined`)) as
        | number
        | undefined;
      if (ready === undefined) await page.waitForTimeout(100);
    }
    if (ready !== undefined) aheadAfterSignIn.push(ready - signedIn.at);
    requests.length = 0;
    const shown = (await page.evaluate(untilShown(DATA_ROW, { click: screen.path }))) as { ms: number; at: number };
    await page.waitForLoadState('networkidle');
    return { ms: shown.ms, requests: relative(requests, shown.at) };
  } finally {
    await context.close();
  }
}

/** Request times (wall-clock ms, as Playwright gives them) as ms after `at` (wall-clock too). */
function relative(requests: Timed[], at: number): Timed[] {
  return requests.map((r) => ({ url: r.url, start: r.start - at, end: r.end === undefined ? undefined : r.end - at }));
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main() {
  const checkouts = [...(args.before ? [{ label: 'before', cwd: args.before }] : []), { label: args.before ? 'after' : 'this checkout', cwd: process.cwd() }];
  // One after the other: seeding the demo centre is most of a start.
  const servers: ({ label: string; cwd: string } & Awaited<ReturnType<typeof startServer>>)[] = [];
  for (const c of checkouts) servers.push({ ...c, ...(await startServer(c.cwd)) });
  const browser = await launchChromium();
  try {
    console.log(`first visits as the demo ADMIN, ${RUNS} runs each, load average ${load()}`);
    for (const screen of SCREENS) {
      const times = servers.map(() => [] as number[]);
      const waterfalls = servers.map(() => [] as Timed[]);
      const ahead = servers.map(() => [] as number[]);
      for (let run = 0; run < RUNS; run++) {
        for (const [i, server] of servers.entries()) {
          aheadAfterSignIn.length = 0;
          const result = await visit(browser, server.base, screen);
          if (aheadAfterSignIn.length) ahead[i]!.push(aheadAfterSignIn[0]!);
          times[i]!.push(result.ms);
          if (run === 0) waterfalls[i] = result.requests;
        }
      }
      for (const [i, server] of servers.entries()) {
        const sorted = times[i]!.sort((a, b) => a - b);
        const ms = (n: number) => n.toFixed(0);
        const fetchedAhead = ahead[i]!.length ? `; screens fetched ahead ${ahead[i]!.map(ms).join(', ')} ms after "sign in"` : '';
        console.log(
          `${screen.name}, ${server.label}: p50 ${ms(sorted[Math.floor(sorted.length / 2)]!)} ms, min ${ms(sorted[0]!)}, max ${ms(sorted.at(-1)!)}${fetchedAhead}`,
        );
        if (args.waterfall === 'false') continue;
        for (const r of waterfalls[i]!.filter((w) => w.start > -5).sort((a, b) => a.start - b.start))
          console.log(`    ${r.start.toFixed(0).padStart(6)} → ${(r.end ?? Number.NaN).toFixed(0).padStart(6)} ms  ${r.url}`);
      }
    }
    console.log(`load average after: ${load()}`);
  } finally {
    await browser.close();
    await Promise.all(servers.map((s) => s.stop()));
  }
}

await main();
