/**
 * What every e-mail to a family shares (docs/rules.md, Messages to families): the greeting,
 * the centre's signature and the HTML part made from the text part.
 *
 * The greeting names her by her surname in the vocative when her relation tells whether she
 * is a woman or a man (MOTHER: "Αγαπητή κυρία Αντωνίου", FATHER: "Αγαπητέ κύριε Παππά");
 * where it does not (GUARDIAN, OTHER) it is "Καλησπέρα σας,", since a guessed "κύριε" to a
 * woman, or a "Αγαπητέ/ή κύριε/κυρία" that does not know, reads worse than no name at all.
 * The signature is the centre's name as families know it (the centre's own name, the one the
 * app shows), never the legal name that receipts carry.
 */
import type { Language } from '../../../domain/index';

export interface Addressee {
  last_name: string;
  relation: string | null;
}

/** Masculine endings and their vocative (a feminine surname does not change). */
const VOCATIVE: [RegExp, string][] = [
  [/ος$/u, 'ε'],
  [/ός$/u, 'έ'],
  [/ΟΣ$/u, 'Ε'],
  [/ΌΣ$/u, 'Έ'],
  [/([ηήαάΗΉΑΆ])[ςΣ]$/u, '$1'],
];

/** A man's surname in the vocative, word by word: Παπαδόπουλος → Παπαδόπουλε, Παππάς → Παππά, Νικολαΐδης → Νικολαΐδη. */
export function vocativeSurname(surname: string): string {
  return surname
    .trim()
    .split(/(\s+|-)/u)
    .map((word) => {
      for (const [ending, replacement] of VOCATIVE) if (ending.test(word)) return word.replace(ending, replacement);
      return word;
    })
    .join('');
}

/** The letter's first line, in her language. */
export function greeting(to: Addressee, language: Language): string {
  const surname = to.last_name.trim();
  if (language === 'en') {
    if (to.relation === 'MOTHER') return `Dear Ms ${surname},`;
    if (to.relation === 'FATHER') return `Dear Mr ${surname},`;
    return 'Hello,';
  }
  if (to.relation === 'MOTHER') return `Αγαπητή κυρία ${surname},`;
  if (to.relation === 'FATHER') return `Αγαπητέ κύριε ${vocativeSurname(surname)},`;
  return 'Καλησπέρα σας,';
}

/** The closing lines: a courtesy and the centre's name. */
export const signature = (centre: string, language: Language) => (language === 'en' ? ['Kind regards,', centre] : ['Με εκτίμηση,', centre]);

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A line's text, escaped, its web links made links. */
function inline(line: string): string {
  const out: string[] = [];
  let last = 0;
  for (const match of line.matchAll(/https?:\/\/[^\s<>"']+/g)) {
    out.push(escapeHtml(line.slice(last, match.index)));
    const url = escapeHtml(match[0]);
    out.push(`<a href="${url}">${url}</a>`);
    last = match.index + match[0].length;
  }
  out.push(escapeHtml(line.slice(last)));
  return out.join('');
}

/** A list item of the text part: a line that starts with a dash. */
const ITEM = /^[–-]\s+/u;

/**
 * The HTML part of an e-mail, made from its text part so the two always say the same: a blank
 * line parts paragraphs, lines that start with "– " are a list, every character of the text
 * (names are what people typed) is escaped, links are links.
 */
export function letterHtml(text: string, title = '', language: Language = /[\u0370-\u03ff]/u.test(text) ? 'el' : 'en'): string {
  const blocks: string[] = [];
  for (const paragraph of text.replace(/\r\n/g, '\n').split(/\n{2,}/)) {
    const lines = paragraph.split('\n').filter((line) => line.trim() !== '');
    let plain: string[] = [];
    let items: string[] = [];
    const flush = () => {
      if (plain.length) blocks.push(`<p>${plain.join('<br>\n')}</p>`);
      if (items.length) blocks.push(`<ul>\n${items.map((item) => `<li>${item}</li>`).join('\n')}\n</ul>`);
      plain = [];
      items = [];
    };
    for (const line of lines) {
      if (ITEM.test(line)) {
        if (plain.length) flush();
        items.push(inline(line.replace(ITEM, '')));
      } else {
        if (items.length) flush();
        plain.push(inline(line));
      }
    }
    flush();
  }
  return [
    '<!doctype html>',
    `<html lang="${language}">`,
    `<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>`,
    '<body style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #222">',
    ...blocks,
    '</body>',
    '</html>',
  ].join('\n');
}

/** The two parts nodemailer sends (the language, where not given, is Greek when the text is). */
export const mailParts = (subject: string, text: string, language?: Language) => ({ text, html: letterHtml(text, subject, language) });
