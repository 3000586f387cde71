// Text folding: case- and accent-insensitive for Greek and Latin scripts, so that
// "παπαδοπουλος" finds "Παπαδόπουλος" and "άλφα" sorts beside "Άλφα". The server stores this
// form beside searchable fields, and sorts text by its one-character-per-character twin below.
export function normalizeSearch(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ς/g, 'σ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Letters a sort key folds: Greek first (the database looks each character up in order),
 * then Basic Latin capitals, Latin-1 and Latin Extended-A.
 */
const SORT_RANGES: readonly [number, number][] = [
  [0x370, 0x3ff],
  [0x41, 0x5a],
  [0xc0, 0x17f],
];

/**
 * normalizeSearch as a per-character table (`from[i]` becomes `to[i]`), for databases that
 * must sort without an ICU collation (the embedded one has none for Greek): SQL's
 * translate(text, from, to) under the "C" collation then orders exactly as these folded
 * strings compare by code point, on every engine. Greek letters stand in alphabetical order
 * in Unicode once accents, case and the final sigma are gone.
 */
export const SORT_FOLDING: { from: string; to: string } = (() => {
  let from = '';
  let to = '';
  for (const [first, last] of SORT_RANGES) {
    for (let code = first; code <= last; code++) {
      const ch = String.fromCodePoint(code);
      const folded = normalizeSearch(ch);
      if (/\p{L}/u.test(ch) && folded.length === 1 && folded !== ch) {
        from += ch;
        to += folded;
      }
    }
  }
  return { from, to };
})();

/** What SORT_FOLDING does to a string: the key text is sorted by (code point order). */
export function sortKey(value: string): string {
  let out = '';
  for (const ch of value) {
    const i = SORT_FOLDING.from.indexOf(ch);
    out += i < 0 ? ch : SORT_FOLDING.to[i];
  }
  return out;
}
