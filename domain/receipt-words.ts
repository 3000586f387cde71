/**
 * The Greek wording of a receipt (docs/rules.md, Receipts): a fiscal document is written in
 * Greek whatever the reader's language, so these are data, not locale strings. The month a
 * fee pays for is in the genitive ("Δίδακτρα Οκτωβρίου"); an amount is also said in words
 * ("εκατόν είκοσι ευρώ και πενήντα λεπτά").
 */

/** January..December in the genitive, as "Δίδακτρα <month>" needs them. */
export const GREEK_MONTHS_GENITIVE = [
  'Ιανουαρίου',
  'Φεβρουαρίου',
  'Μαρτίου',
  'Απριλίου',
  'Μαΐου',
  'Ιουνίου',
  'Ιουλίου',
  'Αυγούστου',
  'Σεπτεμβρίου',
  'Οκτωβρίου',
  'Νοεμβρίου',
  'Δεκεμβρίου',
] as const;

/** The line every receipt of a tutoring centre carries (exempt from VAT). */
export const VAT_EXEMPTION_LINE = 'Απαλλάσσεται από ΦΠΑ (άρθρο 22 Κώδικα ΦΠΑ)';

/** What a receipt pays for when its lines say nothing more. */
export const FEES_LINE_TEXT = 'Δίδακτρα';

/** The line of a credit receipt that names the receipt it cancels: "Ακυρωτικό της απόδειξης Α-12". */
export function creditLineText(cancelledBillNumber: string): string {
  return `Ακυρωτικό της απόδειξης ${cancelledBillNumber}`;
}

/** "2026-10" -> "Οκτωβρίου 2026". */
export function monthGenitive(month: string): string {
  const [year, m] = month.split('-');
  const name = GREEK_MONTHS_GENITIVE[Number(m) - 1];
  if (!name || !year) throw new RangeError(`not a YYYY-MM month: ${month}`);
  return `${name} ${year}`;
}

/** What a payment pays for, as its receipt's line says it. */
export function paymentLineText(kind: string, month: string | null | undefined, description?: string | null): string {
  if (kind === 'MONTHLY' && month) return `Δίδακτρα ${monthGenitive(month)}`;
  if (kind === 'REGISTER') return 'Εγγραφή';
  const extra = description?.trim();
  return extra ? `Πρόσθετη χρέωση: ${extra}` : 'Πρόσθετη χρέωση';
}

type Gender = 'n' | 'f';

const UNITS: Record<Gender, string[]> = {
  n: ['', 'ένα', 'δύο', 'τρία', 'τέσσερα', 'πέντε', 'έξι', 'επτά', 'οκτώ', 'εννέα'],
  f: ['', 'μία', 'δύο', 'τρεις', 'τέσσερις', 'πέντε', 'έξι', 'επτά', 'οκτώ', 'εννέα'],
};
const TEENS: Record<Gender, string[]> = {
  n: ['δέκα', 'έντεκα', 'δώδεκα', 'δεκατρία', 'δεκατέσσερα', 'δεκαπέντε', 'δεκαέξι', 'δεκαεπτά', 'δεκαοκτώ', 'δεκαεννέα'],
  f: ['δέκα', 'έντεκα', 'δώδεκα', 'δεκατρείς', 'δεκατέσσερις', 'δεκαπέντε', 'δεκαέξι', 'δεκαεπτά', 'δεκαοκτώ', 'δεκαεννέα'],
};
const TENS = ['', '', 'είκοσι', 'τριάντα', 'σαράντα', 'πενήντα', 'εξήντα', 'εβδομήντα', 'ογδόντα', 'ενενήντα'];
const HUNDREDS_STEM = ['', '', 'διακόσι', 'τριακόσι', 'τετρακόσι', 'πεντακόσι', 'εξακόσι', 'επτακόσι', 'οκτακόσι', 'εννιακόσι'];

/** 1..999 in words, neuter (ευρώ, λεπτά, εκατομμύρια) or feminine (χιλιάδες). */
function belowThousand(n: number, gender: Gender): string {
  const h = Math.floor(n / 100);
  const rest = n % 100;
  const parts: string[] = [];
  if (h === 1) parts.push(rest ? 'εκατόν' : 'εκατό');
  else if (h > 1) parts.push(HUNDREDS_STEM[h] + (gender === 'f' ? 'ες' : 'α'));
  if (rest >= 10 && rest < 20) parts.push(TEENS[gender][rest - 10]!);
  else {
    const t = Math.floor(rest / 10);
    const u = rest % 10;
    if (t) parts.push(TENS[t]!);
    if (u) parts.push(UNITS[gender][u]!);
  }
  return parts.join(' ');
}

/** A whole number in Greek words (neuter): 0 -> "μηδέν", 1000 -> "χίλια", 2500 -> "δύο χιλιάδες πεντακόσια". */
export function greekNumberWords(value: number): string {
  if (!Number.isInteger(value) || value < 0 || value >= 1e12) throw new RangeError(`cannot say ${value} in words`);
  if (value === 0) return 'μηδέν';
  const billions = Math.floor(value / 1e9);
  const millions = Math.floor((value % 1e9) / 1e6);
  const thousands = Math.floor((value % 1e6) / 1000);
  const rest = value % 1000;
  const parts: string[] = [];
  if (billions) parts.push(billions === 1 ? 'ένα δισεκατομμύριο' : `${belowThousand(billions, 'n')} δισεκατομμύρια`);
  if (millions) parts.push(millions === 1 ? 'ένα εκατομμύριο' : `${belowThousand(millions, 'n')} εκατομμύρια`);
  if (thousands) parts.push(thousands === 1 ? 'χίλια' : `${belowThousand(thousands, 'f')} χιλιάδες`);
  if (rest) parts.push(belowThousand(rest, 'n'));
  return parts.join(' ');
}

/** Cents in words: 12050 -> "εκατόν είκοσι ευρώ και πενήντα λεπτά"; 100 -> "ένα ευρώ"; 1 -> "ένα λεπτό". */
export function amountInWords(cents: number): string {
  if (!Number.isInteger(cents)) throw new RangeError(`not cents: ${cents}`);
  const abs = Math.abs(cents);
  const euros = Math.floor(abs / 100);
  const rest = abs % 100;
  const sign = cents < 0 ? 'μείον ' : '';
  const euroWords = `${greekNumberWords(euros)} ευρώ`;
  if (!rest) return sign + euroWords;
  const centWords = rest === 1 ? 'ένα λεπτό' : `${greekNumberWords(rest)} λεπτά`;
  return sign + (euros ? `${euroWords} και ${centWords}` : centWords);
}
