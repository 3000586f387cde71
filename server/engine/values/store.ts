/**
 * Custom entities' storage: definitions as rows with their fields in jsonb, records as a
 * jsonb object each, and the typed value index (custom_values) every filter and sort reads.
 * See docs/custom-entities.md for why the values are indexed in a side table.
 */
import { and, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import {
  type CustomEntity,
  type CustomEntityField,
  DomainError,
  entityFieldDef,
  type FieldErrors,
  fieldSchema,
  labelKey,
  normalizeSearch,
  type ReferenceLabel,
  type ResourceDef,
  runtimeDeclaration,
  sortKey,
  zodIssuesToFields,
} from '../../../domain/index';
import type { Tx } from '../../db/types';
import { sendsTogether } from '../../db/read-batch';
import { KeptStatements, writeStatement, writtenRows } from '../../db/statements';
import { sortKey as foldedKey } from '../../db/schema/columns';
import { customEntities, customRecords, customValues } from '../../db/schema/index';
import type { Registry } from '../registry';
import type { Ctx } from '../spec';
import { iso } from '../params';
import { labelScope, scopedName } from '../read';

export type EntityRow = typeof customEntities.$inferSelect;

/** A definition as the API answers it. */
export function entityAnswer(row: EntityRow) {
  return {
    id: row.id,
    slug: row.slug,
    name_el: row.nameEl,
    name_en: row.nameEn,
    name_plural_el: row.namePluralEl,
    name_plural_en: row.namePluralEn,
    description: row.description,
    icon: row.icon,
    group: row.group,
    fields: [...row.fields].sort((a, b) => a.position - b.position),
    version: row.version,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export const asEntity = (row: EntityRow): CustomEntity => entityAnswer(row) as CustomEntity;

export async function entityBySlug(tx: Tx, tenantId: number, slug: string): Promise<EntityRow | null> {
  const [row] = await tx
    .select()
    .from(customEntities)
    .where(and(eq(customEntities.tenantId, tenantId), eq(customEntities.slug, slug)));
  return row ?? null;
}

/** A definition row's columns under its property names, as a written read answers them. */
const ENTITY_SELECT = sql.raw(
  Object.entries(getTableColumns(customEntities))
    .map(([property, column]) => `"${column.name}" as "${property}"`)
    .join(', '),
);
const STAMP_SELECT = sql.raw(`id, version, updated_at as "updatedAt"`);

/** What changes whenever a definition does: every change of one raises its version. */
export type EntityStamp = Pick<EntityRow, 'id' | 'version' | 'updatedAt'>;
export const sameStamp = (a: EntityStamp, b: EntityStamp) => a.id === b.id && a.version === b.version && a.updatedAt.getTime() === b.updatedAt.getTime();

const entityReads = new KeptStatements(10_000);

/** A read of the centre's definition `slug`, its statement written once and sent again as it is (prepared where kept). */
async function keptRead<T>(tx: Tx, tenantId: number, slug: string, what: 'row' | 'stamp'): Promise<T | undefined> {
  const key = `${what}|${tenantId}|${slug}`;
  let statement = entityReads.get(key);
  if (!statement) {
    const select = what === 'row' ? ENTITY_SELECT : STAMP_SELECT;
    statement = entityReads.keep(key, writeStatement(sql`select ${select} from custom_entities where tenant_id = ${tenantId} and slug = ${slug}`));
  }
  const [row] = await writtenRows<T>(tx, statement);
  return row;
}

/**
 * entityBySlug, by a kept statement in a transaction of reads: the read a records route makes
 * when it holds no definition of the slug, or another than the database's.
 */
export async function keptEntityBySlug(tx: Tx, tenantId: number, slug: string): Promise<EntityRow | null> {
  // Elsewhere (a write's transaction) the driver answers instants as text: drizzle reads them.
  if (!sendsTogether(tx)) return entityBySlug(tx, tenantId, slug);
  return (await keptRead<EntityRow>(tx, tenantId, slug, 'row')) ?? null;
}

/** The stamp of the centre's definition `slug` (null: there is none), for a route that holds one. */
export async function entityStamp(tx: Tx, tenantId: number, slug: string): Promise<EntityStamp | null> {
  if (sendsTogether(tx)) return (await keptRead<EntityStamp>(tx, tenantId, slug, 'stamp')) ?? null;
  const [row] = await tx
    .select({ id: customEntities.id, version: customEntities.version, updatedAt: customEntities.updatedAt })
    .from(customEntities)
    .where(and(eq(customEntities.tenantId, tenantId), eq(customEntities.slug, slug)));
  return row ?? null;
}

/** The entity as a ResourceDef (what the list query and the answers are checked against). */
export const resourceOf = (entity: CustomEntity): ResourceDef => runtimeDeclaration(entity);

/** One field's value schema (as the registry validates it), nullable unless required. */
function valueSchema(f: CustomEntityField, required: boolean): z.ZodType {
  const v = fieldSchema(entityFieldDef(f));
  return required ? v : v.nullable().optional();
}

/** A form's '' for an optional field means no value. */
function blankToNull(fields: readonly CustomEntityField[], body: Record<string, unknown>) {
  const out = Object.assign(Object.create(null), body) as Record<string, unknown>;
  for (const f of fields) if (!f.required && typeof out[f.key] === 'string' && (out[f.key] as string).trim() === '') out[f.key] = null;
  return out;
}

/**
 * The validated values of a write: all fields on create (required ones present), the sent
 * ones on update (with `version`). Unknown names are refused with `unknown-field`.
 */
export function parseRecordBody(entity: CustomEntity, body: unknown, mode: 'create' | 'update'): { values: Record<string, unknown>; version?: number } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new DomainError('validation', 'The body must be a JSON object.', { _: 'invalid-type' });
  }
  const shape: Record<string, z.ZodType> = Object.create(null);
  for (const f of entity.fields) {
    shape[f.key] = mode === 'create' ? valueSchema(f, f.required) : f.required ? fieldSchema(entityFieldDef(f)).optional() : valueSchema(f, false);
  }
  if (mode === 'update') shape.version = z.number().int().min(0).max(2_147_483_647);
  const result = z.strictObject(shape).safeParse(blankToNull(entity.fields, body as Record<string, unknown>), { reportInput: true });
  if (!result.success) throw new DomainError('validation', undefined, zodIssuesToFields(result.error.issues));
  const { version, ...values } = result.data as Record<string, unknown> & { version?: number };
  return { values, version };
}

/** Stored form of the values: nulls left out, choices in the definition's order. */
export function cleanValues(entity: CustomEntity, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of entity.fields) {
    const v = values[f.key];
    if (v === null || v === undefined) continue;
    out[f.key] = f.type === 'MULTIPLE_CHOICE' && Array.isArray(v) ? f.options!.filter((o) => v.includes(o)) : v;
  }
  return out;
}

