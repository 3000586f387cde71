/**
 * Writes of a resource: create, update (optimistic version), delete, each with its history
 * in the same transaction. References are checked against the tenant's rows first, so an
 * unknown or foreign id is a 400 on that field rather than a constraint error.
 */
import { and, eq, getTableColumns, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { can, DomainError, normalizeSearch, RESOURCE_AREA, type FieldErrors } from '../../domain/index';
import type { Tx } from '../db/types';
import { enterTenant } from '../db/doors';
import { pgCode, pgConstraint } from '../plugins/errors';
import { customRecordsPointingAt } from './values/references';
import { recordHistory, recordHistoryMany, type HistoryEntry } from './history';
import { findRow } from './read';
import { assertVersion, inUse } from './store';
import type { Registry } from './registry';
import type { Ctx, Data, Link, ResourceSpec } from './spec';
import { ownRows, tableColumns } from './table';

/** The history's view of a row: its own fields, without labels, instants or version. */
export function historyView(spec: ResourceSpec, data: Record<string, unknown>): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const field of spec.def.fields) {
    if (field.writeOnly || spec.computed?.[field.name]) continue;
    if (field.name in data) view[field.name] = data[field.name];
  }
  return view;
}

/** normalizeSearch over the searchable (non-list) fields of the row as it will be stored. */
export function searchText(spec: ResourceSpec, data: Record<string, unknown>): string {
  const parts = spec.def.fields
    .filter((f) => f.searchable && f.type !== 'REFERENCES')
    .map((f) => data[f.name])
    .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
  return normalizeSearch(parts.join(' '));
}

/** Column values (by drizzle property) for the plain fields present in the input. */
export function columnValues(spec: ResourceSpec, input: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const cols = tableColumns(spec.table);
  const values: Record<string, unknown> = {};
  for (const field of spec.def.fields) {
    if (field.readOnly || field.type === 'REFERENCES' || !(field.name in input)) continue;
    const key = cols.keyOf[spec.secrets?.[field.name]?.column ?? field.name];
    if (key && !spec.computed?.[field.name]) values[key] = input[field.name];
  }
  for (const [name, value] of Object.entries(extra)) {
    const key = cols.keyOf[name];
    if (!key) throw new Error(`${spec.def.name} has no column ${name}`);
    values[key] = value;
  }
  return values;
}

/**
 * Which rows of `resource` the writer may name: those it may read (its scope), nothing when
 * its role reads none of them. A reference outside is answered as if the row did not exist,
 * so a write never tells anyone about a row they may not read (not even that it exists).
 */
function readableBy(registry: Registry, ctx: Ctx, resource: string): SQL | undefined | false {
  const spec = registry.specs.get(resource);
  if (!spec || !ctx.actor) return undefined;
  if (!can(ctx.actor.role, RESOURCE_AREA[resource] ?? spec.def.area, 'read') && !spec.scope) return false;
  return spec.scope?.(ctx);
}

/**
 * Records a write where the resource's history lives (a platform row: in its tenant, entered
 * for that, so this comes last). A write-only field the input carried is recorded as changed,
 * never with its value.
 */
async function record(tx: Tx, ctx: Ctx, spec: ResourceSpec, row: Data, entry: HistoryEntry, input?: Record<string, unknown>) {
  const secrets = spec.def.fields.filter((f) => f.writeOnly).map((f) => f.name);
  const after = entry.after ? { ...entry.after } : entry.after;
  if (input && after) for (const name of secrets) if (name in input) after[name] = true;
  let tenantId = ctx.tenantId;
  if (spec.def.scope === 'platform') {
    tenantId = spec.historyTenant?.(ctx, row) ?? ctx.tenantId;
    await enterTenant(tx, tenantId);
  }
  await recordHistory(tx, tenantId, ctx.actor, { ...entry, after, secrets });
}

/**
 * Every REFERENCE / REFERENCES value of the input that is new must name a row of this tenant
 * (and not a deleted one) that the writer may read: one query per target, all failures
 * reported together.
 */
