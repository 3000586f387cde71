import type { ImportRowError } from '../../../domain/errors';
import type { FieldDef, ResourceDef } from '../../../domain/fields';
import { normalizeSearch } from '../../../domain/text';
import { labelOf, parseDate } from '../fields/format';
import { translations, type Translate } from '../../providers/i18nProvider';

/** A column a CSV may fill: a declared field or a custom one. */
export interface ImportTarget {
  /** 'first_name' or 'custom_fields.school'. */
  key: string;
  label: string;
  field: FieldDef;
  custom: boolean;
}

/** Every translation of an enum value (el and en), folded, for matching what people typed. */
function enumMatch(field: FieldDef, cell: string): string | undefined {
  const folded = normalizeSearch(cell);
  return (field.options ?? []).find((o) => {
    if (normalizeSearch(o) === folded) return true;
    return Object.values(translations).some((tree) => {
      const enums = (tree as { enums?: Record<string, string> }).enums;
      return enums?.[o] !== undefined && normalizeSearch(enums[o]) === folded;
    });
  });
}

const YES = ['1', 'true', 'yes', 'y', 'ναι', 'ν', 'x', '✓'];
const NO = ['0', 'false', 'no', 'n', 'οχι', 'ο'];

/** One CSV cell as the API wants the field's value; an unreadable cell goes as typed (the server names the problem). */
export function cellValue(field: FieldDef, cell: string): unknown {
  const s = cell.trim();
  if (s === '') return undefined;
  switch (field.type) {
    case 'NUMBER': {
      const n = Number(s.replace(/\./g, '').replace(',', '.'));
      const plainNumber = Number(s);
      if (/^-?\d+$/.test(s)) return Number(s);
      return Number.isFinite(plainNumber) && !s.includes(',') ? plainNumber : Number.isFinite(n) ? n : s;
    }
    case 'DATE':
      return parseDate(s) ?? s;
    case 'REFERENCE':
      return /^\d{1,10}$/.test(s) ? Number(s) : s;
    case 'BOOLEAN': {
      const folded = normalizeSearch(s);
      return YES.includes(folded) ? true : NO.includes(folded) ? false : s;
    }
    case 'ENUM':
      return enumMatch(field, s) ?? s;
    case 'SINGLE_CHOICE':
      return field.options?.find((o) => normalizeSearch(o) === normalizeSearch(s)) ?? s;
    case 'MULTIPLE_CHOICE':
      return s
        .split(/[|,;]/)
        .map((part) => part.trim())
        .filter(Boolean)
        .map((part) => field.options?.find((o) => normalizeSearch(o) === normalizeSearch(part)) ?? part);
    default:
      return s;
  }
}

/** The student create body of one CSV row under a column mapping (column index -> target key). */
export function rowBody(cells: readonly string[], mapping: readonly (string | null)[], targets: ReadonlyMap<string, ImportTarget>) {
  const body: Record<string, unknown> = {};
  const custom: Record<string, unknown> = {};
  mapping.forEach((key, column) => {
    const target = key ? targets.get(key) : undefined;
    if (!target) return;
    const value = cellValue(target.field, cells[column] ?? '');
    if (value === undefined) return;
    if (target.custom) custom[target.field.name] = value;
    else body[target.field.name] = value;
  });
  if (Object.keys(custom).length) body.custom_fields = custom;
  return body;
}

/** Which target a CSV header names: the field's name, key or label in any language. */
export function guessTarget(header: string, targets: readonly ImportTarget[], labelsOf: (t: ImportTarget) => string[]): string | null {
  const folded = normalizeSearch(header).replace(/[\s_-]+/g, ' ');
  const hit = targets.find((target) => labelsOf(target).some((l) => normalizeSearch(l).replace(/[\s_-]+/g, ' ') === folded));
  return hit?.key ?? null;
}

/** The fields of a declaration a CSV may fill: writable ones, not lists of references or objects. */
export const importTargets = (t: Translate, def: ResourceDef): ImportTarget[] =>
  def.fields
    .filter((f) => !f.readOnly && !['REFERENCES', 'CUSTOM_VALUES', 'PASSWORD'].includes(f.type))
    .map((field) => ({ key: field.name, label: labelOf(t, def, field), field, custom: false }));

/** The refused rows of a check, one line per refused cell: its line in the file, its column's label, the problem. */
export function refusedCells(t: Translate, resource: string, byKey: ReadonlyMap<string, ImportTarget>, errors: readonly ImportRowError[]) {
  return errors.flatMap((e) =>
    Object.entries(e.fields).map(([key, code]) => ({
      key: `${e.row}-${key}`,
      line: e.row + 2, // the header is line 1
      field: byKey.get(key)?.label ?? (key.startsWith('custom_fields.') ? key.slice(14) : t(`${resource}.fields.${key}`, { defaultValue: key })),
      problem: t(`fields.${code}`, { defaultValue: code }),
    })),
  );
}
