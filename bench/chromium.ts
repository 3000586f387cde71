import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

// Debian's Chromium, headless, with the flags this machine's closed network needs. The browser
// tests and the bench launch it the same way.
const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/**
 * A page's context asks for reduced motion, as a person who set it in their system does: the
 * app then draws drawers, menus and messages at once (src/components/preferences.tsx). A click
 * into a menu still opening is now and then lost on a busy machine, where a person would have
 * waited for it; a file about motion itself asks for it with `motion: true`.
 */
export const contextOptions = (viewport: { width: number; height: number }, motion = false) =>
  ({ viewport, reducedMotion: motion ? 'no-preference' : 'reduce' }) as const;