export async function checkReferences(tx: Tx, registry: Registry, ctx: Ctx, spec: ResourceSpec, inputs: Record<string, unknown>[]) {
  const wanted = new Map<string, Set<number>>();
  for (const field of spec.def.fields) {
    if (!field.reference || field.readOnly || !registry.targets.has(field.reference)) continue;
    for (const input of inputs) {
      const v = input[field.name];
      const ids = Array.isArray(v) ? v : typeof v === 'number' ? [v] : [];
      if (!ids.length) continue;
      const set = wanted.get(field.reference) ?? new Set<number>();
      for (const id of ids) set.add(id as number);
      wanted.set(field.reference, set);
    }
  }
  const existing = new Map<string, Set<number>>();
  for (const [resource, ids] of wanted) {
    const target = registry.targets.get(resource)!;
    const visible = readableBy(registry, ctx, resource);
    const rows =
      visible === false
        ? []
        : ((await tx
            .select({ id: target.id })
            .from(target.table)
            .where(and(eq(target.tenantId, ctx.tenantId), inArray(target.id, [...ids]), target.deletedAt ? isNull(target.deletedAt) : undefined, visible))) as {
            id: number;
          }[]);
    existing.set(resource, new Set(rows.map((r) => r.id)));
  }
  return inputs.map((input) => {
    const fields: FieldErrors = {};
    for (const field of spec.def.fields) {
      if (!field.reference || field.readOnly || !existing.has(field.reference)) continue;
      const v = input[field.name];
      const ids = Array.isArray(v) ? v : typeof v === 'number' ? [v] : [];
      if (ids.some((id) => !existing.get(field.reference!)!.has(id as number))) fields[field.name] = 'invalid';
    }
    return fields;
  });
}

/** Only the references that change need to exist now: an unchanged one may be a deleted teacher. */
function changedReferences(spec: ResourceSpec, input: Record<string, unknown>, before: Data | null) {
  const out: Record<string, unknown> = {};
  for (const field of spec.def.fields) {
    if (!field.reference || !(field.name in input)) continue;
    const v = input[field.name];
    if (!before) out[field.name] = v;
    else if (Array.isArray(v)) {
      const old = new Set((before[field.name] as number[] | undefined) ?? []);
      out[field.name] = v.filter((id) => !old.has(id));
    } else if (v !== before[field.name]) out[field.name] = v;
  }
  return out;
}

async function assertReferences(tx: Tx, registry: Registry, ctx: Ctx, spec: ResourceSpec, input: Record<string, unknown>, before: Data | null) {
  const [fields] = await checkReferences(tx, registry, ctx, spec, [changedReferences(spec, input, before)]);
  if (fields && Object.keys(fields).length) {
    throw new DomainError('validation', 'A referenced record does not exist.', fields, { details: { reason: 'reference-missing' } });
  }
}

/** Replaces the join rows of the REFERENCES fields present in the input. */
async function writeLinks(tx: Tx, ctx: Ctx, spec: ResourceSpec, ownerId: number, input: Record<string, unknown>, isNew: boolean) {
  for (const [name, link] of Object.entries(spec.links ?? {})) {
    if (!(name in input)) continue;
    const ids = (input[name] as number[] | null) ?? [];
    if (!isNew) await tx.delete(link.table).where(and(eq(link.tenantId, ctx.tenantId), eq(link.owner, ownerId)));
    if (ids.length) {
      await tx.insert(link.table).values(ids.map((other) => linkRow(link, ctx.tenantId, ownerId, other)));
    }
  }
}

const propOf = (link: Link, which: 'tenantId' | 'owner' | 'other') => {
  const key = Object.entries(getTableColumns(link.table)).find(([, column]) => column === link[which])?.[0];
  if (!key) throw new Error('link column not in its table');
  return key;
};

/** One join row, as drizzle's insert takes it. */
export const linkRow = (link: Link, tenantId: number, owner: number, other: number) => ({
  [propOf(link, 'tenantId')]: tenantId,
  [propOf(link, 'owner')]: owner,
  [propOf(link, 'other')]: other,
});

