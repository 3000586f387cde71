import dayjs from 'dayjs';
import type { FieldDef, ResourceDef } from '../../../domain/fields';
import { formatMoney } from '../../../domain/money-format';
import { labelKey as referenceLabelKey } from '../../../domain/references';
import type { Translate } from '../../providers/i18nProvider';

// Plain-text forms of field values: what a table cell says, and what a CSV export writes.
// Pure (no React); `t` is i18next's translate function. Money's text form is the domain's
// (the error texts, below the engine, use it too).
export { formatMoney };

/** Euro as typed (12,5 or 12.50 or 1.234,56) -> integer cents; undefined when not a number. */
export function parseEuro(text: string): number | undefined {
  let s = text.replace(/€/g, '').replace(/\s/g, '');
  if (s === '') return undefined;
  if (s.includes(',')) s = s.replace(/\./g, '').replace(',', '.');
  if (!/^-?\d+(\.\d{0,2})?$/.test(s)) return undefined;
  return Math.round(Number(s) * 100);
}

export const DATE_FORMAT = 'DD/MM/YYYY';
const DATE_TIME_FORMAT = 'DD/MM/YYYY HH:mm';

/** "2026-03-07" -> "07/03/2026". */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const d = dayjs(value.slice(0, 10), 'YYYY-MM-DD');
  return d.isValid() ? d.format(DATE_FORMAT) : value;
}

/** An ISO instant in the browser's time zone: "07/03/2026 17:05". */
export function formatInstant(value: string | null | undefined): string {
  if (!value) return '';
  const d = dayjs(value);
  return d.isValid() ? d.format(DATE_TIME_FORMAT) : value;
}

/** "07/03/2026", "7/3/2026" or "2026-03-07" -> "2026-03-07"; undefined when not a real date. */
export function parseDate(text: string): string | undefined {
  const s = text.trim();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  let y: number, mo: number, d: number;
  if (m) [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else {
    m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s);
    if (!m) return undefined;
    [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  }
  const iso = `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso ? iso : undefined;
}

/** Made once: building a number format costs far more than using it (a list's cells each used a new one). */
const NUMBER_FORMAT = new Intl.NumberFormat('el-GR', { maximumFractionDigits: 6 });

function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  return NUMBER_FORMAT.format(value);
}

/** The i18n key of a field's label. */
export const labelKey = (resource: string, field: FieldDef) => field.label ?? `${resource}.fields.${field.name}`;
export const labelOf = (t: Translate, resource: ResourceDef | string, field: FieldDef) => {
  const key = labelKey(typeof resource === 'string' ? resource : resource.name, field);
  return t(key, { defaultValue: field.label ?? field.name });
};

/** A referenced row's label object, as the API sends it beside `x_id` (`x`) or `x_ids` (`xs`). */
export interface RefLabel {
  id: number;
  name: string | null;
  deleted?: boolean;
}

/** Where a reference's label travels beside its id: the server's rule, from domain/. */
export const labelKeyOf = referenceLabelKey;

export function refName(t: Translate, label: RefLabel | null | undefined, reference?: string): string {
  if (!label) return '';
  if (label.deleted) return reference === 'teachers' ? t('directory.deletedTeacher') : t('directory.deletedRow');
  return label.name ?? `#${label.id}`;
}

/** The text of one field of `row`, as a table cell shows it (also the CSV cell). */
export function fieldText(t: Translate, field: FieldDef, row: Record<string, unknown>): string {
  const value = row[field.name];
  switch (field.type) {
    case 'REFERENCE': {
      const label = row[labelKeyOf(field)] as RefLabel | null | undefined;
      if (value === null || value === undefined) return label?.name ?? '';
      return refName(t, label ?? { id: Number(value), name: null }, field.reference);
    }
    case 'REFERENCES': {
      const labels = row[labelKeyOf(field)] as RefLabel[] | undefined;
      if (labels) return labels.map((l) => refName(t, l, field.reference)).join(', ');
      return Array.isArray(value) ? value.map((id) => `#${id}`).join(', ') : '';
    }
    default:
      return valueText(t, field, value);
  }
}

/** The text of a bare value of a field (no row around it: history, custom values). */
export function valueText(t: Translate, field: FieldDef, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  switch (field.type) {
    case 'MONEY':
      return formatMoney(Number(value));
    case 'NUMBER':
      return typeof value === 'number' ? formatNumber(value) : String(value);
    case 'DATE':
      return formatDate(String(value));
    case 'INSTANT':
      return formatInstant(String(value));
    case 'BOOLEAN':
      return value ? t('buttons.yes') : t('buttons.no');
    case 'ENUM':
      return t(`enums.${String(value)}`, { defaultValue: String(value) });
    case 'PASSWORD':
      return '••••••';
    case 'MULTIPLE_CHOICE':
    case 'OPTIONS':
    case 'REFERENCES':
      return Array.isArray(value) ? value.map(String).join(', ') : String(value);
    case 'REFERENCE':
      return `#${String(value)}`;
    case 'WEEKDAYS':
      return Array.isArray(value)
        ? [...value]
            .sort()
            .map((d) => t(`weekdays.${String(d)}`, { defaultValue: String(d) }))
            .join(', ')
        : String(value);
    case 'DATES':
      return Array.isArray(value)
        ? [...value]
            .sort()
            .map((d) => formatDate(String(d)))
            .join(', ')
        : String(value);
    case 'CUSTOM_VALUES':
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
    default:
      return String(value);
  }
}
