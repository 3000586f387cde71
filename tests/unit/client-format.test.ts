import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldDef } from '../../domain/fields';
import { buildCsv, detectDelimiter, parseCsv } from '../../src/engine/list/csv';
import { fieldText, formatDate, formatMoney, labelKeyOf, parseDate, parseEuro, valueText } from '../../src/engine/fields/format';

// The client's pure helpers: what a cell says, what a CSV holds.
const t = (key: string, options?: Record<string, unknown>) => (options?.defaultValue as string | undefined) ?? key;

describe('money', () => {
  it('shows integer cents as euro in the Greek format', () => {
    expect(formatMoney(123456)).toBe('1.234,56 €');
    expect(formatMoney(0)).toBe('0,00 €');
    expect(formatMoney(5)).toBe('0,05 €');
    expect(formatMoney(100)).toBe('1,00 €');
    expect(formatMoney(-250)).toBe('-2,50 €');
    expect(formatMoney(123456789)).toBe('1.234.567,89 €');
    expect(formatMoney(null)).toBe('');
  });

  it('reads what people type back into cents', () => {
    expect(parseEuro('12,5')).toBe(1250);
    expect(parseEuro('1.234,56 €')).toBe(123456);
    expect(parseEuro('12.50')).toBe(1250);
    expect(parseEuro('abc')).toBeUndefined();
    expect(parseEuro('')).toBeUndefined();
  });

  it('round-trips any amount', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 100_000_000 }), (cents) => parseEuro(formatMoney(cents)) === cents));
  });
});

describe('dates', () => {
  it('shows and reads DD/MM/YYYY', () => {
    expect(formatDate('2026-03-07')).toBe('07/03/2026');
    expect(parseDate('07/03/2026')).toBe('2026-03-07');
    expect(parseDate('7/3/2026')).toBe('2026-03-07');
    expect(parseDate('2026-03-07')).toBe('2026-03-07');
    expect(parseDate('31/02/2026')).toBeUndefined();
    expect(parseDate('tomorrow')).toBeUndefined();
  });
});

describe('cell text', () => {
  const row = {
    category_id: 3,
    category: { id: 3, name: 'Λύκειο' },
    teacher_id: 4,
    teacher: { id: 4, name: null, deleted: true },
    class_ids: [1, 2],
    classes: [
      { id: 1, name: 'Α1' },
      { id: 2, name: 'Β2' },
    ],
    fee: 150000,
    status: 'INACTIVE',
    paid: true,
  };
  const f = (name: string, type: FieldDef['type'], extra: Partial<FieldDef> = {}): FieldDef => ({ name, type, ...extra });

  it('names references from their label objects, a deleted teacher as such', () => {
    expect(labelKeyOf(f('class_ids', 'REFERENCES'))).toBe('classes');
    expect(labelKeyOf(f('subject_ids', 'REFERENCES'))).toBe('subjects');
    expect(labelKeyOf(f('category_id', 'REFERENCE'))).toBe('category');
    expect(fieldText(t, f('category_id', 'REFERENCE', { reference: 'class-categories' }), row)).toBe('Λύκειο');
    expect(fieldText(t, f('teacher_id', 'REFERENCE', { reference: 'teachers' }), row)).toBe('directory.deletedTeacher');
    expect(fieldText(t, f('class_ids', 'REFERENCES', { reference: 'classes' }), row)).toBe('Α1, Β2');
  });

  it('formats money, enums and booleans as displayed', () => {
    expect(fieldText(t, f('fee', 'MONEY'), row)).toBe('1.500,00 €');
    expect(fieldText(t, f('status', 'ENUM'), row)).toBe('INACTIVE');
    expect(valueText((k) => k, f('paid', 'BOOLEAN'), true)).toBe('buttons.yes');
    expect(valueText(t, f('when', 'DATE'), '2026-01-02')).toBe('02/01/2026');
  });
});

describe('CSV', () => {
  it('quotes what needs quoting, marks UTF-8 and ends lines with CRLF', () => {
    const csv = buildCsv(
      ['Όνομα', 'Ποσό'],
      [
        ['Παπαδόπουλος, Γ.', '1.234,56 €'],
        ['Λέει "γεια"', ''],
      ],
    );
    expect(csv).toBe('\uFEFFΌνομα,Ποσό\r\n"Παπαδόπουλος, Γ.","1.234,56 €"\r\n"Λέει ""γεια""",\r\n');
  });

  it('keeps a spreadsheet from running formulas, but not phone numbers', () => {
    expect(buildCsv(['a'], [['=HYPERLINK("x")']])).toContain(`"'=HYPERLINK(""x"")"`);
    expect(buildCsv(['a'], [['+30 210 1234567']])).toContain('\r\n+30 210 1234567\r\n');
    expect(buildCsv(['a'], [['-5']])).toContain('\r\n-5\r\n');
    expect(buildCsv(['a'], [['@cmd']])).toContain("'@cmd");
    const cells = parseCsv(buildCsv(['a', 'b', 'c', 'd'], [['\tx', '\rcmd', '+SUM(A1)', '-2+3']]), ',');
    expect(cells[1]).toEqual(["'\tx", "'\ncmd", "'+SUM(A1)", "'-2+3"]);
  });

  it('quotes semicolons, which Greek Excel reads as the delimiter', () => {
    expect(buildCsv(['a'], [['Α; Β']])).toBe('\uFEFFa\r\n"Α; Β"\r\n');
    expect(parseCsv(buildCsv(['a', 'b'], [['Α; Β', 'Γ']]))).toEqual([
      ['a', 'b'],
      ['Α; Β', 'Γ'],
    ]);
  });

  it('reads back what it writes', () => {
    const cells = fc.array(
      fc.array(
        fc.string({ maxLength: 12 }).filter((s) => !/^[=@+\-\t\r]/.test(s)),
        { minLength: 2, maxLength: 2 },
      ),
      { maxLength: 5 },
    );
    fc.assert(
      fc.property(cells, (rows) => {
        const header = ['x', 'y'];
        const parsed = parseCsv(buildCsv(header, rows), ',');
        const kept = rows.filter((r) => r.some((c) => c.trim() !== ''));
        expect(parsed).toEqual([header, ...kept]);
      }),
    );
  });

  it('reads semicolon files (Greek Excel) with quoted line breaks', () => {
    const text = 'Επώνυμο;Όνομα;Σημείωση\r\nΝικολάου;Ελένη;"δύο\r\nγραμμές"\r\n\r\nΠαππάς;Κώστας;\n';
    expect(detectDelimiter(text)).toBe(';');
    expect(parseCsv(text)).toEqual([
      ['Επώνυμο', 'Όνομα', 'Σημείωση'],
      ['Νικολάου', 'Ελένη', 'δύο\nγραμμές'],
      ['Παππάς', 'Κώστας', ''],
    ]);
  });
});
