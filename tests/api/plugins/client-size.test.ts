// How much JavaScript a browser downloads, read from the built client (dist/, made by
// `npm run build`; npm test builds it first): the sign-in page, and the calendar home reached
// through it. A page loads index.html's script and what it preloads, then the screens it
// opens and every chunk those import (dist/.vite/manifest.json lists the imports). Sizes are
// gzip at level 9, the usual measure; browsers that accept brotli get less.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const DIST = 'dist';
const MANIFEST = join(DIST, '.vite/manifest.json');
if (!existsSync(MANIFEST)) throw new Error('dist/ is missing: run `npm run build` first (npm test does).');

const KB = 1024;
/** The sign-in page: what every visitor loads before anything else. */
const SIGN_IN_BUDGET = 250 * KB;
/**
 * Signing in, then the calendar home painted: everything downloaded on the way, for a visitor
 * in Greek (the default language; English strings come only to those who choose English).
 */
const HOME_BUDGET = 500 * KB;

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, Chunk>;

/** The chunks `keys` load before they run: themselves and their static imports, recursively. */
function loadedBy(keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build's manifest`);
    seen.add(key);
    for (const next of chunk.imports ?? []) visit(next);
  };
  for (const key of keys) visit(key);
  return seen;
}

const gzipped = (keys: Set<string>) => [...keys].reduce((sum, key) => sum + gzipSync(readFileSync(join(DIST, manifest[key]!.file)), { level: 9 }).length, 0);
const kb = (bytes: number) => `${(bytes / KB).toFixed(0)} KB`;

// What index.html names itself, checked against the manifest's entry: the test follows the real page.
const INDEX = readFileSync(join(DIST, 'index.html'), 'utf8');
const NAMED = [...INDEX.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\/([^"]+\.js)"/g)].map((m) => m[1]!);

const SIGN_IN = loadedBy(['index.html', 'src/pages/login.tsx']);
// App is the signed-in application, shell its layout, calendar the home route '/'.
const HOME = loadedBy(['index.html', 'src/App.tsx', 'src/components/shell.tsx', 'src/pages/calendar/index.tsx']);

describe('the weight of the built client', () => {
  it("index.html's script and preloads are the entry's chunks", () => {
    const entry = loadedBy(['index.html']);
    expect(new Set(NAMED)).toEqual(new Set([...entry].map((key) => manifest[key]!.file)));
  });

  it(`the sign-in page loads at most ${kb(SIGN_IN_BUDGET)} of gzipped JavaScript`, () => {
    const size = gzipped(SIGN_IN);
    console.info(`sign-in page: ${kb(size)} gzipped in ${SIGN_IN.size} files`);
    expect(size, `sign-in page ${kb(size)}`).toBeLessThanOrEqual(SIGN_IN_BUDGET);
  });

  it(`signing in and painting the calendar home load at most ${kb(HOME_BUDGET)} in all`, () => {
    const all = new Set([...SIGN_IN, ...HOME]);
    const size = gzipped(all);
    console.info(`calendar home: ${kb(gzipped(HOME))} gzipped opened directly, ${kb(size)} through the sign-in page`);
    expect(size, `calendar home through sign-in ${kb(size)}`).toBeLessThanOrEqual(HOME_BUDGET);
  });

  it('the sign-in page does not load the signed-in application or the calendar', () => {
    for (const key of ['src/App.tsx', 'src/components/shell.tsx', 'src/pages/calendar/index.tsx']) expect(SIGN_IN.has(key), key).toBe(false);
  });

  it('neither page carries an HTTP library: calls go through fetch', () => {
    for (const key of new Set([...SIGN_IN, ...HOME])) {
      const code = readFileSync(join(DIST, manifest[key]!.file), 'utf8');
      expect(code.includes('AxiosError'), `${manifest[key]!.file} holds axios`).toBe(false);
    }
  });

  it('every other screen, the lesson forms and the English strings are chunks of their own that the home does not load', () => {
    const screens = Object.keys(manifest).filter((key) => manifest[key]!.isDynamicEntry);
    const expected = [
      'src/pages/mydata.tsx',
      'src/resources/students.tsx',
      'src/resources/teachers.tsx',
      'src/resources/users.tsx',
      'src/resources/tenants.tsx',
      'src/resources/money/contracts.tsx',
      'src/pages/account/index.tsx',
      'src/pages/analytics/index.tsx',
      'src/resources/lessons/index.tsx',
      'src/engine/resource-route.tsx',
      'src/pages/not-found.tsx',
      'src/resources/lessons/lesson-form.tsx',
      'src/resources/lessons/lesson-view.tsx',
      'src/resources/lessons/series-form.tsx',
      'src/pages/calendar/to-be-replaced-list.tsx',
      'src/locales/en.ts',
    ];
    for (const key of expected) {
      expect(screens, `${key} is loaded on demand`).toContain(key);
      expect(HOME.has(key), `${key} is not part of the calendar home`).toBe(false);
    }
  });
});
