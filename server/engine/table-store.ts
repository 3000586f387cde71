/**
 * The table store: a built-in resource's rows in its own table (drizzle), read and written
 * through read.ts, list.ts and write.ts with the spec's hooks.
 */
import { createSchema, narrowRow, readableFields, type FieldErrors, type JsonSchema, zodIssuesToFields } from '../../domain/index';
import type { Tx } from '../db/types';
import { formBody } from './body';
import { createMany, removeCreated } from './bulk';
import { withDefaults } from './input';
import { listRows } from './list';
import { findRow } from './read';
import type { Ctx, Data, Registry, ResourceSpec } from './spec';
import { type CheckedRows, importRefused, type ImportReport, type RecordStore } from './store';
import { checkReferences, createRow, deleteRow, updateRow } from './write';

export function tableStore(tx: Tx, registry: Registry, ctx: Ctx, spec: ResourceSpec, row: JsonSchema): RecordStore {
  // A role that reads only some fields receives only those, whatever the answer (ResourceDef.narrowFor).
  const role = ctx.actor?.role;
  const narrowed = readableFields(spec.def, role) !== undefined;
  const narrow = <T extends Data>(data: T): T => (narrowed ? narrowRow(spec.def, role, data) : data);
  return {
    row,
    list: async (query) => {
      // What such a role may not read is cut here from rows, so only the others' pages come as the database writes them.
      const page = await listRows(tx, registry, ctx, spec, query, { json: !narrowed });
      if (!narrowed) return page;
      // Sums are of values such a role does not read.
      return { data: page.data.map(narrow), total: page.total };
    },
    find: async (id) => {
      const found = await findRow(tx, registry, ctx, spec, id);
      return found && narrow(found);
    },
    create: async (input) => narrow(await createRow(tx, registry, ctx, spec, input)),
    update: async (id, input, version) => narrow(await updateRow(tx, registry, ctx, spec, id, input, version)),
    remove: (id, options) => deleteRow(tx, registry, ctx, spec, id, options),
    // Only resources with no slow preparation of their input (no secrets) import: each row is a create as POST makes it.
    importRows: spec.importable ? (rows, options) => importRows(tx, registry, ctx, spec, rows, options) : undefined,
    // in parts (a long import worked in the background): only where rows go in bulk, with no hook per row
    ...(spec.importable && spec.imports?.bulk
      ? {
          importCheck: (rows: readonly unknown[], first: number) => checkImport(tx, registry, ctx, spec, rows, first),
          importCreate: (inputs: readonly Record<string, unknown>[]) => createMany(tx, ctx, spec, inputs),
          importUndo: (ids: readonly number[]) => removeCreated(tx, ctx, spec, ids),
        }
      : {}),
  };
}

async function importRows(
  tx: Tx,
  registry: Registry,
  ctx: Ctx,
  spec: ResourceSpec,
  rows: readonly unknown[],
  options: { skip_invalid?: boolean; dry_run?: boolean },
): Promise<ImportReport> {
  const { valid, errors } = await checkImport(tx, registry, ctx, spec, rows, 0);
  if (errors.length && !options.skip_invalid) throw importRefused(errors);
  if (options.dry_run || !valid.length) return { created: valid.length, skipped: errors.length, errors };
  if (spec.imports?.bulk) await createMany(tx, ctx, spec, valid);
  else for (const input of valid) await createRow(tx, registry, ctx, spec, input);
  return { created: valid.length, skipped: errors.length, errors };
}

/** Checks rows of an import (`first`: the first one's place among all rows): the valid inputs, and each refused row's fields, in order. */
async function checkImport(tx: Tx, registry: Registry, ctx: Ctx, spec: ResourceSpec, rows: readonly unknown[], first: number): Promise<CheckedRows> {
  const body = formBody(spec.def, createSchema(spec.def));
  const errors: ImportReport['errors'] = [];
  const parsed: { row: number; input: Record<string, unknown> }[] = [];
  rows.forEach((raw, i) => {
    const row = first + i;
    const result = body.safeParse(raw, { reportInput: true });
    if (result.success) parsed.push({ row, input: withDefaults(spec.def, result.data as Record<string, unknown>) });
    else errors.push({ row, fields: zodIssuesToFields(result.error.issues) });
  });
  const references = await checkReferences(
    tx,
    registry,
    ctx,
    spec,
    parsed.map((p) => p.input),
  );
  // The spec's own check (students: custom fields), loaded once for every row.
  const check = await spec.imports?.check?.(tx, ctx);
  const valid: Record<string, unknown>[] = [];
  parsed.forEach((p, i) => {
    const fields: FieldErrors = { ...references[i] };
    let input = p.input;
    const own = check?.(input);
    if (own?.ok) input = own.value;
    else if (own) Object.assign(fields, own.fields);
    if (Object.keys(fields).length) errors.push({ row: p.row, fields });
    else valid.push(input);
  });
  errors.sort((a, b) => a.row - b.row);
  return { valid, errors };
}
