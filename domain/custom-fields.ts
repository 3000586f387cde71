import { z } from 'zod';
import type { CustomFieldType } from './enums';
import { fieldSchema, type FieldDef } from './fields';

// Custom fields and custom entities are defined at run time; they
// become ordinary FieldDefs, so the registry that validates, filters and renders built-in
// fields does the same for them.
export interface CustomFieldDefinition {
  key: string;
  label: string;
  type: CustomFieldType | 'BOOLEAN';
  options?: readonly string[] | null;
  required?: boolean | null;
}

const TYPE_OF: Record<CustomFieldDefinition['type'], FieldDef['type']> = {
  TEXT: 'TEXT',
  NUMBER: 'NUMBER',
  DATE: 'DATE',
  SINGLE_CHOICE: 'SINGLE_CHOICE',
  MULTIPLE_CHOICE: 'MULTIPLE_CHOICE',
  BOOLEAN: 'BOOLEAN',
};

export function customFieldDef(def: CustomFieldDefinition): FieldDef {
  return {
    name: def.key,
    type: TYPE_OF[def.type],
    label: def.label,
    required: def.required ?? false,
    options: def.options ?? undefined,
    max: def.type === 'TEXT' ? 500 : undefined,
    sortable: def.type !== 'MULTIPLE_CHOICE',
    filterable: true,
  };
}

/** A choice type needs at least one option; other types take none. */
export function definitionProblem(def: CustomFieldDefinition): Record<string, 'required' | 'invalid'> | null {
  const choice = def.type === 'SINGLE_CHOICE' || def.type === 'MULTIPLE_CHOICE';
  if (choice && !def.options?.length) return { options: 'required' };
  if (!choice && def.options?.length) return { options: 'invalid' };
  return null;
}

/**
 * The object's own properties on an object without a prototype, so that a key such as
 * `constructor` (refused today, but maybe stored before) reads as absent rather than as
 * Object.prototype's function.
 */
const ownProperties = (value: unknown): unknown =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.assign(Object.create(null), value) : value;

/** Validates a whole custom-values object: known keys only, each value by its definition. */
export function customValuesSchema(defs: readonly CustomFieldDefinition[]) {
  const shape: Record<string, z.ZodType> = Object.create(null);
  for (const def of defs) {
    const v = fieldSchema(customFieldDef(def));
    shape[def.key] = def.required ? v : v.nullable().optional();
  }
  return z.preprocess(ownProperties, z.strictObject(shape));
}

/**
 * Whether every stored value still fits a changed definition. A change that fails this is
 * refused (409 in-use): no stored value is ever dropped or mangled.
 */
export function storedValuesFit(def: CustomFieldDefinition, stored: readonly unknown[]): boolean {
  const v = fieldSchema(customFieldDef(def));
  const schema = def.required ? v : v.nullable().optional();
  return stored.every((value) => schema.safeParse(value).success);
}
