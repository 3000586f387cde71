import { type ComponentProps, type ComponentType, createElement, lazy, useState } from 'react';
import { outageDelay, reportOutage, serverAnswers, sleep } from './providers/connectivity';

const RELOADS_KEY = 'frontis.chunk-reloads';

/**
 * After a deploy the old chunk names are gone: reload the page once per distinct failure
 * message (remembered in sessionStorage), so a second identical failure shows the error page
 * instead of reloading forever. Returns true when a reload was started.
 */
function reloadOnceFor(error: unknown): boolean {
  console.warn('Error preloading route!', error);
  const message = error instanceof Error ? error.message : String(error);
  try {
    const seen = JSON.parse(sessionStorage.getItem(RELOADS_KEY) ?? '[]') as string[];
    if (seen.includes(message)) return false;
    sessionStorage.setItem(RELOADS_KEY, JSON.stringify([...seen, message]));
  } catch {
    return false; // without storage we could loop: don't reload
  }
  location.reload();
  return true;
}

/**
 * A part of the client loaded on demand; `preload()` fetches it ahead of its first use,
 * `loaded()` says whether it is there (a failed preload leaves it out).
 */
// biome-ignore lint/suspicious/noExplicitAny: the props are the loaded component's own
export type LazyPart<C extends ComponentType<any>> = ComponentType<ComponentProps<C>> & { preload(): Promise<void>; loaded(): boolean };

/** React.lazy for a screen (no props), with the reload-once rule above. */
export function lazyPage(load: () => Promise<{ default: ComponentType }>) {
  return lazyPart(load);
}

/**
 * React.lazy for any component (with props), with the reload-once rule above: for parts of a
 * screen that only some visits need (a drawer's form), so the screen's first paint does not
 * wait for them. Once loaded (by `preload()` or an earlier use), a part renders at once:
 * React.lazy would suspend on its first render even then, and React holds a shown fallback
 * for 300 ms before it reveals what replaced it.
 */
// biome-ignore lint/suspicious/noExplicitAny: the props are the loaded component's own
export function lazyPart<C extends ComponentType<any>>(load: () => Promise<{ default: C }>): LazyPart<C> {
  let loaded: C | undefined;
  const fetchPart = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });
  const Lazy = lazy(() => loadThroughOutages(fetchPart));
  // biome-ignore lint/correctness/noComponentHookFactories: like React.lazy, called once per part at module level
  function Part(props: ComponentProps<C>) {
    // Chosen once per mount: switching from the lazy wrapper to the component would remount it.
    const [Type] = useState<ComponentType<ComponentProps<C>>>(() => (loaded ?? Lazy) as ComponentType<ComponentProps<C>>);
    return createElement(Type, props);
  }
  // A failed preload is left to the real use, which reloads once after a deploy.
  Part.preload = () =>
    fetchPart().then(
      () => undefined,
      () => undefined,
    );
  Part.loaded = () => loaded !== undefined;
  return Part;
}

/**
 * Loads a part; when that fails while the server does not answer (an outage, not a deploy),
 * the screen waits (the shell's banner says the server can't be reached) and tries again with
 * the back-off until it does. Only a failure while the server answers goes to the reload-once
 * rule, so a reload never lands on the browser's own "can't be reached" page.
 */
async function loadThroughOutages<M>(load: () => Promise<M>): Promise<M> {
  for (let tries = 0; ; tries++) {
    try {
      return await load();
    } catch (error) {
      if (await serverAnswers()) {
        // while the page reloads, render nothing rather than the error page
        if (reloadOnceFor(error)) return new Promise<M>(() => undefined);
        throw error;
      }
      reportOutage();
      await sleep(outageDelay(tries));
    }
  }
}

// Vite reports a failed preload of a chunk's dependencies here. The import itself is then
// tried (and, failing, handled by loadThroughOutages), so nothing is reloaded from here.
if (typeof window !== 'undefined') {
  window.addEventListener('vite:preloadError', (event) => {
    console.warn('Error preloading route!', (event as Event & { payload?: unknown }).payload ?? event);
  });
}