/** Whether one stored value would pass a changed field definition. */
export function valueFits(f: CustomEntityField, value: unknown): boolean {
  return valueSchema(f, f.required).safeParse(value ?? undefined).success;
}

export function searchOf(entity: CustomEntity, data: Record<string, unknown>): string {
  const parts = entity.fields
    .filter((f) => f.searchable)
    .flatMap((f) => {
      const v = data[f.key];
      return Array.isArray(v) ? v.map(String) : v === undefined || v === null ? [] : [String(v)];
    });
  return normalizeSearch(parts.join(' '));
}

/** The value-index rows of one record: one per field (null when empty), one per option held. */
export function valueRows(entity: CustomEntity, tenantId: number, recordId: number, data: Record<string, unknown>) {
  const rows: (typeof customValues.$inferInsert)[] = [];
  const base = { tenantId, entityId: entity.id, recordId };
  for (const f of entity.fields) {
    const v = data[f.key];
    if (f.type === 'MULTIPLE_CHOICE') {
      for (const o of Array.isArray(v) ? v : []) rows.push({ ...base, key: f.key, txt: String(o), num: null });
      continue;
    }
    if (v === undefined || v === null) rows.push({ ...base, key: f.key, txt: null, num: null });
    else if (f.type === 'NUMBER' || f.type === 'REFERENCE') rows.push({ ...base, key: f.key, num: Number(v), txt: null });
    else if (f.type === 'TEXT') rows.push({ ...base, key: f.key, txt: sortKey(String(v)), num: null });
    else rows.push({ ...base, key: f.key, txt: String(v), num: null });
  }
  return rows;
}

/** Rewrites the value index of these records (after a create, update or definition change). */
export async function reindex(
  tx: Tx,
  entity: CustomEntity,
  tenantId: number,
  records: readonly { id: number; data: Record<string, unknown> }[],
  fresh = false,
) {
  if (!records.length) return;
  const ids = records.map((r) => r.id);
  // New records have no index rows yet.
  for (let at = 0; !fresh && at < ids.length; at += 1000) {
    await tx.delete(customValues).where(and(eq(customValues.tenantId, tenantId), inArray(customValues.recordId, ids.slice(at, at + 1000))));
  }
  const rows = records.flatMap((r) => valueRows(entity, tenantId, r.id, r.data));
  for (let at = 0; at < rows.length; at += 2000) await tx.insert(customValues).values(rows.slice(at, at + 2000));
}

