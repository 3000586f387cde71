/**
 * Students' custom_fields: validated against the tenant's definitions on every write that
 * sends them, and filtered or sorted only by keys the tenant has defined (checked at request
 * time; the key reaches SQL only as a bound parameter).
 */
import { or, sql, type SQL } from 'drizzle-orm';
import {
  customFieldDef,
  customValuesSchema,
  DomainError,
  zodIssuesToFields,
  type CustomFieldDefinition,
  type FieldDef,
  type FieldErrors,
  type ListQuery,
} from '../../../domain/index';
import { students } from '../../db/schema/index';
import { likePattern } from '../../engine/list-query';

export const PREFIX = 'custom_fields.';

/** The validated values, or the field errors named `custom_fields.<key>`. */
export function checkCustomValues(
  defs: readonly CustomFieldDefinition[],
  value: unknown,
): { ok: true; value: Record<string, unknown> } | { ok: false; fields: FieldErrors } {
  const result = customValuesSchema(defs).safeParse(value ?? {}, { reportInput: true });
  if (result.success) {
    // Absent and null mean the same: keep the stored object free of nulls.
    const clean = Object.fromEntries(Object.entries(result.data as Record<string, unknown>).filter(([, v]) => v !== null && v !== undefined));
    return { ok: true, value: clean };
  }
  const fields: FieldErrors = Object.create(null);
  for (const [name, code] of Object.entries(zodIssuesToFields(result.error.issues))) {
    fields[name === '_' ? 'custom_fields' : `${PREFIX}${name}`] = code;
  }
  // A refusal always names a field, so no caller mistakes it for a pass.
  if (Object.keys(fields).length === 0) fields.custom_fields = 'invalid';
  return { ok: false, fields };
}

export function assertCustomValues(defs: readonly CustomFieldDefinition[], value: unknown): Record<string, unknown> {
  const checked = checkCustomValues(defs, value);
  if (!checked.ok) throw new DomainError('validation', undefined, checked.fields);
  return checked.value;
}

const textual = (def: CustomFieldDefinition) => def.type === 'TEXT' || def.type === 'SINGLE_CHOICE' || def.type === 'DATE';

/** jsonb for numbers and booleans (compare as such), text for the rest. */
const valueOf = (def: CustomFieldDefinition): SQL =>
  textual(def) ? sql`(${students.customFields} ->> ${def.key}::text)` : sql`(${students.customFields} -> ${def.key}::text)`;
const literal = (def: CustomFieldDefinition, v: unknown): SQL => (textual(def) ? sql`${String(v)}::text` : sql`${JSON.stringify(v)}::jsonb`);

export function customListExtras(defs: readonly CustomFieldDefinition[]) {
  const byName = new Map(defs.map((d) => [`${PREFIX}${d.key}`, d]));
  const fields: FieldDef[] = defs.map((d) => ({ ...customFieldDef(d), name: `${PREFIX}${d.key}` }));
  const sorts: Record<string, SQL> = {};
  for (const [name, def] of byName) if (def.type !== 'MULTIPLE_CHOICE') sorts[name] = valueOf(def);
  return {
    fields,
    sorts,
    where(query: ListQuery): SQL[] {
      const out: SQL[] = [];
      for (const filter of query.filters) {
        const def = byName.get(filter.field);
        if (!def) continue;
        const column = valueOf(def);
        if (def.type === 'MULTIPLE_CHOICE') {
          // "holds any of the values"
          out.push(or(...filter.values.map((v) => sql`(${students.customFields} -> ${def.key}::text) @> ${JSON.stringify([v])}::jsonb`))!);
          continue;
        }
        const values = filter.values.map((v) => literal(def, v));
        switch (filter.op) {
          case 'eq':
            out.push(sql`${column} in (${sql.join(values, sql`, `)})`);
            break;
          case 'ne':
            out.push(sql`(${column} is null or ${column} not in (${sql.join(values, sql`, `)}))`);
            break;
          case 'gte':
            for (const v of values) out.push(sql`${column} >= ${v}`);
            break;
          case 'lte':
            for (const v of values) out.push(sql`${column} <= ${v}`);
            break;
          case 'like':
            out.push(or(...filter.values.map((v) => sql`${column} ilike ${likePattern(String(v))}`))!);
            break;
        }
      }
      return out;
    },
  };
}
