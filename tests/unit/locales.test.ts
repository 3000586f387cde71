import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// el/ and en/ must hold exactly the same keys, file by file.
const root = join(__dirname, '../../src/locales');

function keys(tree: unknown, prefix = ''): string[] {
  if (typeof tree !== 'object' || tree === null) return [prefix];
  return Object.entries(tree).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

const read = (language: string, file: string) => JSON.parse(readFileSync(join(root, language, file), 'utf8')) as unknown;

describe('translations', () => {
  it('el and en have the same files', () => {
    expect(readdirSync(join(root, 'en')).sort()).toEqual(readdirSync(join(root, 'el')).sort());
  });

  for (const file of readdirSync(join(root, 'el'))) {
    it(`${file}: el and en have the same keys and no empty text`, () => {
      const el = keys(read('el', file));
      const en = keys(read('en', file));
      expect(en.sort()).toEqual(el.sort());
      for (const language of ['el', 'en']) {
        const flat = JSON.stringify(read(language, file));
        expect(flat.includes('""'), `${language}/${file} has an empty string`).toBe(false);
      }
    });
  }
});
