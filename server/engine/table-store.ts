/**
 * The table store: a built-in resource's rows in its own table (drizzle), read and written
 * through read.ts, list.ts and write.ts with the spec's hooks.
 */
import type { Tx } from '../db/client';
import { listRows } from './list';
import { findRow } from './read';
import type { Ctx, Registry, ResourceSpec } from './spec';
import type { RecordStore } from './store';
import { createRow, deleteRow, updateRow } from './write';
import type { JsonSchema } from '../../domain/index';

export function tableStore(tx: Tx, registry: Registry, ctx: Ctx, spec: ResourceSpec, row: JsonSchema): RecordStore {
  return {
    row,
    list: (query) => listRows(tx, registry, ctx, spec, query),
    find: (id) => findRow(tx, registry, ctx, spec, id),
    create: (input) => createRow(tx, registry, ctx, spec, input),
    update: (id, input, version) => updateRow(tx, registry, ctx, spec, id, input, version),
    remove: (id, options) => deleteRow(tx, registry, ctx, spec, id, options),
  };
}
