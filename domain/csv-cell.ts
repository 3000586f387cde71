/**
 * One place that keeps a spreadsheet from running what a cell holds (OWASP, CSV injection):
 * text starting with = + - @, a tab or a carriage return is given a leading single quote, so a
 * guardian who types `=HYPERLINK(...)` as her address plants nothing in the office's sheet. A
 * real number keeps its sign and stays a number (-5, -12,50, +30 210 1234567: digits, spaces,
 * parentheses, points and commas only after the sign). Every CSV the product writes (the
 * centre's archive, list downloads) and the accountant's spreadsheets pass their text through it.
 */
export function safeCell(text: string): string {
  if (/^[=@\t\r]/.test(text)) return `'${text}`;
  if (/^[+-]/.test(text) && !/^[+-]\d[\d\s().,]*$/.test(text)) return `'${text}`;
  return text;
}
