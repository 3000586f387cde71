// An amount written out in Greek words, as a receipt states it beside the figure
// ("εκατόν είκοσι ευρώ και πενήντα λεπτά"). Euro and cents are neuter nouns; thousands
// (χιλιάδες) are feminine, so the numbers before them change form (τρεις, διακόσιες).

type Gender = 'neuter' | 'feminine';

const UNITS_NEUTER = ['', 'ένα', 'δύο', 'τρία', 'τέσσερα', 'πέντε', 'έξι', 'επτά', 'οκτώ', 'εννέα'];
const UNITS_FEMININE = ['', 'μία', 'δύο', 'τρεις', 'τέσσερις', 'πέντε', 'έξι', 'επτά', 'οκτώ', 'εννέα'];
const TEENS = ['δέκα', 'έντεκα', 'δώδεκα', 'δεκατρία', 'δεκατέσσερα', 'δεκαπέντε', 'δεκαέξι', 'δεκαεπτά', 'δεκαοκτώ', 'δεκαεννέα'];
const TEENS_FEMININE: Record<number, string> = { 13: 'δεκατρείς', 14: 'δεκατέσσερις' };
const TENS = ['', '', 'είκοσι', 'τριάντα', 'σαράντα', 'πενήντα', 'εξήντα', 'εβδομήντα', 'ογδόντα', 'ενενήντα'];
const HUNDREDS_STEM = ['', '', 'διακόσι', 'τριακόσι', 'τετρακόσι', 'πεντακόσι', 'εξακόσι', 'επτακόσι', 'οκτακόσι', 'εννιακόσι'];

/** 0..999 in words ('' for 0). */
function belowThousand(n: number, gender: Gender): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const parts: string[] = [];
  if (hundreds === 1) parts.push(rest === 0 ? 'εκατό' : 'εκατόν');
  else if (hundreds > 1) parts.push(HUNDREDS_STEM[hundreds] + (gender === 'feminine' ? 'ες' : 'α'));
  if (rest >= 10 && rest < 20) parts.push((gender === 'feminine' && TEENS_FEMININE[rest]) || TEENS[rest - 10]!);
  else if (rest > 0) {
    const tens = Math.floor(rest / 10);
    const units = rest % 10;
    if (tens) parts.push(TENS[tens]!);
    if (units) parts.push((gender === 'feminine' ? UNITS_FEMININE : UNITS_NEUTER)[units]!);
  }
  return parts.join(' ');
}

/** A whole number (0..999,999,999) in words, in the gender of the noun it counts. */
export function numberInWords(n: number, gender: Gender = 'neuter'): string {
  if (!Number.isInteger(n) || n < 0 || n >= 1_000_000_000) return String(n);
  if (n === 0) return 'μηδέν';
  const millions = Math.floor(n / 1_000_000);
  const thousands = Math.floor((n % 1_000_000) / 1000);
  const rest = n % 1000;
  const parts: string[] = [];
  if (millions === 1) parts.push('ένα εκατομμύριο');
  else if (millions > 1) parts.push(`${belowThousand(millions, 'neuter')} εκατομμύρια`);
  if (thousands === 1) parts.push('χίλια');
  else if (thousands > 1) parts.push(`${belowThousand(thousands, 'feminine')} χιλιάδες`);
  if (rest) parts.push(belowThousand(rest, gender));
  return parts.join(' ');
}

/** Integer euro cents in Greek words: 12050 -> "εκατόν είκοσι ευρώ και πενήντα λεπτά". */
export function euroInWords(cents: number): string {
  if (!Number.isInteger(cents)) return '';
  const sign = cents < 0 ? 'μείον ' : '';
  const abs = Math.abs(cents);
  const euros = Math.floor(abs / 100);
  const rest = abs % 100;
  const euroText = `${numberInWords(euros)} ευρώ`;
  if (rest === 0) return sign + euroText;
  const centText = `${numberInWords(rest)} ${rest === 1 ? 'λεπτό' : 'λεπτά'}`;
  return sign + (euros === 0 ? centText : `${euroText} και ${centText}`);
}
