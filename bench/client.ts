/**
 * What a person waits for, and what the server holds:
 *  - the compiled server (`npm start`: dist-server/main.js) from process start to a healthy
 *    /healthz, on a new data directory and again on the same one (a restart), next to the
 *    same start through tsx (the TypeScript sources, as `npm run serve` runs them);
 *  - in Debian's Chromium, from pressing "sign in" to the painted week of the demo centre, for
 *    a first visit (an empty browser cache each run), with the JavaScript bytes transferred;
 *  - the server's resident memory (RSS).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from './free-port';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { launchChromium } from './chromium';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** This process's resident memory: with the bench's server in it, the server's. */
export function rss(): string {
  return mb(process.memoryUsage().rss);
}

/** Milliseconds from spawning `node <args>` to the first 200 of /healthz; then stops it. */
async function startToHealthy(nodeArgs: string[], dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, nodeArgs, {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', DEMO_DATA: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} while starting`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (res.ok) return performance.now() - started;
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 300_000) throw new Error('the server was not healthy within 5 minutes');
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

interface StartTimes {
  compiledFresh: number;
  compiledRestart: number;
  tsxRestart: number;
}

/** Builds dist-server/ and times the starts described above (embedded database). */
export async function timeStarts(): Promise<StartTimes> {
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs'], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`building the server failed: ${built.stderr}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'frontis-bench-start-'));
  try {
    const compiledFresh = await startToHealthy(['dist-server/main.js'], dataDir);
    const compiledRestart = await startToHealthy(['dist-server/main.js'], dataDir);
    const tsxRestart = await startToHealthy(['--import', 'tsx', 'server/main.ts'], dataDir);
    return { compiledFresh, compiledRestart, tsxRestart };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Clicks "sign in" and resolves with the milliseconds until the frame after the one in which
 * the calendar shows every lesson of its week (so style, layout and paint are counted). Kept
 * as source text: the bench runs through tsx, whose helpers don't exist in the page.
 */
const SIGN_IN_TO_PAINTED_WEEK = `new Promise((resolve, reject) => {
  const clicked = performance.now();
  document.querySelector('button[type=submit]').click();
  const frame = () => {
    const root = document.querySelector('[data-testid="lesson-calendar"]');
    const count = root ? Number(root.getAttribute('data-count')) : 0;
    const shown = root ? root.querySelectorAll('[data-lesson-id]').length : 0;
    if (root && root.getAttribute('data-loading') === 'false' && count > 0 && shown === count) {
      requestAnimationFrame(() => resolve({ ms: performance.now() - clicked, lessons: shown }));
    } else if (performance.now() - clicked > 60000) reject(new Error('the week was not painted within 60 s'));
    else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})`;

interface SignInTimes {
  runs: number;
  lessons: number;
  p50: number;
  max: number;
  /** JavaScript bytes on the wire (compressed) from opening /login to the painted week. */
  jsTransferred: number;
}

export async function timeSignInToWeek(baseUrl: string, user: { username: string; password: string }, week: string, runs = 5): Promise<SignInTimes> {
  const browser = await launchChromium();
  const times: number[] = [];
  let lessons = 0;
  let jsTransferred = 0;
  try {
    for (let run = 0; run < runs; run++) {
      // A new context each run: an empty cache, as on a first visit.
      const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
      const page = await context.newPage();
      const js: Promise<number>[] = [];
      page.on('requestfinished', (request) => {
        if (new URL(request.url()).pathname.endsWith('.js')) js.push(request.sizes().then((s) => s.responseBodySize));
      });
      await page.addInitScript(`sessionStorage.setItem('frontis.calendar', JSON.stringify({ view: 'week', date: '${week}' }))`);
      await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle' });
      await page.fill('#login-username', user.username);
      await page.fill('#login-password', user.password);
      const result = (await page.evaluate(SIGN_IN_TO_PAINTED_WEEK)) as { ms: number; lessons: number };
      times.push(result.ms);
      lessons = result.lessons;
      await page.waitForLoadState('networkidle');
      jsTransferred = (await Promise.all(js)).reduce((a, b) => a + b, 0);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  times.sort((a, b) => a - b);
  return { runs, lessons, p50: times[Math.floor(times.length / 2)]!, max: times.at(-1)!, jsTransferred };
}
