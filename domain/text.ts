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

/**
 * Characters that make text say something other than what it shows: C0 and C1 controls and
 * DEL (multi-line text keeps tabs and line breaks), the bidirectional embeddings, overrides and
 * isolates (U+202A–U+202E, U+2066–U+2069: `invoice‮fdp.exe` shows as a PDF), and in one-line
 * text also the direction marks (U+200E, U+200F, U+061C), which a name never needs.
 */
export function hasDeceptiveCharacter(value: string, multiLine = false): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20) {
      if (multiLine && (c === 0x09 || c === 0x0a || c === 0x0d)) continue;
      return true;
    }
    if (c >= 0x7f && c <= 0x9f) return true;
    if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) return true;
    if (!multiLine && (c === 0x200e || c === 0x200f || c === 0x061c)) return true;
  }
  return false;
}
