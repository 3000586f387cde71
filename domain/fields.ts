import { z } from 'zod';
import { DomainError, type FieldErrors, zodIssuesToFields } from './errors';
import type { Area } from './access';
import type { Role } from './enums';
import { labelKey, type ReferenceLabel } from './references';
import { isValidTaxId } from './tax-id';
import { hasDeceptiveCharacter } from './text';

// The field-type registry: a resource declares its fields once;
// the server's validation and list-query whitelist and the client's columns and inputs are
// derived from these definitions. Custom fields and custom entities use the same registry.
export const FIELD_TYPES = [
  'TEXT',
  'LONG_TEXT',
  'NUMBER',
  'DATE',
  'BOOLEAN',
  'SINGLE_CHOICE',
  'MULTIPLE_CHOICE',
  'EMAIL',
  'PHONE',
  'TAX_ID',
  'PASSWORD',
  'USERNAME',
  'SLUG',
  'MONEY',
  'COLOR',
  'REFERENCE',
  'ENUM',
  'TIME_ZONE',
  'INSTANT',
  'TIME',
  'REFERENCES',
  'KEY',
  'OPTIONS',
  'CUSTOM_VALUES',
  'WEEKDAYS',
  'DATES',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export type FilterOp = 'eq' | 'ne' | 'gte' | 'lte' | 'like';
export type FilterValue = string | number | boolean;

export interface FieldDef {
  name: string;
  type: FieldType;
  required?: boolean;
  /** Length bounds for text, value bounds for numbers and money. */
  min?: number;
  max?: number;
  /** Allowed values for ENUM, SINGLE_CHOICE and MULTIPLE_CHOICE. */
  options?: readonly string[];
  /** Whole numbers only (NUMBER). */
  integer?: boolean;
  /** Resource a REFERENCE or REFERENCES points to. */
  reference?: string;
  /** On create, must equal this other field (confirm_password -> password): 'mismatch'. */
  matches?: string;
  /** Value used on create when the field is omitted. */
  default?: unknown;
  /** Accepted on write, never returned (passwords). */
  writeOnly?: boolean;
  /** Returned, never accepted (computed or server-set). */
  readOnly?: boolean;
  /** Accepted on create only. */
  createOnly?: boolean;
  sortable?: boolean;
  filterable?: boolean;
  /** Part of the `q` search (accent- and case-insensitive). */
  searchable?: boolean;
  /** i18n key of the label; defaults to `<resource>.fields.<name>`. */
  label?: string;
  /**
   * Personal data (docs/rules.md, Personal data): a person's document holds it, erasing the
   * person clears it (on her own row and on every row pointing at her with a REFERENCE), and
   * her history keeps `[erased]` in place of its values. `'name'`: one of the fields naming the
   * person, replaced by the erased placeholder instead of cleared.
   */
  personal?: true | 'name';
}

export interface SortSpec {
  field: string;
  order: 'asc' | 'desc';
}

/** The drawers a screen opens from its `?mode=` search parameter. */
export type ScreenMode = 'create' | 'update' | 'view';

/** Sidebar groups (Refine's `meta.parent`); a screen without one sits at the top level. */
export const SIDEBAR_GROUPS = ['settings'] as const;
export type SidebarGroup = (typeof SIDEBAR_GROUPS)[number];

/**
 * How the web client shows a resource. Plain data (names, never components), so a declaration
 * can also arrive as JSON at run time and be shown by the same code.
 */
export interface ScreenDef {
  /** The list's route as users see it: `/rooms/`; a query picks a tab of a shared page (`/lessons/settings?type=lesson-tag`). */
  route: string;
  /** Search parameter holding the open row's id: `/rooms/?mode=update&room=3`. */
  entity: string;
  modes: readonly ScreenMode[];
  /** Icon name; the client turns names into icons. */
  icon?: string;
  /**
   * Place in the sidebar: lower first (the declarations use steps of ten, so a new one fits
   * between two). A screen without one comes after every numbered one.
   */
  order?: number;
  group?: SidebarGroup;
  /** Not a sidebar entry of its own (reached from another screen). */
  hidden?: boolean;
  /**
   * Who may open the route: whoever may read the area (default), or only who may change it
   * (settings pages: everyone reads the categories a form offers, managers keep them).
   */
  opensFor?: 'readers' | 'writers';
  /** A page of the client's page map, when the generic screen is not enough. */
  page?: string;
  /** Fields that name a row in titles and confirmations, joined by a space; `name` by default. */
  titleFields?: readonly string[];
  /** Columns of the list; readable short fields when omitted. */
  listFields?: readonly string[];
  /** Fields of the form and their order; every writable one when omitted. */
  formFields?: readonly string[];
  /** Tabs of the detail view after Details (History is always last), by name. */
  tabs?: readonly DetailTab[];
  /** For roles limited to their own rows: the field holding the owner's user id. */
  ownerField?: string;
}

/** Detail tabs a declaration may ask for; each lists rows of another resource pointing at this one. */
export const DETAIL_TABS = ['lessons', 'recurring-lessons', 'contracts', 'payments', 'guardians', 'attendance', 'messages'] as const;
export type DetailTab = (typeof DETAIL_TABS)[number];

export interface ResourceDef {
  /** API name: kebab-case plural, as in `/api/<name>`. */
  name: string;
  area: Area;
  fields: readonly FieldDef[];
  defaultSort: readonly SortSpec[];
  /** Where its rows live: a tenant's table (row-level security) or the platform's (tenants). */
  scope?: 'tenant' | 'platform';
  /**
   * Roles that read only some fields of a row: role -> the declared fields it reads (a
   * reference's label goes with its field). Such a role receives `id` and these fields and
   * nothing else (no other field, computed or custom value, version or instants) in any
   * answer, and may not filter or sort on any other field; `q` looks only in these fields.
   * See docs/resources.md, "What a role reads".
   */
  narrowFor?: Partial<Record<Role, readonly string[]>>;
  /** How the web client shows it. */
  screen: ScreenDef;
}

/**
 * A declaration as the rest of the code reads it (its fields are FieldDefs), with its literal
 * fields kept, for the type system only, so RowOf can name every field's value type.
 */
export type Declared<R extends ResourceDef> = Omit<R, 'fields'> & { fields: readonly FieldDef[]; readonly literalFields?: R['fields'] };

/** Declares a resource: checked as a ResourceDef, its row type derivable with RowOf. */
export const defineResource = <const R extends ResourceDef>(def: R): Declared<R> => def;

/** The fields `role` reads of a row of `res`, or undefined when it reads them all (see ResourceDef.narrowFor). */
export function readableFields(res: Pick<ResourceDef, 'narrowFor'>, role: Role | undefined): ReadonlySet<string> | undefined {
  const names = role ? res.narrowFor?.[role] : undefined;
  return names ? new Set(names) : undefined;
}

const narrowedDefs = new WeakMap<ResourceDef, Map<Role, ResourceDef>>();
/** Declarations made by narrowedDef: of the system fields, their lists know only `id`. */
const NARROWED = new WeakSet<ResourceDef>();

/**
 * The declaration as `role` reads it: only the fields it may read, sorted by default only on
 * those (by `id` when none is left). Its list query refuses any other filter or sort name.
 */
export function narrowedDef<R extends ResourceDef>(res: R, role: Role | undefined): R {
  const readable = readableFields(res, role);
  if (!readable || !role) return res;
  let byRole = narrowedDefs.get(res);
  if (!byRole) narrowedDefs.set(res, (byRole = new Map()));
  const hit = byRole.get(role);
  if (hit) return hit as R;
  const defaultSort = res.defaultSort.filter((s) => readable.has(s.field));
  const narrowed = {
    ...res,
    fields: res.fields.filter((f) => readable.has(f.name)),
    defaultSort: defaultSort.length ? defaultSort : [{ field: 'id', order: 'asc' as const }],
  };
  byRole.set(role, narrowed);
  NARROWED.add(narrowed);
  return narrowed;
}

/** The keys of a row `role` may receive: `id`, the readable fields and their labels; undefined when all. */
export function readableKeys(res: ResourceDef, role: Role | undefined): ReadonlySet<string> | undefined {
  const readable = readableFields(res, role);
  if (!readable) return undefined;
  const keys = new Set(['id']);
  for (const f of res.fields) {
    if (!readable.has(f.name)) continue;
    keys.add(f.name);
    if ((f.type === 'REFERENCE' || f.type === 'REFERENCES') && f.reference) keys.add(labelKey(f));
  }
  return keys;
}

/** The row as `role` may receive it (see readableKeys); the row itself when it reads everything. */
export function narrowRow<T extends Record<string, unknown>>(res: ResourceDef, role: Role | undefined, row: T): T {
  const keys = readableKeys(res, role);
  if (!keys) return row;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(row)) if (keys.has(key)) out[key] = row[key];
  return out as T;
}

