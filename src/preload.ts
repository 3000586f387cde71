import { lazyPage } from './lazy';
import { isOffline, onRecovery } from './providers/connectivity';
import { appBusy } from './providers/busy';
import { session } from './providers/session';

/**
 * The signed-in application, loaded on demand: root.tsx routes to it, preloadHome fetches it
 * ahead. Once its code is there, the layout and the screen of the address open now are
 * fetched at once, beside the session check rather than after it.
 */
export const App = lazyPage(() =>
  import('./App').then((app) => {
    if (typeof window !== 'undefined' && location.pathname !== '/login') void app.preloadRoute(location.pathname);
    return app;
  }),
);

/** Where the sign-in page leads: its `redirect` (a path of this site), or the home. */
function afterSignIn(): string {
  const redirect = new URLSearchParams(location.search).get('redirect');
  if (!redirect) return '/';
  try {
    const url = new URL(redirect, location.origin);
    return url.origin === location.origin ? url.pathname : '/';
  } catch {
    return '/';
  }
}

/** Runs `work` when the browser is idle (at the latest after `timeout` ms). */
function whenIdle(work: () => void, timeout = 1000): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback(work, { timeout });
  else setTimeout(work, 200);
}

let started = false;

/**
 * Fetches (and evaluates) the code a sign-in leads to — the app, its layout and the calendar
 * home, or the screen the sign-in will return to — while the sign-in page waits for the user to type: on a first visit the week can be
 * drawn as soon as the session is granted, without downloading the screens after "sign in"
 * (or waiting on a loading spinner for them). Once per page load, when the browser is idle.
 */
export function preloadHome(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  whenIdle(() => {
    void App.preload()
      .then(() => import('./App'))
      .then((app) => app.preloadRoute(afterSignIn()))
      .catch(() => undefined);
  });
}

/** How long the network must have been quiet before the next screen's code is fetched. */
const QUIET_MS = 300;

/** When the last file or request the page asked for came in (ms on the page's clock). */
let lastArrival = 0;

/**
 * Resolves once the page is idle, the app waits on no request and nothing has arrived for
 * QUIET_MS: what the screen on display asks for (its chunks, its data, drawing it) goes
 * first, the screens ahead after.
 */
function quiet(): Promise<void> {
  return new Promise((resolve) => {
    const check = () =>
      whenIdle(() => {
        const waited = performance.now() - lastArrival;
        if (waited >= QUIET_MS && !appBusy()) resolve();
        else setTimeout(check, Math.max(QUIET_MS - waited, 50));
      }, 5000);
    check();
  });
}

/** The roles whose screens were fetched ahead in this page (a sign-in as another role adds its own). */
const preloadedFor = new Set<string>();

/** A performance mark set when the screens of the signed-in role have all been fetched ahead. */
const SCREENS_READY_MARK = 'frontis:screens-ready';

/**
 * Once someone is signed in, fetches the code of the screens their role opens from the
 * sidebar: it starts once what the page on display asked for has come in and been drawn, then
 * takes one screen after another whenever the browser is idle, so the first visit of a screen
 * waits for its data only. Once per role and page; SCREENS_READY_MARK says when it is done.
 */
export function preloadScreens(): void {
  const user = session.get();
  if (!user || preloadedFor.has(user.role)) return;
  preloadedFor.add(user.role);
  // While the server can't be reached, nothing is fetched ahead (a failed fetch would only
  // be tried again on the screen's first use): the next screen waits for it to answer again.
  const idle = async () => {
    if (isOffline())
      await new Promise<void>((resolve) => {
        const stop = onRecovery(() => {
          stop();
          resolve();
        });
      });
    await new Promise<void>((resolve) => whenIdle(resolve));
  };
  void quiet()
    .then(() => App.preload())
    .then(() => import('./App'))
    .then((app) => app.preloadScreens(user.role, idle))
    .then((done) => {
      if (done) performance.mark(SCREENS_READY_MARK, { detail: { role: user.role } });
    })
    .catch(() => undefined);
}

// On a page opened signed in, and on each sign-in.
if (typeof window !== 'undefined') {
  if (typeof PerformanceObserver !== 'undefined') {
    try {
      new PerformanceObserver((entries) => {
        for (const entry of entries.getEntries()) lastArrival = Math.max(lastArrival, (entry as PerformanceResourceTiming).responseEnd);
      }).observe({ type: 'resource', buffered: true });
    } catch {
      // without resource timing the idle callbacks alone decide
    }
  }
  preloadScreens();
  session.subscribe(preloadScreens);
}
