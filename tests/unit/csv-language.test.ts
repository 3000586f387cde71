// CSV exports a spreadsheet opens as numbers in the reader's language: Greek Excel splits on ';'
// and reads a decimal comma (1335,00), English Excel splits on ',' and reads a point.
import { describe, expect, it } from 'vitest';
import { defineResource } from '../../domain/fields';
import { buildCsv, csvDelimiter, csvNumber, parseCsv } from '../../src/engine/list/csv';
import { csvCell, resourceCsvColumns } from '../../src/engine/list/export-csv';

const t = (key: string, options?: Record<string, unknown>) => String(options?.defaultValue ?? key);
const DEF = defineResource({
  name: 'things',
  area: 'payments',
  fields: [
    { name: 'title', type: 'TEXT' },
    { name: 'amount', type: 'MONEY' },
    { name: 'hours', type: 'NUMBER' },
  ],
  defaultSort: [{ field: 'id', order: 'asc' }],
  screen: { route: '/things/', entity: 'thing', modes: ['view'] },
});

describe('CSV in the reader’s language', () => {
  it('Greek: semicolons, amounts in euro with a decimal comma and no € or grouping', () => {
    const columns = resourceCsvColumns(t, DEF);
    const rows = [
      { id: 1, title: 'Δίδακτρα; Οκτωβρίου', amount: 133_500, hours: 1.5 },
      { id: 2, title: 'Εγγραφή', amount: -1, hours: null },
    ];
    const csv = buildCsv(
      columns.map((c) => c.header),
      rows.map((row) => columns.map((c) => csvCell(c, row, 'el'))),
      csvDelimiter('el'),
    );
    expect(csv).toBe('\uFEFFid;title;amount;hours\r\n1;"Δίδακτρα; Οκτωβρίου";1335,00;1,5\r\n2;Εγγραφή;-0,01;\r\n');
    expect(parseCsv(csv)[1]).toEqual(['1', 'Δίδακτρα; Οκτωβρίου', '1335,00', '1,5']);
  });

  it('English: commas and a decimal point', () => {
    const columns = resourceCsvColumns(t, DEF);
    const row = { id: 1, title: 'Fees, October', amount: 133_500, hours: 2 };
    const csv = buildCsv(
      columns.map((c) => c.header),
      [columns.map((c) => csvCell(c, row, 'en'))],
      csvDelimiter('en'),
    );
    expect(csv).toBe('\uFEFFid,title,amount,hours\r\n1,"Fees, October",1335.00,2\r\n');
    expect(csvNumber(0.5, 'en-GB', 2)).toBe('0.50');
    expect(csvNumber(0.5, 'el-GR', 2)).toBe('0,50');
  });
});
