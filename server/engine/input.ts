/**
 * A write's input before the store takes it: defaults on create, cleared defaults refused on
 * update, and the slow work (password hashing) done before the transaction opens.
 */
import { DomainError, type FieldErrors, type ResourceDef } from '../../domain/index';
import type { ResourceSpec } from './spec';

/** Omitted or null fields that have a default take it on create (status ACTIVE, custom_fields {}). */
export function withDefaults(def: ResourceDef, input: Record<string, unknown>): Record<string, unknown> {
  const out = { ...input };
  for (const f of def.fields) {
    if (f.default !== undefined && (out[f.name] === undefined || out[f.name] === null)) out[f.name] = structuredClone(f.default);
  }
  return out;
}

/** A field with a default is never empty: clearing it on update is refused rather than stored as null. */
export function refuseClearedDefaults(def: ResourceDef, input: Record<string, unknown>) {
  const fields: FieldErrors = {};
  for (const f of def.fields) if (f.default !== undefined && input[f.name] === null) fields[f.name] = 'required';
  if (Object.keys(fields).length) throw new DomainError('validation', undefined, fields);
}

/** Slow work before the transaction opens: the secrets' transformations, then the spec's own. */
export async function prepareInput(spec: ResourceSpec, input: Record<string, unknown>, action: 'create' | 'update'): Promise<Record<string, unknown>> {
  const out = { ...input };
  for (const [name, secret] of Object.entries(spec.secrets ?? {})) {
    if (out[name] !== undefined && out[name] !== null) out[name] = await secret.prepare(out[name]);
  }
  return spec.prepare ? spec.prepare(out, action) : out;
}