export interface RecordRow {
  id: number;
  version: number;
  created_at: Date | string;
  updated_at: Date | string;
  data: Record<string, unknown>;
}

/** Labels of custom records: the value of the entity's first TEXT field (else its first field). */
function titleKey(entity: CustomEntity): string {
  const sorted = [...entity.fields].sort((a, b) => a.position - b.position);
  return (sorted.find((f) => f.type === 'TEXT') ?? sorted[0]!).key;
}

/** Which targets exist, by target: `students` via the registry, `custom:<slug>` among that entity's records. */
async function labelsOf(tx: Tx, registry: Registry, tenantId: number, target: string, ids: number[], ctx?: Ctx): Promise<Map<number, ReferenceLabel>> {
  const found = new Map<number, ReferenceLabel>();
  if (!ids.length) return found;
  if (target.startsWith('custom:')) {
    const other = await entityBySlug(tx, tenantId, target.slice(7));
    if (!other) return found;
    const key = titleKey(asEntity(other));
    const rows = await tx
      .select({ id: customRecords.id, name: sql<string | null>`${customRecords.data} ->> ${key}::text` })
      .from(customRecords)
      .where(and(eq(customRecords.tenantId, tenantId), eq(customRecords.entityId, other.id), inArray(customRecords.id, ids)));
    for (const r of rows) found.set(r.id, { id: r.id, name: r.name });
    return found;
  }
  const t = registry.targets.get(target);
  if (!t) return found;
  const rows = (await tx
    // Named only where the caller may read the row's name (a TEACHER: the students of her classes).
    .select({
      id: t.id,
      name: scopedName(t.label, labelScope(registry, ctx, target)),
      deleted: t.deletedAt ? sql<boolean>`(${t.deletedAt} is not null)` : sql<boolean>`false`,
    })
    .from(t.table)
    .where(and(eq(t.tenantId, tenantId), inArray(t.id, ids)))) as { id: number; name: string | null; deleted: boolean }[];
  for (const r of rows) found.set(r.id, r.deleted ? { id: r.id, name: null, deleted: true } : { id: r.id, name: r.name });
  return found;
}

/** A record's reference as a row id: its jsonb `value` where that is a whole number, else null. */
export const referenceId = (value: SQL): SQL => sql`(case when ${value} #>> '{}' ~ '^[0-9]{1,18}$' then (${value} #>> '{}')::bigint end)`;

/**
 * A reference's label as SQL, for a page the database writes: `{id, name}` for the row of
 * tenant `tenant` that `value` (the record's jsonb value) names, `{id, name: null, deleted:
 * true}` when it names none or a deleted one, null when it holds no number; the name only
 * where the caller may read it (labelScope), as labelsOf answers. `id` is referenceId(value),
 * selected a level below: an expression there would be judged after row-level security's own
 * condition, for every row of the centre, where a column is looked up in the index.
 */
export function labelSql(registry: Registry, ctx: Ctx, target: string, value: SQL, id: SQL, tenant: SQL): SQL {
  const missing = sql`json_build_object('id', ${value}, 'name', null, 'deleted', true)`;
  let found: SQL;
  if (target.startsWith('custom:')) {
    // Another entity's record, named by its title field (titleKey: the first TEXT field, else the first).
    found = sql`(select json_build_object('id', o.id, 'name', o.data ->> (
        select f ->> 'key' from jsonb_array_elements(e.fields) with ordinality x(f, i)
        order by (f ->> 'type' = 'TEXT') desc, (f ->> 'position')::int, i limit 1))
      from custom_entities e join custom_records o on o.tenant_id = e.tenant_id and o.entity_id = e.id and o.id = ${id}
      where e.tenant_id = ${tenant} and e.slug = ${target.slice(7)}::text)`;
  } else {
    const t = registry.targets.get(target);
    if (!t) return sql`(case when jsonb_typeof(${value}) = 'number' then ${missing} end)`;
    const name = scopedName(t.label, labelScope(registry, ctx, target));
    const named = sql`json_build_object('id', ${t.id}, 'name', ${name})`;
    found = sql`(select ${t.deletedAt ? sql`case when ${t.deletedAt} is not null then json_build_object('id', ${t.id}, 'name', null, 'deleted', true) else ${named} end` : named}
      from ${t.table} where ${t.tenantId} = ${tenant} and ${t.id} = ${id})`;
  }
  return sql`(case when jsonb_typeof(${value}) = 'number' then coalesce(${found}, ${missing}) end)`;
}