interface FieldTypeSpec {
  value(def: FieldDef): z.ZodType;
  ops: readonly FilterOp[];
  /** Parses one filter value from the query string. */
  filter(def: FieldDef, raw: string): FilterValue | undefined;
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
export const isRealDate = (s: string) => {
  if (!DATE_RE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};
const isTimeZone = (s: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: s });
    return s.length <= 64;
  } catch {
    return false;
  }
};

/**
 * Names a user may not give a key: the built-ins of every JavaScript object (constructor,
 * __proto__, toString…) and a few others code treats specially (prototype, then). Compared
 * without case, so no spelling of them gets through.
 */
const RESERVED_KEYS = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype', 'then'].map((k) => k.toLowerCase()));
export const isReservedKey = (key: string) => RESERVED_KEYS.has(key.toLowerCase());

/**
 * C0 control characters and DEL: never typed on purpose, and some (ESC, BEL) act on terminals
 * and logs. Multi-line text may hold tabs and line breaks.
 */
export function hasControlCharacter(value: string, multiLine = false): boolean {
  // Also C1 controls and bidirectional overrides: see domain/text.ts.
  return hasDeceptiveCharacter(value, multiLine);
}
/**
 * Characters that show nothing: spaces, format characters (zero-width space and joiners,
 * BOM), controls, combining marks without a base, and the Hangul and Braille blanks.
 */
