/**
 * One sheet as an XLSX workbook (exceljs): a bold, frozen header row; amounts as numbers in
 * euro with the euro format (Excel shows 1.234,56 € in a Greek locale), dates as dates
 * (dd/mm/yyyy), counts as integers, text as text; a totals row sums the amounts.
 */
import ExcelJS from 'exceljs';
import { type Language, safeCell } from '../../../domain/index';
import { type Cell, type Column, headerOf, valueOf } from './sheets';

export const EURO_FORMAT = '#,##0.00 "€";-#,##0.00 "€"';
export const DATE_FORMAT = 'dd/mm/yyyy';

const dateOf = (iso: string) => new Date(Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10))));

export async function workbookOf(title: string, columns: Column[], rows: Cell[][], language: Language): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Frontis';
  workbook.created = new Date();
  const sheet = workbook.addWorksheet(title.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c, i) => ({
    header: headerOf(c.key, language),
    key: String(i),
    width: c.width,
    style: c.type === 'money' ? { numFmt: EURO_FORMAT } : c.type === 'date' ? { numFmt: DATE_FORMAT } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) {
    sheet.addRow(
      columns.map((c, i) => {
        const value = row[i];
        if (value === null || value === undefined || value === '') return null;
        switch (c.type) {
          case 'money':
            return Number(value) / 100;
          case 'integer':
            return Number(value);
          case 'date':
            return dateOf(String(value));
          default:
            // text a spreadsheet would run as a formula is neutralised (safeCell)
            return c.enumValues ? valueOf(String(value), language) : safeCell(String(value));
        }
      }),
    );
  }
  if (rows.length && columns.some((c) => c.type === 'money')) {
    const total = sheet.addRow(
      columns.map((c, i) => {
        if (c.type !== 'money') return null;
        const sum = rows.reduce((s, r) => s + (r[i] === null || r[i] === undefined ? 0 : Number(r[i])), 0);
        return sum / 100;
      }),
    );
    total.font = { bold: true };
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
