/**
 * How many SMS segments a text takes, as the networks count them: a text of the GSM 03.38
 * alphabet goes 7 bits a character (160 in one segment, 153 a part when split; the extension
 * characters take two), anything else as UCS-2 (70 in one, 67 a part). Greek lower case is not
 * in GSM-7, so a Greek notice is UCS-2. `fitSms` cuts a text to a number of segments, keeping
 * a link whole at its end.
 */

const GSM_BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '^{}\\[~]|€\f';
const BASIC = new Set(GSM_BASIC);
const EXTENSION = new Set(GSM_EXTENSION);

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SegmentCount {
  encoding: SmsEncoding;
  /** Units of the encoding: septets for GSM-7, UTF-16 code units for UCS-2. */
  units: number;
  segments: number;
}

const LIMITS: Record<SmsEncoding, { single: number; part: number }> = { 'GSM-7': { single: 160, part: 153 }, 'UCS-2': { single: 70, part: 67 } };

export const encodingOf = (text: string): SmsEncoding => ([...text].every((c) => BASIC.has(c) || EXTENSION.has(c)) ? 'GSM-7' : 'UCS-2');

const unitsOf = (text: string, encoding: SmsEncoding) => (encoding === 'UCS-2' ? text.length : [...text].reduce((n, c) => n + (EXTENSION.has(c) ? 2 : 1), 0));

export function countSegments(text: string): SegmentCount {
  const encoding = encodingOf(text);
  const units = unitsOf(text, encoding);
  const { single, part } = LIMITS[encoding];
  return { encoding, units, segments: units === 0 ? 0 : units <= single ? 1 : Math.ceil(units / part) };
}

/**
 * The text cut to fit in `segments` segments, with `link` (when given) kept whole after it:
 * the text is cut at a word where it can be and ends with "…". A text that fits is left as it is.
 */
export function fitSms(text: string, segments: number, link?: string): string {
  const whole = link ? `${text} ${link}` : text;
  if (countSegments(whole).segments <= segments) return whole;
  const tail = link ? `… ${link}` : '…';
  let cut = text;
  while (cut.length > 0 && countSegments(`${cut}${tail}`).segments > segments) {
    const space = cut.lastIndexOf(' ', cut.length - 1);
    // At a word while words are long enough to matter; a character at a time otherwise.
    cut = space > cut.length - 12 && space > 0 ? cut.slice(0, space) : cut.slice(0, -1);
    cut = cut.trimEnd();
  }
  return `${cut}${tail}`;
}