const INVISIBLE = /^[\p{White_Space}\p{Cf}\p{Cc}\p{M}\u115F\u1160\u3164\uFFA0\u2800]*$/u;
export const hasVisibleCharacter = (value: string) => !INVISIBLE.test(value);

/**
 * Text as people type it: trimmed, bounded, free of control characters (multi-line text may
 * hold tabs and line breaks), and, when not empty, showing at least one character — a name
 * of zero-width spaces looks blank everywhere it is shown.
 */
const text = (def: FieldDef, fallbackMax: number, multiLine = false) => {
  let s = z
    .string()
    .trim()
    .max(def.max ?? fallbackMax);
  if (def.required) s = s.min(Math.max(def.min ?? 1, 1));
  else if (def.min) s = s.min(def.min);
  return s
    .refine((v) => !hasControlCharacter(v, multiLine), { params: { code: 'invalid-format' }, abort: true })
    .refine((v) => v === '' || hasVisibleCharacter(v), { params: { code: def.required ? 'required' : 'invalid-format' } });
};
const asText = (def: FieldDef, raw: string) => (raw.length <= (def.max ?? 200) ? raw : undefined);
const asNumber = (raw: string) => (raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : undefined);
const asInteger = (raw: string) => (/^-?\d{1,15}$/.test(raw) ? Number(raw) : undefined);
const asOption = (def: FieldDef, raw: string) => (def.options?.includes(raw) ? raw : undefined);
const ORDERED: readonly FilterOp[] = ['eq', 'ne', 'gte', 'lte'];
const TEXTUAL: readonly FilterOp[] = ['eq', 'ne', 'like'];
const EQUALITY: readonly FilterOp[] = ['eq', 'ne'];

