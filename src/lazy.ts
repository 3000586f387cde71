import { type ComponentProps, type ComponentType, createElement, lazy, useState } from 'react';

const RELOADS_KEY = 'frontis.chunk-reloads';

/**
 * After a deploy the old chunk names are gone: reload the page once per distinct failure
 * message (remembered in sessionStorage), so a second identical failure shows the error page
 * instead of reloading forever. Returns true when a reload was started.
 */
export function reloadOnceFor(error: unknown): boolean {
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

/** A part of the client loaded on demand; `preload()` fetches it ahead of its first use. */
// biome-ignore lint/suspicious/noExplicitAny: the props are the loaded component's own
export type LazyPart<C extends ComponentType<any>> = ComponentType<ComponentProps<C>> & { preload(): Promise<void> };

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
  const Lazy = lazy(async () => {
    try {
      return await fetchPart();
    } catch (error) {
      // while the page reloads, render nothing rather than the error page
      if (reloadOnceFor(error)) return new Promise<{ default: C }>(() => undefined);
      throw error;
    }
  });
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
  return Part;
}

// Vite reports a failed preload of a chunk's dependencies here.
if (typeof window !== 'undefined') {
  window.addEventListener('vite:preloadError', (event) => {
    const payload = (event as Event & { payload?: unknown }).payload;
    if (reloadOnceFor(payload ?? event)) event.preventDefault();
  });
}
