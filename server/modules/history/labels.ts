/**
 * Names for the ids a history entry holds: a change of teacher_id 3 -> 5 is shown as the two
 * teachers' names, a change of subject_ids as two lists of names. Labels are read as the
 * records are now (a renamed subject shows its new name); a record deleted since, or kept
 * only for history, comes back as {id, name: null, deleted: true}. One statement per
 * referenced resource for the whole page, never one per entry.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { type FieldDef, RESOURCES } from '../../../domain/index';
import type { ReferenceLabel } from '../../../domain/references';
import type { Tx } from '../../db/types';
import type { FieldChange } from '../../db/schema/index';
import type { Registry } from '../../engine/registry';
import { labelScope, scopedName } from '../../engine/read';
import type { Ctx } from '../../engine/spec';
import { labelRecordChanges } from '../../engine/values/store';

/** What a REFERENCE change carries beside its ids: one label per side, a list for REFERENCES. */
export type ChangeLabels = { old: ReferenceLabel | ReferenceLabel[] | null; new: ReferenceLabel | ReferenceLabel[] | null };
export type LabelledChange = FieldChange & { labels?: ChangeLabels };

const idsIn = (value: unknown): number[] =>
  typeof value === 'number' ? [value] : Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : [];

/** The entity's reference fields whose target has labels. */
function referenceFields(registry: Registry, entity: string): FieldDef[] {
  // The registry's own declaration first: it also holds resources declared beside the domain's (BuildOptions.resources).
  const def = registry.specs.get(entity)?.def ?? RESOURCES[entity];
  if (!def) return [];
  return def.fields.filter((f) => (f.type === 'REFERENCE' || f.type === 'REFERENCES') && f.reference && registry.targets.has(f.reference));
}

/** Adds `labels: {old, new}` to each REFERENCE or REFERENCES change of these entries. */
export async function labelChanges(
  tx: Tx,
  registry: Registry,
  tenantId: number,
  entity: string,
  entries: readonly { changes: Record<string, LabelledChange> }[],
  /** The reader: labels of rows it may not read by name come back without one (labelScope). */
  ctx?: Ctx,
): Promise<void> {
  // A custom entity's records: their fields are the entity's definition of today.
  if (entity.startsWith('custom:')) return labelRecordChanges(tx, registry, tenantId, entity.slice(7), entries, ctx);
  const fields = referenceFields(registry, entity);
  if (!fields.length || !entries.length) return;

  const wanted = new Map<string, Set<number>>();
  for (const field of fields) {
    for (const entry of entries) {
      const change = entry.changes?.[field.name];
      if (!change) continue;
      const ids = wanted.get(field.reference!) ?? new Set<number>();
      for (const id of [...idsIn(change.old), ...idsIn(change.new)]) ids.add(id);
      wanted.set(field.reference!, ids);
    }
  }

  const found = new Map<string, Map<number, ReferenceLabel>>();
  for (const [resource, ids] of wanted) {
    const target = registry.targets.get(resource)!;
    const byId = new Map<number, ReferenceLabel>();
    found.set(resource, byId);
    if (!ids.size) continue;
    const rows = (await tx
      .select({
        id: target.id,
        name: scopedName(target.label, labelScope(registry, ctx, resource)),
        deleted: target.deletedAt ? sql<boolean>`(${target.deletedAt} is not null)` : sql<boolean>`false`,
      })
      .from(target.table)
      .where(and(eq(target.tenantId, tenantId), inArray(target.id, [...ids])))) as { id: number; name: string | null; deleted: boolean }[];
    for (const r of rows) byId.set(r.id, r.deleted ? { id: r.id, name: null, deleted: true } : { id: r.id, name: r.name });
  }

  for (const field of fields) {
    const byId = found.get(field.reference!);
    const label = (id: number): ReferenceLabel => byId?.get(id) ?? { id, name: null, deleted: true };
    const side = (value: unknown): ChangeLabels['old'] => {
      if (field.type === 'REFERENCES') return Array.isArray(value) ? idsIn(value).map(label) : null;
      return typeof value === 'number' ? label(value) : null;
    };
    for (const entry of entries) {
      const change = entry.changes?.[field.name];
      if (change) change.labels = { old: side(change.old), new: side(change.new) };
    }
  }
}