export const FIELD_REGISTRY: Record<FieldType, FieldTypeSpec> = {
  TEXT: { value: (d) => text(d, 200), ops: TEXTUAL, filter: asText },
  LONG_TEXT: { value: (d) => text(d, 10_000, true), ops: ['like'], filter: asText },
  USERNAME: {
    value: (d) =>
      z
        .string()
        .trim()
        .min(3)
        .max(d.max ?? 64)
        .regex(/^[\p{L}\p{N}._@-]+$/u),
    ops: TEXTUAL,
    filter: asText,
  },
  EMAIL: { value: () => z.string().trim().max(254).pipe(z.email()), ops: TEXTUAL, filter: asText },
  PHONE: {
    value: () =>
      z
        .string()
        .trim()
        .regex(/^\+?[0-9 ().-]{5,20}$/),
    ops: TEXTUAL,
    filter: asText,
  },
  // A Greek tax number (ΑΦΜ): nine digits whose last is the check digit.
  TAX_ID: {
    value: () =>
      z
        .string()
        .trim()
        .refine(isValidTaxId, { params: { code: 'invalid-format' } }),
    ops: TEXTUAL,
    filter: asText,
  },
  PASSWORD: {
    value: (d) =>
      z
        .string()
        .min(d.min ?? 8)
        .max(d.max ?? 128),
    ops: [],
    filter: () => undefined,
  },
  SLUG: {
    value: () => z.string().regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/),
    ops: TEXTUAL,
    filter: asText,
  },
  COLOR: { value: () => z.string().regex(/^#[0-9a-fA-F]{6}$/), ops: EQUALITY, filter: (_d, raw) => raw },
  TIME_ZONE: {
    value: () => z.string().refine(isTimeZone, { params: { code: 'invalid-option' } }),
    ops: EQUALITY,
    filter: (_d, raw) => (isTimeZone(raw) ? raw : undefined),
  },
  NUMBER: {
    value: (d) => {
      let n = d.integer ? z.number().int() : z.number().finite();
      if (d.min !== undefined) n = n.min(d.min);
      if (d.max !== undefined) n = n.max(d.max);
      return n;
    },
    ops: ORDERED,
    filter: (_d, raw) => asNumber(raw),
  },
  MONEY: {
    // Integer euro cents; a million euro is far above anything a centre charges at once.
    value: (d) =>
      z
        .number()
        .int()
        .min(d.min ?? 0)
        .max(d.max ?? 100_000_000),
    ops: ORDERED,
    filter: (_d, raw) => asInteger(raw),
  },
  REFERENCE: {
    value: () => z.number().int().positive().max(2_147_483_647),
    ops: EQUALITY,
    filter: (_d, raw) => {
      const n = asInteger(raw);
      return n !== undefined && n > 0 && n <= 2_147_483_647 ? n : undefined;
    },
  },
  DATE: {
    value: () => z.string().refine(isRealDate, { params: { code: 'invalid-format' } }),
    ops: ORDERED,
    filter: (_d, raw) => (isRealDate(raw) ? raw : undefined),
  },
  INSTANT: {
    value: () => z.iso.datetime({ offset: true }),
    ops: ORDERED,
    filter: (_d, raw) => (isRealDate(raw) || z.iso.datetime({ offset: true }).safeParse(raw).success ? raw : undefined),
  },
  TIME: {
    value: () => z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
    ops: ORDERED,
    filter: (_d, raw) => (/^([01]\d|2[0-3]):[0-5]\d$/.test(raw) ? raw : undefined),
  },
  REFERENCES: {
    // A list of ids (class_ids, subject_ids); a filter matches rows holding any of the values.
    value: (d) =>
      z
        .array(z.number().int().positive().max(2_147_483_647))
        .max(d.max ?? 1000)
        .refine((a) => new Set(a).size === a.length, { params: { code: 'invalid' } }),
    ops: ['eq'],
    filter: (_d, raw) => {
      const n = asInteger(raw);
      return n !== undefined && n > 0 && n <= 2_147_483_647 ? n : undefined;
    },
  },
  KEY: {
    value: () =>
      z
        .string()
        .regex(/^[a-z][a-z0-9_]{0,39}$/)
        .refine((key) => !isReservedKey(key), { params: { code: 'invalid' } }),
    ops: EQUALITY,
    filter: asText,
  },
  OPTIONS: {
    // The choices of a SINGLE_CHOICE or MULTIPLE_CHOICE field definition.
    value: () =>
      z
        .array(text({ name: 'option', type: 'TEXT', required: true }, 100))
        .max(100)
        .refine((a) => new Set(a).size === a.length, { params: { code: 'invalid' } }),
    ops: [],
    filter: () => undefined,
  },
  CUSTOM_VALUES: {
    // The object of custom-field values; its keys and values are checked against the
    // tenant's definitions at run time (customValuesSchema).
    value: () => z.record(z.string().max(40), z.unknown()),
    ops: [],
    filter: () => undefined,
  },
  WEEKDAYS: {
    // ISO weekday numbers, 1 Monday to 7 Sunday (a weekly series' days).
    value: () =>
      z
        .array(z.number().int().min(1).max(7))
        .max(7)
        .refine((a) => new Set(a).size === a.length, { params: { code: 'invalid' } }),
    ops: ['eq'],
    filter: (_d, raw) => (/^[1-7]$/.test(raw) ? Number(raw) : undefined),
  },
  DATES: {
    // Hand-picked dates (a CUSTOM series); the series rules bound how many.
    value: (d) =>
      z
        .array(z.string().refine(isRealDate, { params: { code: 'invalid-format' } }))
        .max(d.max ?? 500)
        .refine((a) => new Set(a).size === a.length, { params: { code: 'invalid' } }),
    ops: [],
    filter: () => undefined,
  },
  BOOLEAN: {
    value: () => z.boolean(),
    ops: EQUALITY,
    filter: (_d, raw) => (raw === 'true' ? true : raw === 'false' ? false : undefined),
  },
  ENUM: { value: (d) => z.enum(d.options as [string, ...string[]]), ops: EQUALITY, filter: asOption },
  SINGLE_CHOICE: { value: (d) => z.enum(d.options as [string, ...string[]]), ops: EQUALITY, filter: asOption },
  MULTIPLE_CHOICE: {
    value: (d) =>
      z
        .array(z.enum(d.options as [string, ...string[]]))
        .max(d.options?.length ?? 0)
        .refine((a) => new Set(a).size === a.length, { params: { code: 'invalid' } }),
    ops: ['eq'],
    filter: asOption,
  },
};

/** Columns every resource has, sortable and filterable like declared fields. */
export const SYSTEM_FIELDS: readonly FieldDef[] = [
  { name: 'id', type: 'REFERENCE', readOnly: true, sortable: true, filterable: true },
  { name: 'created_at', type: 'INSTANT', readOnly: true, sortable: true, filterable: true },
  { name: 'updated_at', type: 'INSTANT', readOnly: true, sortable: true, filterable: true },
];

export const fieldSchema = (def: FieldDef): z.ZodType => FIELD_REGISTRY[def.type].value(def);

const writable = (res: ResourceDef) => res.fields.filter((f) => !f.readOnly);

/** Create body: required fields present, optional ones may be null or omitted, unknown fields refused. */
export function createSchema(res: ResourceDef) {
  const shape: Record<string, z.ZodType> = {};
  for (const f of writable(res)) {
    const v = fieldSchema(f);
    shape[f.name] = f.required && f.default === undefined ? v : v.nullable().optional();
  }
  const pairs = writable(res).filter((f) => f.matches);
  const object = z.strictObject(shape);
  if (!pairs.length) return object;
  return object.superRefine((value, ctx) => {
    for (const f of pairs) {
      if (value[f.name] !== undefined && value[f.name] !== value[f.matches!]) {
        ctx.addIssue({ code: 'custom', path: [f.name], params: { code: 'mismatch' }, message: 'does not match' });
      }
    }
  });
}

/** Update body: any writable field but create-only ones, plus the row's `version`. */
export function updateSchema(res: ResourceDef, opts: { versionRequired?: boolean } = {}) {
  const shape: Record<string, z.ZodType> = {};
  for (const f of writable(res).filter((f) => !f.createOnly)) {
    const v = fieldSchema(f);
    shape[f.name] = (f.required ? v : v.nullable()).optional();
  }
  const version = z.number().int().min(0).max(2_147_483_647);
  shape.version = opts.versionRequired === false ? version.optional() : version;
  return z.strictObject(shape);
}

/** Parses `body` with `schema`, or throws 400 `validation` with a code per field. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new DomainError('validation', 'The body must be a JSON object.', { _: 'invalid-type' });
  }
  const result = schema.safeParse(body, { reportInput: true });
  if (!result.success) throw new DomainError('validation', undefined, zodIssuesToFields(result.error.issues));
  return result.data;
}

/** A JSON Schema object (what response serializers and OpenAPI read). */
export type JsonSchema = Record<string, unknown>;

const STRING: JsonSchema = { type: 'string' };
const INTEGERS: JsonSchema = { type: 'array', items: { type: 'integer' } };
const STRINGS: JsonSchema = { type: 'array', items: STRING };

/** How each field type travels in an answer. */
const ANSWER_TYPES: Record<FieldType, JsonSchema> = {
  TEXT: STRING,
  LONG_TEXT: STRING,
  USERNAME: STRING,
  EMAIL: STRING,
  PHONE: STRING,
  TAX_ID: STRING,
  PASSWORD: STRING,
  SLUG: STRING,
  COLOR: STRING,
  TIME_ZONE: STRING,
  DATE: STRING,
  INSTANT: STRING,
  TIME: STRING,
  KEY: STRING,
  ENUM: STRING,
  SINGLE_CHOICE: STRING,
  NUMBER: { type: 'number' },
  MONEY: { type: 'integer' },
  REFERENCE: { type: 'integer' },
  BOOLEAN: { type: 'boolean' },
  REFERENCES: INTEGERS,
  WEEKDAYS: INTEGERS,
  DATES: STRINGS,
  OPTIONS: STRINGS,
  MULTIPLE_CHOICE: STRINGS,
  CUSTOM_VALUES: { type: 'object', additionalProperties: true },
};

const nullable = (schema: JsonSchema): JsonSchema => ({ ...schema, type: [schema.type as string, 'null'] });

/** `teacher: {id, name, deleted?}` beside `teacher_id`. */
const LABEL: JsonSchema = {
  type: ['object', 'null'],
  properties: { id: { type: ['integer', 'null'] }, name: { type: ['string', 'null'] }, deleted: { type: 'boolean' } },
};

/**
 * JSON Schema of one row as the API answers it: the system fields, every declared field that
 * is not write-only, the labels beside references, and `extra` (values a server adds beside
 * the declaration). A response serializer built from it writes these names and no other.
 */
export function rowJsonSchema(res: ResourceDef, extra: Record<string, JsonSchema> = {}): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    id: { type: 'integer' },
    version: { type: 'integer' },
    created_at: nullable(STRING),
    updated_at: nullable(STRING),
  };
  for (const f of res.fields) {
    if (f.writeOnly) continue;
    const type = f.type === 'NUMBER' && f.integer ? { type: 'integer' } : ANSWER_TYPES[f.type];
    properties[f.name] = nullable(type);
    if (f.type === 'REFERENCE' && f.reference) properties[labelKey(f)] = LABEL;
    if (f.type === 'REFERENCES' && f.reference) properties[labelKey(f)] = { type: 'array', items: LABEL };
  }
  return { type: 'object', properties: { ...properties, ...extra } };
}

