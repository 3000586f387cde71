// CSV for export (what a spreadsheet opens) and import (what staff bring from elsewhere).
// Pure functions; the download and the file reading live in the components. Reading is
// papaparse's: quoting, line ends and malformed files are its well-trodden ground.
import Papa from 'papaparse';

/** Cells a spreadsheet would run as a formula are prefixed with ' (but not numbers like -5 or +30 210...). */
function neutralised(cell: string): string {
  if (/^[=@\t\r]/.test(cell)) return `'${cell}`;
  if (/^[+-]/.test(cell) && !/^[+-][\d\s().,-]*$/.test(cell)) return `'${cell}`;
  return cell;
}

function quoted(cell: string): string {
  const safe = neutralised(cell);
  return /[",;\r\n]|^\s|\s$/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** RFC 4180 text with a UTF-8 byte-order mark (so Excel reads Greek) and CRLF line ends. */
export function buildCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const lines = [header, ...rows].map((row) => row.map((cell) => quoted(cell ?? '')).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** The delimiter of the first line: comma, semicolon (Greek Excel) or tab. */
export function detectDelimiter(text: string): string {
  const first = text.split(/\r?\n/, 1)[0] ?? '';
  const counts = [',', ';', '\t'].map((d) => [d, first.split(d).length - 1] as const);
  return counts.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
}

/** Parses CSV text (quotes, doubled quotes, CRLF or LF, BOM) into rows of cells; blank lines are dropped. */
export function parseCsv(text: string, delimiter = detectDelimiter(text)): string[][] {
  const { data } = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { delimiter });
  // Papaparse takes the file's first line break for all; a file mixing CRLF and LF leaves
  // the other kind at the end of a line's last cell.
  const rows = data.map((r) => (r.length ? [...r.slice(0, -1), r[r.length - 1]!.replace(/[\r\n]+$/, '')] : r));
  return rows.filter((r) => r.some((c) => c.trim() !== ''));
}