/** A name as compared: folded like the sort keys (accents, case, final sigma), spaces collapsed. */
const nameKey = (name: string) => sortKey(name.replace(/\s+/g, ' ').trim());
const nameKeyOf = (expr: SQL) => foldedKey(sql`btrim(regexp_replace(${expr}, '[[:space:]]+', ' ', 'g'))`);

/** The rows of a target (not deleted) whose name folds to one of `keys`: folded name -> their ids. */
async function idsByName(tx: Tx, registry: Registry, tenantId: number, target: string, keys: string[]): Promise<Map<string, number[]>> {
  const found = new Map<string, number[]>();
  let select: (wanted: SQL) => Promise<{ id: number; key: string }[]>;
  if (target.startsWith('custom:')) {
    const other = await entityBySlug(tx, tenantId, target.slice(7));
    if (!other) return found;
    const key = nameKeyOf(sql`(${customRecords.data} ->> ${titleKey(asEntity(other))}::text)`);
    select = (wanted) =>
      tx
        .select({ id: customRecords.id, key: sql<string>`${key}` })
        .from(customRecords)
        .where(and(eq(customRecords.tenantId, tenantId), eq(customRecords.entityId, other.id), sql`${key} in (${wanted})`));
  } else {
    const t = registry.targets.get(target);
    if (!t) return found;
    const key = nameKeyOf(t.label);
    select = (wanted) =>
      tx
        .select({ id: t.id, key: sql<string>`${key}` })
        .from(t.table)
        .where(and(eq(t.tenantId, tenantId), t.deletedAt ? sql`${t.deletedAt} is null` : undefined, sql`${key} in (${wanted})`)) as Promise<
        { id: number; key: string }[]
      >;
  }
  for (let at = 0; at < keys.length; at += 1000) {
    const rows = await select(
      sql.join(
        keys.slice(at, at + 1000).map((k) => sql`${k}`),
        sql`, `,
      ),
    );
    for (const r of rows) found.set(r.key, [...(found.get(r.key) ?? []), r.id]);
  }
  return found;
}

/** `#12`, as a reference without a name is written out. */
const NUMBERED = /^#(\d{1,10})$/;

/**
 * References given by name, as an export writes them (a CSV brought back in): each becomes
 * the id of the one row of its target so named, compared without accents or case. A name
 * that matches no row is `no-match`, one that matches several `ambiguous`; `#12` is the id
 * 12. A number is an id; one that names no row may still be a name (a room called 101).
 * Everything else passes through for the usual validation.
 */
export async function resolveReferenceNames(
  tx: Tx,
  registry: Registry,
  tenantId: number,
  entity: CustomEntity,
  rows: readonly unknown[],
): Promise<{ rows: unknown[]; errors: FieldErrors[] }> {
  const out = rows.map((raw) => (raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? Object.assign(Object.create(null), raw) : raw)) as unknown[];
  const errors: FieldErrors[] = rows.map(() => Object.create(null));
  const valueOf = (raw: unknown, key: string) => (raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>)[key] : undefined);
  for (const f of entity.fields) {
    if (f.type !== 'REFERENCE' || !f.target) continue;
    const numbers = [...new Set(out.map((raw) => valueOf(raw, f.key)).filter((v): v is number => Number.isInteger(v) && (v as number) > 0))];
    const known: Map<number, ReferenceLabel> = numbers.length
      ? await labelsOf(
          tx,
          registry,
          tenantId,
          f.target,
          numbers.filter((n) => n <= 2_147_483_647),
        )
      : new Map();
    /** The name a value gives, if it gives one: text, or a number no row has as its id. */
    const nameIn = (raw: unknown): string | undefined => {
      const v = valueOf(raw, f.key);
      if (typeof v === 'string') return v.trim() === '' ? undefined : v;
      return typeof v === 'number' && numbers.includes(v) && !(known.has(v) && !known.get(v)!.deleted) ? String(v) : undefined;
    };
    const keys = new Set<string>();
    for (const raw of out) {
      const name = nameIn(raw);
      if (name !== undefined && !NUMBERED.test(name.trim())) keys.add(nameKey(name));
    }
    const found = keys.size ? await idsByName(tx, registry, tenantId, f.target, [...keys]) : new Map<string, number[]>();
    out.forEach((raw, i) => {
      const name = nameIn(raw);
      if (name === undefined) return;
      const record = raw as Record<string, unknown>;
      const numbered = NUMBERED.exec(name.trim());
      const ids = numbered ? [Number(numbered[1])] : (found.get(nameKey(name)) ?? []);
      if (ids.length === 1) record[f.key] = ids[0];
      // An unknown id stays as it is: the usual check says it names no row.
      else if (typeof record[f.key] === 'number' && !ids.length) return;
      else {
        errors[i]![f.key] = ids.length ? 'ambiguous' : 'no-match';
        delete record[f.key];
      }
    });
  }
  return { rows: out, errors };
}