/** `{data: [rows], total}` of a list and `{data: row}` of a read or update. */
export const listJsonSchema = (row: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: { data: { type: 'array', items: row }, total: { type: 'integer' } },
});
export const oneJsonSchema = (row: JsonSchema): JsonSchema => ({ type: 'object', properties: { data: row } });
/** `{id, data: row}` of a create. */
export const createdJsonSchema = (row: JsonSchema): JsonSchema => ({ type: 'object', properties: { id: { type: 'integer' }, data: row } });

/** An ENUM/choice field's options as a type, when declared `as const`. */
type OptionOf<F> = F extends { options: readonly (infer O)[] } ? O : string;

/** How a field of type T travels in an answer (FieldType -> TypeScript). */
type AnswerOf<F extends FieldDef> = F['type'] extends 'NUMBER' | 'MONEY' | 'REFERENCE'
  ? number
  : F['type'] extends 'BOOLEAN'
    ? boolean
    : F['type'] extends 'REFERENCES' | 'WEEKDAYS'
      ? number[]
      : F['type'] extends 'DATES' | 'OPTIONS'
        ? string[]
        : F['type'] extends 'MULTIPLE_CHOICE'
          ? OptionOf<F>[]
          : F['type'] extends 'ENUM' | 'SINGLE_CHOICE'
            ? OptionOf<F>
            : F['type'] extends 'CUSTOM_VALUES'
              ? Record<string, unknown>
              : string;

