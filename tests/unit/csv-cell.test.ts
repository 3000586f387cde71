// The one rule every CSV cell and spreadsheet text of the product passes through (domain/csv-cell.ts):
// what a spreadsheet would run is neutralised with a leading quote, a real number keeps its sign.
import { describe, expect, it } from 'vitest';
import { safeCell } from '../../domain/csv-cell';

describe('safeCell', () => {
  it('neutralises text starting with = + - @, a tab or a carriage return', () => {
    for (const text of ['=HYPERLINK("http://evil.example","x")', '+cmd|/C calc', '-2+3', '-2-3', '@SUM(A1)', '\t=1', '\r=1', '-A1', '+SUM(1)']) {
      expect(safeCell(text), JSON.stringify(text)).toBe(`'${text}`);
    }
  });

  it('keeps real numbers, phone numbers and ordinary text as they are', () => {
    for (const text of ['-5', '-12,50', '-1234.5', '+30 210 1234567', '+30 (210) 123', '12050', 'Ανθέων 12', 'a=b', '', "'quoted"]) {
      expect(safeCell(text), JSON.stringify(text)).toBe(text);
    }
  });
});
