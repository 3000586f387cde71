// Valid bodies derived from a declaration, so a test needs no hand-written body per resource
// and a new resource is covered the day it is declared. Values are plain and valid for each
// field type (domain/fields.ts); what must be unique (usernames, keys, slugs) carries `tag`.
import type { FieldDef, ResourceDef } from '../../../domain/fields';

interface BodyOptions {
  /** Makes unique values unique (letters and digits). */
  tag?: string;
  /** The value of the field that names the row (textFieldOf); `<resource> <tag>` by default. */
  text?: string;
  /** An existing row's id per referenced resource, for REFERENCE and REFERENCES fields. */
  refs?: Readonly<Record<string, number>>;
  /** Every writable field, not only the required ones. */
  full?: boolean;
}

/** The field that names a row: `name`, or the first required TEXT field (first_name, label, title). */
export const textFieldOf = (def: ResourceDef): string =>
  (def.fields.find((f) => f.name === 'name') ?? def.fields.find((f) => f.type === 'TEXT' && f.required && !f.readOnly))?.name ?? 'name';

const clip = (value: string, field: FieldDef) => value.slice(0, field.max ?? value.length);

/** A valid value of one field, or undefined when none can be given (a reference with no row). */
function validValue(field: FieldDef, opts: BodyOptions = {}): unknown {
  const tag = (opts.tag ?? 'x').toLowerCase();
  const ref = field.reference ? opts.refs?.[field.reference] : undefined;
  switch (field.type) {
    case 'TEXT':
    case 'LONG_TEXT':
      return clip(`${field.name} ${tag}`, field);
    case 'USERNAME':
      return clip(`u${tag}`.padEnd(3, '0'), field);
    case 'PASSWORD':
      return 'password-of-a-test-1';
    case 'EMAIL':
      return `${tag}@example.com`;
    case 'PHONE':
      return '+30 210 1234567';
    case 'TAX_ID':
      return '094014201';
    case 'SLUG':
      return `s${tag}`.replace(/[^a-z0-9-]/g, '').slice(0, 30);
    case 'KEY':
      return `k_${tag}`.replace(/[^a-z0-9_]/g, '').slice(0, 40);
    case 'COLOR':
      return '#1677ff';
    case 'TIME_ZONE':
      return 'Europe/Athens';
    case 'DATE':
      return '2026-03-16';
    case 'INSTANT':
      return '2026-03-16T09:30:00.000Z';
    case 'TIME':
      return '09:30';
    case 'NUMBER':
    case 'MONEY':
      return Math.max(field.min ?? 1, Math.min(field.max ?? 1000, field.type === 'MONEY' ? 1000 : 1));
    case 'BOOLEAN':
      return true;
    case 'ENUM':
    case 'SINGLE_CHOICE':
      return field.default ?? field.options?.[0];
    case 'MULTIPLE_CHOICE':
      return field.options?.slice(0, 1) ?? [];
    case 'REFERENCE':
      return ref;
    case 'REFERENCES':
      return ref === undefined ? [] : [ref];
    case 'OPTIONS':
      return ['α', 'β'];
    case 'CUSTOM_VALUES':
      return {};
    case 'WEEKDAYS':
      return [1];
    case 'DATES':
      return ['2026-03-16'];
  }
}

/**
 * A body a create accepts: every required field (and with `full` every writable one) given a
 * valid value, the naming field `opts.text`, a confirmation equal to what it confirms.
 */
export function validBody(def: ResourceDef, opts: BodyOptions = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const naming = textFieldOf(def);
  for (const field of def.fields) {
    if (field.readOnly || !(field.required || opts.full)) continue;
    const value = field.name === naming ? clip(opts.text ?? `${def.name} ${opts.tag ?? ''}`.trim(), field) : validValue(field, opts);
    if (value !== undefined) body[field.name] = value;
  }
  for (const field of def.fields) if (field.matches && field.name in body) body[field.name] = body[field.matches];
  return body;
}