/** A required or defaulted field always has a value; any other may be null. */
type ValueOf<F extends FieldDef> = F extends { required: true } | { default: NonNullable<unknown> } ? AnswerOf<F> : AnswerOf<F> | null;

type Plural<B extends string> = B extends `${string}${'s' | 'x' | 'ch' | 'sh'}` ? `${B}es` : `${B}s`;
/** labelKey() at the type level: `teacher_id` -> `teacher`, `tag_ids` -> `tags`. */
type LabelKeyOf<F extends FieldDef> = F['type'] extends 'REFERENCES'
  ? F['name'] extends `${infer B}_ids`
    ? Plural<B>
    : never
  : F['name'] extends `${infer B}_id`
    ? B
    : never;

type FieldsOf<R extends { fields: readonly FieldDef[] }> = R extends { literalFields?: infer L extends readonly FieldDef[] } ? L[number] : R['fields'][number];

/**
 * One row as the API answers it, derived from a declaration made with defineResource(): the
 * system fields, every field that is not write-only, and the labels beside
 * references (what rowJsonSchema() lets through). `RowOf<typeof USERS>`.
 */
export type RowOf<R extends { fields: readonly FieldDef[] }> = {
  id: number;
  version: number;
  created_at: string | null;
  updated_at: string | null;
} & { [F in Exclude<FieldsOf<R>, { writeOnly: true }> as F['name']]: ValueOf<F> } & {
  [F in Extract<FieldsOf<R>, { type: 'REFERENCE' }> as LabelKeyOf<F>]: ReferenceLabel | null;
} & { [F in Extract<FieldsOf<R>, { type: 'REFERENCES' }> as LabelKeyOf<F>]: ReferenceLabel[] };

