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

/** One character folded as normalizeSearch folds it (a character it would drop stays itself). */
function foldChar(ch: string): string {
  const folded = ch
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ς/g, 'σ');
  return folded.length === 1 ? folded : ch;
}

/**
 * The database looks each character up in `from` from the start, and a character absent
 * from it costs a walk through all of it: so the table opens with the characters names are
 * mostly made of (mapped to themselves), and holds few others.
 */
const FREQUENT = 'αοιετσνηυρπκμλάέίόήύώωγδθχφβξζψς eaionrtslcudpmhgbfywkvxzjq-.0123456789@_';
/** Capitals and accented letters: Greek, Basic Latin, Latin-1. */
const FOLDED_RANGES: readonly [number, number][] = [
  [0x386, 0x3ce],
  [0x41, 0x5a],
  [0xc0, 0xff],
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
  const add = (ch: string) => {
    if (from.includes(ch)) return;
    from += ch;
    to += foldChar(ch);
  };
  for (const ch of FREQUENT) add(ch);
  for (const [first, last] of FOLDED_RANGES) {
    for (let code = first; code <= last; code++) {
      const ch = String.fromCodePoint(code);
      if (/\p{L}/u.test(ch) && foldChar(ch) !== ch) add(ch);
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
