// CSV for export (what a spreadsheet opens) and import (what staff bring from elsewhere).
// Pure functions; the download and the file reading live in the components.

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
  const source = text.replace(/^\uFEFF/, '');
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let inQuotes = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (inQuotes) {
      if (ch === '"') {
        if (source[i + 1] === '"') {
          cell += '"';
          i++;
        } else inQuotes = false;
      } else cell += ch;
    } else if (ch === '"' && cell === '') inQuotes = true;
    else if (ch === delimiter) {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && source[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows.filter((r) => r.some((c) => c.trim() !== ''));
}
