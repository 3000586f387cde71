// CSV for export (what a spreadsheet opens) and import (what staff bring from elsewhere),
// read and written by papaparse. Pure functions; the download and the file reading live in
// the components.
import Papa from 'papaparse';
import { safeCell } from '../../../domain/csv-cell';

/**
 * Beyond what papaparse quotes by itself (commas, quotes, line breaks, edge spaces): the
 * semicolon, which Greek Excel reads as the delimiter, and any edge whitespace such as a tab.
 */
const mustQuote = (value: unknown) => /[;]|^\s|\s$/.test(String(value));

/**
 * The separator a spreadsheet in this language splits on: Greek Excel (decimal comma) splits
 * on `;`, English on `,`.
 */
export const csvDelimiter = (language: string): ',' | ';' => (language.toLowerCase().startsWith('el') ? ';' : ',');

/**
 * A number as a spreadsheet in this language reads it as a number: no grouping, no currency,
 * the decimal comma in Greek (1335,5), the point in English (1335.5). Money is given in euro.
 */
export function csvNumber(value: number, language: string, decimals?: number): string {
  const text = decimals === undefined ? String(value) : value.toFixed(decimals);
  return csvDelimiter(language) === ';' ? text.replace('.', ',') : text;
}

/** RFC 4180 text with a UTF-8 byte-order mark (so Excel reads Greek) and CRLF line ends; `,` unless told `;`. */
export function buildCsv(header: readonly string[], rows: readonly (readonly string[])[], delimiter: ',' | ';' = ','): string {
  const data = [header, ...rows].map((row) => row.map((cell) => safeCell(cell ?? '')));
  return `\uFEFF${Papa.unparse(data, { delimiter, newline: '\r\n', quotes: mustQuote, escapeFormulae: false })}\r\n`;
}

/** The delimiter of the first line: comma, semicolon (Greek Excel) or tab. */
export function detectDelimiter(text: string): string {
  const first = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const counts = [',', ';', '\t'].map((d) => [d, first.split(d).length - 1] as const);
  return counts.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
}

/**
 * Parses CSV text (quotes, doubled quotes, CRLF or LF, BOM) into rows of cells; blank lines
 * are dropped. Line ends become LF first, so a file mixing CRLF and LF (hand-edited exports)
 * reads as one; a line break inside a quoted cell is LF too.
 */
export function parseCsv(text: string, delimiter = detectDelimiter(text)): string[][] {
  const source = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const result = Papa.parse<string[]>(source, { delimiter, newline: '\n', skipEmptyLines: 'greedy' });
  return result.data;
}
