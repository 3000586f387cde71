// A screen fetched ahead (the sign-in page fetches the calendar home while the user types)
// is drawn at once when it is first used, instead of behind a loading fallback.
import { createElement, Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { expect, it } from 'vitest';
import { lazyPart } from '../../src/lazy';

const Greeting = ({ name }: { name: string }) => createElement('b', null, `Καλώς ήρθες, ${name}`);

const draw = (part: ReturnType<typeof lazyPart<typeof Greeting>>) =>
  renderToString(createElement(Suspense, { fallback: createElement('i', null, 'Φόρτωση…') }, createElement(part, { name: 'Ελένη' })));

it('a part not yet fetched shows the loading fallback; once fetched ahead it is drawn at once, with its props', async () => {
  let loads = 0;
  const part = lazyPart(async () => {
    loads++;
    return { default: Greeting };
  });
  expect(draw(part)).toContain('Φόρτωση…');

  const ahead = lazyPart(async () => ({ default: Greeting }));
  expect(ahead.loaded()).toBe(false);
  await ahead.preload();
  expect(ahead.loaded()).toBe(true);
  const html = draw(ahead);
  expect(html).toContain('Καλώς ήρθες, Ελένη');
  expect(html).not.toContain('Φόρτωση…');
  expect(loads).toBe(1);
});

it('a part that fails to fetch ahead is left to its first use (no error escapes the preload)', async () => {
  const broken = lazyPart<typeof Greeting>(() => Promise.reject(new Error('chunk gone')));
  await expect(broken.preload()).resolves.toBeUndefined();
  expect(broken.loaded()).toBe(false);
  expect(draw(broken)).toContain('Φόρτωση…');
});
