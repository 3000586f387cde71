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
