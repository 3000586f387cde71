/**
 * The table of a plain resource, derived from its declaration (domain/resources/), so the two
 * cannot disagree: keyed (tenant_id, id) like every table of a centre, with `search` and
 * rowMeta(), one column per declared field with the type its field type is stored as
 * (STORED_AS), NOT NULL when the field is required or has a default, a foreign key including
 * tenant_id behind each REFERENCE, and an index on (tenant_id, name) for the list's default
 * order. `npm run db:generate` writes its migration like any other table's.
 *
 * Fields that need more than a column (REFERENCES: a join table; PASSWORD: a hash kept by a
 * spec's hooks) belong to resources with a hand-written table and spec.
 */
import type { ColumnBuilderBase, HasDefault, NotNull } from 'drizzle-orm';
import {
  boolean,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  type PgBooleanBuilderInitial,
  type PgColumnBuilderBase,
  type PgDateStringBuilderInitial,
  type PgIntegerBuilderInitial,
  type PgJsonbBuilderInitial,
  type PgNumericBuilderInitial,
  type PgTextBuilderInitial,
  type PgTimestampBuilderInitial,
  pgTable,
  primaryKey,
  text,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { FieldDef, FieldType, ResourceDef } from '../../../domain/index';
import { instant, rowMeta, wallTime } from './columns';
import { id, search, tenantId } from './tenant-columns';

/** The SQL type each field type is stored as; the declaration/table agreement test reads it too. */
export const STORED_AS: Record<FieldType, 'text' | 'integer' | 'numeric' | 'date' | 'time' | 'timestamp' | 'boolean' | 'jsonb' | 'link' | 'secret'> = {
  TEXT: 'text',
  LONG_TEXT: 'text',
  EMAIL: 'text',
  PHONE: 'text',
  TAX_ID: 'text',
  USERNAME: 'text',
  SLUG: 'text',
  COLOR: 'text',
  ENUM: 'text',
  SINGLE_CHOICE: 'text',
  KEY: 'text',
  TIME_ZONE: 'text',
  TIME: 'time',
  NUMBER: 'numeric',
  MONEY: 'integer',
  REFERENCE: 'integer',
  DATE: 'date',
  INSTANT: 'timestamp',
  BOOLEAN: 'boolean',
  MULTIPLE_CHOICE: 'jsonb',
  WEEKDAYS: 'jsonb',
  DATES: 'jsonb',
  OPTIONS: 'jsonb',
  CUSTOM_VALUES: 'jsonb',
  REFERENCES: 'link',
  PASSWORD: 'secret',
};

/** What a field is stored as: a whole NUMBER is an integer, any other a numeric. */
export const storedAs = (field: FieldDef) => (field.type === 'NUMBER' && field.integer ? 'integer' : STORED_AS[field.type]);

/** A field's column may hold no value only when the field is optional and has no default. */
export const isNullable = (field: FieldDef) => !field.required && field.default === undefined;

/** `category_id` -> `categoryId`: the drizzle property of a column, as in the hand-written tables. */
export const propertyOf = (column: string) => column.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;

/** A row a REFERENCE points at: keyed (tenant_id, id). */
export interface Keyed {
  tenantId: AnyPgColumn;
  id: AnyPgColumn;
}

type FieldsOf<R extends ResourceDef> = R extends { literalFields?: infer L extends readonly FieldDef[] } ? L[number] : R['fields'][number];

/** The column builder a field type gives (the same choice as columnOf below, for the type system). */
type BuilderOf<F extends FieldDef> = F['type'] extends 'MONEY' | 'REFERENCE'
  ? PgIntegerBuilderInitial<''>
  : F['type'] extends 'NUMBER'
    ? F extends { integer: true }
      ? PgIntegerBuilderInitial<''>
      : PgNumericBuilderInitial<''>
    : F['type'] extends 'DATE'
      ? PgDateStringBuilderInitial<''>
      : F['type'] extends 'TIME'
        ? ReturnType<typeof wallTime>
        : F['type'] extends 'INSTANT'
          ? PgTimestampBuilderInitial<''>
          : F['type'] extends 'BOOLEAN'
            ? PgBooleanBuilderInitial<''>
            : F['type'] extends 'MULTIPLE_CHOICE' | 'WEEKDAYS' | 'DATES' | 'OPTIONS' | 'CUSTOM_VALUES'
              ? PgJsonbBuilderInitial<''>
              : PgTextBuilderInitial<'', [string, ...string[]]>;
type Required_<F extends FieldDef, B extends ColumnBuilderBase> = F extends { default: NonNullable<unknown> }
  ? HasDefault<NotNull<B>>
  : F extends { required: true }
    ? NotNull<B>
    : B;

/** The drizzle columns of a declaration: the key columns, rowMeta() and one per declared field. */
export type DeclaredColumns<R extends ResourceDef> = {
  tenantId: ReturnType<typeof tenantId>;
  id: ReturnType<typeof id>;
  search: ReturnType<typeof search>;
} & ReturnType<typeof rowMeta> & {
    [F in Exclude<FieldsOf<R>, { type: 'REFERENCES' | 'PASSWORD' }> as Camel<F['name']>]: Required_<F, BuilderOf<F>>;
  };

function columnOf(field: FieldDef): PgColumnBuilderBase {
  const name = field.name;
  const built = (() => {
    switch (storedAs(field)) {
      case 'integer':
        return integer(name);
      case 'numeric':
        return numeric(name, { mode: 'number' });
      case 'date':
        return date(name, { mode: 'string' });
      case 'time':
        return wallTime(name);
      case 'timestamp':
        return instant(name);
      case 'boolean':
        return boolean(name);
      case 'jsonb':
        return jsonb(name);
      case 'text':
        return text(name);
      default:
        throw new Error(`${field.name}: a ${field.type} field needs a hand-written table and spec`);
    }
  })();
  if (isNullable(field)) return built;
  const required = built.notNull();
  if (field.default === undefined) return required;
  // A declared default is a value of the field's type (the domain's createSchema checks it so).
  return (required as { default(value: unknown): PgColumnBuilderBase }).default(field.default);
}

/** The SQL name of a resource's table: `class-categories` -> `class_categories`. */
export const tableNameOf = (def: Pick<ResourceDef, 'name'>) => def.name.replaceAll('-', '_');

/**
 * The table of a plain resource. `references` names the table behind each REFERENCE field's
 * resource (a function, so tables may point at each other).
 */
export function declaredTable<const R extends ResourceDef>(def: R, references: Record<string, () => Keyed> = {}) {
  const name = tableNameOf(def);
  const columns: Record<string, PgColumnBuilderBase> = { tenantId: tenantId(), id: id() };
  for (const field of def.fields) columns[propertyOf(field.name)] = columnOf(field);
  Object.assign(columns, { search: search() }, rowMeta());
  const refs = def.fields.filter((f) => f.type === 'REFERENCE');
  const named = def.fields.some((f) => f.name === 'name');
  // The columns' static type follows from the declaration's literal fields (DeclaredColumns),
  // which the loop above builds one by one; TypeScript cannot follow a loop, hence the cast.
  return pgTable(name, columns as DeclaredColumns<R>, (t) => {
    const cols: Record<string, AnyPgColumn> = t;
    const at = (field: string) => cols[propertyOf(field)]!;
    return [
      primaryKey({ columns: [cols.tenantId!, cols.id!] }),
      ...(named ? [index(`${name}_name_idx`).on(cols.tenantId!, at('name'))] : []),
      ...refs.flatMap((f) => {
        const target = f.reference ? references[f.reference] : undefined;
        if (!target) throw new Error(`${def.name}.${f.name}: name the table of ${f.reference} in declaredTable's references`);
        const base = f.name.replace(/_id$/, '');
        return [
          index(`${name}_${base}_idx`).on(cols.tenantId!, at(f.name)),
          // No cascade: a row in use is refused (409 in-use) rather than emptied.
          foreignKey({ columns: [cols.tenantId!, at(f.name)], foreignColumns: [target().tenantId, target().id] }),
        ];
      }),
    ];
  });
}
