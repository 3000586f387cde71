let started = false;

/**
 * Fetches (and evaluates) the code a sign-in leads to — the app, its layout and the calendar
 * home — while the sign-in page waits for the user to type: on a first visit the week can be
 * drawn as soon as the session is granted, instead of downloading the screens after "sign in".
 * Once per page load, when the browser is idle. A failure is left to the real navigation,
 * which reloads once after a deploy (src/lazy.ts).
 */
export function preloadHome(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  const load = () => {
    void Promise.all([import('./App'), import('./components/shell'), import('./pages/calendar')]).catch(() => undefined);
  };
  if ('requestIdleCallback' in window) window.requestIdleCallback(load, { timeout: 1000 });
  else setTimeout(load, 200);
}