export const MAX_PAGE_ROWS = 200;
export const DEFAULT_PAGE_ROWS = 25;

export interface ListFilter {
  field: string;
  op: FilterOp;
  values: FilterValue[];
}

export interface ListQuery {
  start: number;
  end: number;
  sort: SortSpec[];
  filters: ListFilter[];
  q?: string;
}

type RawQuery = Record<string, string | string[] | undefined>;
const SUFFIXES: ReadonlyArray<[string, FilterOp]> = [
  ['_ne', 'ne'],
  ['_gte', 'gte'],
  ['_lte', 'lte'],
  ['_like', 'like'],
];
const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const single = (v: string | string[] | undefined) => (Array.isArray(v) ? v[v.length - 1] : v);

/**
 * Reads `_start,_end,_sort,_order,q` and filters (`field`, `field_ne`, `field_gte`, `field_lte`,
 * `field_like`) against the resource's whitelist. Names never reach SQL unless declared here.
 */
export function parseListQuery(res: ResourceDef, raw: RawQuery, extraFilters: readonly FieldDef[] = []): ListQuery {
  const fields: FieldErrors = {};
  const system = NARROWED.has(res) ? SYSTEM_FIELDS.filter((f) => f.name === 'id') : SYSTEM_FIELDS;
  const all = new Map([...system, ...res.fields, ...extraFilters].map((f) => [f.name, f]));

  const int = (key: string, fallback: number) => {
    const v = single(raw[key]);
    if (v === undefined || v === '') return fallback;
    if (!/^\d{1,9}$/.test(v)) {
      fields[key] = 'invalid-type';
      return fallback;
    }
    return Number(v);
  };
  const start = int('_start', 0);
  const end = int('_end', start + DEFAULT_PAGE_ROWS);
  if (end < start) fields._end = 'too-small';
  else if (end - start > MAX_PAGE_ROWS) fields._end = 'too-large';

  const sortNames = list(raw._sort)
    .flatMap((s) => s.split(','))
    .filter(Boolean);
  const orders = list(raw._order)
    .flatMap((s) => s.split(','))
    .filter(Boolean);
  const sort: SortSpec[] = [];
  sortNames.forEach((name, i) => {
    const def = all.get(name);
    const order = (orders[i] ?? 'asc').toLowerCase();
    if (!def?.sortable || def.writeOnly) fields._sort = 'invalid-option';
    else if (order !== 'asc' && order !== 'desc') fields._order = 'invalid-option';
    else sort.push({ field: name, order });
  });
  if (sortNames.length > 5) fields._sort = 'too-long';

  let q: string | undefined;
  const rawQ = single(raw.q);
  if (rawQ !== undefined && rawQ.trim() !== '') {
    if (rawQ.length > 200) fields.q = 'too-long';
    else q = rawQ.trim();
  }

  const filters: ListFilter[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (['_start', '_end', '_sort', '_order', 'q'].includes(key) || value === undefined) continue;
    const suffix = SUFFIXES.find(([s]) => key.endsWith(s) && all.has(key.slice(0, -s.length)));
    const name = suffix ? key.slice(0, -suffix[0].length) : key;
    const op: FilterOp = suffix ? suffix[1] : 'eq';
    const def = all.get(name);
    if (!def?.filterable || def.writeOnly) {
      fields[key.length > 64 ? key.slice(0, 64) : key] = 'unknown-field';
      continue;
    }
    const spec = FIELD_REGISTRY[def.type];
    if (!spec.ops.includes(op) && !(op === 'eq' && spec.ops.includes('like'))) {
      fields[key] = 'invalid-option';
      continue;
    }
    const rawValues = list(value);
    if (rawValues.length > 50) {
      fields[key] = 'too-long';
      continue;
    }
    const values: FilterValue[] = [];
    for (const r of rawValues) {
      const parsed = spec.filter(def, r);
      if (parsed === undefined) fields[key] = 'invalid';
      else values.push(parsed);
    }
    if (!fields[key] && values.length) filters.push({ field: name, op, values });
  }

  if (Object.keys(fields).length) throw new DomainError('validation', 'The list query is not valid.', fields);
  return { start, end, sort: sort.length ? sort : [...res.defaultSort], filters, q };
}