const mustFind = async (tx: Tx, registry: Registry, ctx: Ctx, spec: ResourceSpec, id: number) => {
  const row = await findRow(tx, registry, ctx, spec, id);
  if (!row) throw new Error(`${spec.def.name} ${id} vanished inside its own transaction`);
  return row;
};

export async function createRow(tx: Tx, registry: Registry, ctx: Ctx, spec: ResourceSpec, input: Record<string, unknown>): Promise<Data> {
  const cols = tableColumns(spec.table);
  await spec.lockWrites?.(tx, ctx);
  await assertReferences(tx, registry, ctx, spec, input, null);
  const extra = (await spec.beforeWrite?.({ tx, ctx, registry, input, before: null })) ?? {};
  const values = columnValues(spec, input, extra);
  if (cols.tenantId) values[cols.keyOf.tenant_id!] = ctx.tenantId;
  const [row] = (await tx
    .insert(spec.table)
    .values({ ...values, [cols.keyOf.search!]: searchText(spec, { ...input, ...extra }) })
    .returning({ id: cols.id })
    .catch((error: unknown) => {
      throw uniqueTaken(spec, error);
    })) as { id: number }[];
  const id = row!.id;
  await writeLinks(tx, ctx, spec, id, input, true);
  const after = await mustFind(tx, registry, ctx, spec, id);
  await spec.afterWrite?.({ tx, ctx, registry, input, before: null, after });
  await record(tx, ctx, spec, after, { entity: spec.def.name, entityId: id, action: 'create', after: historyView(spec, after) }, input);
  return after;
}

/** A unique constraint of the spec names the field that is taken (409 conflict). */
export function uniqueTaken(spec: ResourceSpec, error: unknown): unknown {
  const field = pgCode(error) === '23505' ? spec.unique?.[pgConstraint(error) ?? ''] : undefined;
  return field ? new DomainError('conflict', `This ${field} is taken.`, { [field]: 'taken' }, { details: { reason: 'taken', field } }) : error;
}

/** Loads the row under a lock, or 404; also 404 when the caller's scope hides it. */
export async function lockRow(tx: Tx, registry: Registry, ctx: Ctx, spec: ResourceSpec, id: number): Promise<Data> {
  const before = await findRow(tx, registry, ctx, spec, id, true);
  if (!before) throw new DomainError('not-found');
  return before;
}

export async function updateRow(
  tx: Tx,
  registry: Registry,
  ctx: Ctx,
  spec: ResourceSpec,
  id: number,
  input: Record<string, unknown>,
  version: number | undefined,
  /** A deactivation is recorded as the row's delete. */
  action: 'update' | 'delete' = 'update',
): Promise<Data> {
  const cols = tableColumns(spec.table);
  await spec.lockWrites?.(tx, ctx);
  const before = await lockRow(tx, registry, ctx, spec, id);
  spec.canWrite?.(ctx, before, input);
  assertVersion(before, version);
  if (before.deleted === true) throw new DomainError('conflict', 'This record was deleted.', undefined, { details: { reason: 'record-deleted' } });
  await assertReferences(tx, registry, ctx, spec, input, before);
  const extra = (await spec.beforeWrite?.({ tx, ctx, registry, input, before })) ?? {};
  const values = columnValues(spec, input, extra);
  await tx
    .update(spec.table)
    .set({
      ...values,
      [cols.keyOf.search!]: searchText(spec, { ...before, ...input, ...extra }),
      [cols.keyOf.version!]: sql`${cols.version} + 1`,
      [cols.keyOf.updated_at!]: sql`now()`,
    })
    .where(and(ownRows(cols, ctx.tenantId), eq(cols.id, id)))
    .catch((error: unknown) => {
      throw uniqueTaken(spec, error);
    });
  await writeLinks(tx, ctx, spec, id, input, false);
  const after = await mustFind(tx, registry, ctx, spec, id);
  await spec.afterWrite?.({ tx, ctx, registry, input, before, after });
  await record(
    tx,
    ctx,
    spec,
    after,
    { entity: spec.def.name, entityId: id, action, before: historyView(spec, before), after: historyView(spec, after) },
    input,
  );
  return after;
}

