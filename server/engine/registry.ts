/**
 * All CRUD resources together, so each knows who points at it: a REFERENCE to a row blocks
 * its deletion (409 in-use), a REFERENCES link is removed with it (recorded in the owner's
 * history). Lessons and contracts join later by adding their specs; their rules follow.
 */
import { sortKey } from '../db/schema/columns';
import type { Registry, ResourceSpec } from './spec';
import { tableColumns } from './table';

export type { Registry } from './spec';

export function buildRegistry(specs: readonly ResourceSpec[]): Registry {
  const registry: Registry = { specs: new Map(), targets: new Map(), blockers: new Map(), links: new Map() };
  for (const spec of specs) {
    const cols = tableColumns(spec.table);
    // A reference names a row of the same tenant, so platform rows are never its target.
    if (!cols.tenantId) throw new Error(`${spec.def.name} belongs to no tenant and cannot be referenced`);
    registry.specs.set(spec.def.name, spec);
    registry.targets.set(spec.def.name, {
      table: spec.table,
      tenantId: cols.tenantId,
      id: cols.id,
      label: spec.label,
      labelSort: spec.labelSort ?? sortKey(spec.label),
      deletedAt: spec.deletedAt,
    });
  }
  for (const spec of specs) {
    for (const field of spec.def.fields) {
      if (!field.reference || !registry.specs.has(field.reference)) continue;
      if (field.type === 'REFERENCE') {
        const list = registry.blockers.get(field.reference) ?? [];
        list.push({ spec, field: field.name });
        registry.blockers.set(field.reference, list);
      } else if (field.type === 'REFERENCES') {
        const link = spec.links?.[field.name];
        if (!link) throw new Error(`${spec.def.name}.${field.name} has no join table`);
        const list = registry.links.get(field.reference) ?? [];
        list.push({ spec, field: field.name, link });
        registry.links.set(field.reference, list);
      }
    }
  }
  return registry;
}