/** New reference values must name a row of this centre (a deleted teacher is no longer one). */
export async function checkRecordReferences(
  tx: Tx,
  registry: Registry,
  ctx: Ctx,
  entity: CustomEntity,
  inputs: readonly Record<string, unknown>[],
): Promise<FieldErrors[]> {
  const out: FieldErrors[] = inputs.map(() => ({}));
  for (const f of entity.fields) {
    if (f.type !== 'REFERENCE' || !f.target) continue;
    const ids = [...new Set(inputs.map((i) => i[f.key]).filter((v): v is number => typeof v === 'number'))];
    if (!ids.length) continue;
    const found = await labelsOf(tx, registry, ctx.tenantId, f.target, ids);
    inputs.forEach((input, i) => {
      const v = input[f.key];
      if (typeof v === 'number' && (!found.has(v) || found.get(v)!.deleted)) out[i]![f.key] = 'invalid';
    });
  }
  return out;
}

/** Flat rows with `<key>_label` (or the built-in way, `x` for `x_id`) beside each reference. */
export async function presentRecords(tx: Tx, registry: Registry, ctx: Ctx, entity: CustomEntity, rows: readonly RecordRow[]) {
  const out = rows.map((r) => {
    const flat: Record<string, unknown> = { id: r.id, version: r.version, created_at: iso(new Date(r.created_at)), updated_at: iso(new Date(r.updated_at)) };
    for (const f of entity.fields) flat[f.key] = r.data[f.key] ?? null;
    return flat;
  });
  for (const f of entity.fields) {
    if (f.type !== 'REFERENCE' || !f.target) continue;
    const ids = [...new Set(out.map((r) => r[f.key]).filter((v): v is number => typeof v === 'number'))];
    const found = await labelsOf(tx, registry, ctx.tenantId, f.target, ids, ctx);
    const key = labelKey({ name: f.key, type: 'REFERENCE' });
    for (const r of out) {
      const id = r[f.key];
      r[key] = typeof id === 'number' ? (found.get(id) ?? { id, name: null, deleted: true }) : null;
    }
  }
  return out;
}

/** Adds `labels: {old, new}` to each REFERENCE change of a record's history entries: names, not ids. */
export async function labelRecordChanges(
  tx: Tx,
  registry: Registry,
  tenantId: number,
  slug: string,
  entries: readonly { changes: Record<string, { old: unknown; new: unknown; labels?: unknown }> }[],
  ctx?: Ctx,
): Promise<void> {
  const row = entries.length ? await entityBySlug(tx, tenantId, slug) : null;
  if (!row) return;
  for (const f of asEntity(row).fields) {
    if (f.type !== 'REFERENCE' || !f.target) continue;
    const changes = entries.map((e) => e.changes?.[f.key]).filter((c) => c !== undefined);
    const ids = [...new Set(changes.flatMap((c) => [c.old, c.new]).filter((v): v is number => typeof v === 'number'))];
    if (!ids.length) continue;
    const found = await labelsOf(tx, registry, tenantId, f.target, ids, ctx);
    // A record deleted since keeps its id: {id, name: null, deleted: true}.
    const side = (v: unknown) => (typeof v === 'number' ? (found.get(v) ?? { id: v, name: null, deleted: true }) : null);
    for (const c of changes) c.labels = { old: side(c.old), new: side(c.new) };
  }
}

export const recordColumns = {
  id: customRecords.id,
  version: customRecords.version,
  created_at: customRecords.createdAt,
  updated_at: customRecords.updatedAt,
  data: customRecords.data,
};

export { titleKey };
export type { SQL };