/**
 * Refuses (409 in-use) while a REFERENCE of another row points here, naming by what; then
 * removes the REFERENCES links to it, recording an update in each owner's history.
 */
export async function releaseReferences(tx: Tx, registry: Registry, ctx: Ctx, spec: ResourceSpec, id: number) {
  // Resource name -> rows pointing here (two fields of one resource add up).
  const uses: Record<string, number> = {};
  for (const { spec: other, field } of registry.blockers.get(spec.def.name) ?? []) {
    const oc = tableColumns(other.table);
    const column = oc.byName[field]!;
    const [row] = (await tx
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(other.table)
      .where(and(ownRows(oc, ctx.tenantId), eq(column, id)))) as { n: number }[];
    if (row && row.n > 0) uses[other.def.name] = (uses[other.def.name] ?? 0) + row.n;
  }
  // Records of custom entities keep what their REFERENCE fields point at, too.
  Object.assign(uses, await customRecordsPointingAt(tx, ctx.tenantId, spec.def.name, id));
  const refused = inUse(uses);
  if (refused) throw refused;
  for (const { spec: owner, field, link } of registry.links.get(spec.def.name) ?? []) {
    const holders = (await tx
      .select({ owner: link.owner })
      .from(link.table)
      .where(and(eq(link.tenantId, ctx.tenantId), eq(link.other, id)))) as { owner: number }[];
    if (!holders.length) continue;
    const ownerIds = holders.map((h) => h.owner);
    const all = (await tx
      .select({ owner: link.owner, other: link.other })
      .from(link.table)
      .where(and(eq(link.tenantId, ctx.tenantId), inArray(link.owner, ownerIds)))
      .orderBy(link.owner, link.other)) as { owner: number; other: number }[];
    await tx.delete(link.table).where(and(eq(link.tenantId, ctx.tenantId), eq(link.other, id)));
    // The owner's list changed, so its version moves on too: a form opened before is stale.
    const oc = tableColumns(owner.table);
    await tx
      .update(owner.table)
      .set({ [oc.keyOf.version!]: sql`${oc.version} + 1`, [oc.keyOf.updated_at!]: sql`now()` })
      .where(and(ownRows(oc, ctx.tenantId), inArray(oc.id, ownerIds)));
    // One statement for every owner: a tag may sit on hundreds of lessons.
    await recordHistoryMany(
      tx,
      ctx.tenantId,
      ctx.actor,
      ownerIds.map((ownerId) => {
        const before = all.filter((p) => p.owner === ownerId).map((p) => p.other);
        return {
          entity: owner.def.name,
          entityId: ownerId,
          action: 'update' as const,
          before: { [field]: before },
          after: { [field]: before.filter((other) => other !== id) },
        };
      }),
    );
  }
}

export async function deleteRow(tx: Tx, registry: Registry, ctx: Ctx, spec: ResourceSpec, id: number, options: Record<string, unknown>) {
  await spec.lockWrites?.(tx, ctx);
  const before = await lockRow(tx, registry, ctx, spec, id);
  spec.canWrite?.(ctx, before);
  if (spec.remove) return spec.remove(tx, ctx, before, options, registry);
  if (spec.deactivates) {
    if (before.status !== 'INACTIVE') await updateRow(tx, registry, ctx, spec, id, { status: 'INACTIVE' }, undefined, 'delete');
    return;
  }
  await releaseReferences(tx, registry, ctx, spec, id);
  const cols = tableColumns(spec.table);
  await tx.delete(spec.table).where(and(ownRows(cols, ctx.tenantId), eq(cols.id, id)));
  await record(tx, ctx, spec, before, { entity: spec.def.name, entityId: id, action: 'delete', before: historyView(spec, before) });
}
