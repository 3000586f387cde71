import { lazyPage } from './lazy';

/** The signed-in application, loaded on demand: root.tsx routes to it, preloadHome fetches it ahead. */
export const App = lazyPage(() => import('./App'));

let started = false;

/**
 * Fetches (and evaluates) the code a sign-in leads to — the app, its layout and the calendar
 * home — while the sign-in page waits for the user to type: on a first visit the week can be
 * drawn as soon as the session is granted, without downloading the screens after "sign in"
 * (or waiting on a loading spinner for them). Once per page load, when the browser is idle.
 */
export function preloadHome(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  const load = () => {
    void App.preload()
      .then(() => import('./App'))
      .then((app) => app.preloadHome())
      .catch(() => undefined);
  };
  if ('requestIdleCallback' in window) window.requestIdleCallback(load, { timeout: 1000 });
  else setTimeout(load, 200);
}
