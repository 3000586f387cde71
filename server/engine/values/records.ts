/**
 * The value-index store: a custom entity's records as a jsonb object each, with the typed
 * value index (custom_values) every filter and sort reads (see store.ts and list.ts beside
 * this file). Served by the engine's route handlers like any table (../routes.ts).
 */
import { and, eq, sql } from 'drizzle-orm';
import { type CustomEntity, DomainError, type FieldErrors, recordsHistoryEntity, rowJsonSchema } from '../../../domain/index';
import type { Tx } from '../../db/types';
import { KeptStatements, writtenRows } from '../../db/statements';
import { customRecords } from '../../db/schema/index';
import { recordHistory, recordHistoryMany } from '../history';
import { actorKey, type Ctx, type Data, type Registry } from '../spec';
import { assertVersion, importRefused, inUse, type ImportReport, type OpenStore, type Page, type RecordStore } from '../store';
import { parseRecordQuery, recordsPageStatement } from './list';
import { customRecordsPointingAt } from './references';
import {
  asEntity,
  checkRecordReferences,
  cleanValues,
  entityStamp,
  keptEntityBySlug,
  parseRecordBody,
  presentRecords,
  type EntityRow,
  type RecordRow,
  recordColumns,
  reindex,
  resolveReferenceNames,
  resourceOf,
  sameStamp,
  searchOf,
} from './store';

/** Rows an import writes per statement. */
const IMPORT_BATCH = 500;

async function loadRecord(tx: Tx, ctx: Ctx, entity: CustomEntity, id: number, lock = false): Promise<RecordRow | null> {
  const q = tx
    .select(recordColumns)
    .from(customRecords)
    .where(and(eq(customRecords.tenantId, ctx.tenantId), eq(customRecords.entityId, entity.id), eq(customRecords.id, id)));
  const [row] = lock ? await q.for('update') : await q;
  return row ?? null;
}

async function assertReferences(tx: Tx, registry: Registry, ctx: Ctx, entity: CustomEntity, input: Record<string, unknown>) {
  const [fields] = await checkRecordReferences(tx, registry, ctx, entity, [input]);
  if (fields && Object.keys(fields).length)
    throw new DomainError('validation', 'A reference names no record of this centre.', fields, { details: { reason: 'reference-missing' } });
}

/**
 * Pages' statements already written, by what decides their text: the definition as read (the
 * same row object while it stays the same, see openValueStore), the centre, the caller (role
 * and scope: labels are named within it) and the query string. The same page asked again is
 * sent as written, without parsing or building anything. At most 1,000 in the process.
 */
const keptPages = new KeptStatements(1000);
const rowIds = new WeakMap<EntityRow, number>();
let nextRowId = 1;
function keptKey(row: EntityRow, ctx: Ctx, raw: unknown): string {
  let id = rowIds.get(row);
  if (id === undefined) rowIds.set(row, (id = nextRowId++));
  return `${id}|${ctx.tenantId}|${actorKey(ctx)}|${JSON.stringify(raw)}`;
}

/** What a definition row is read as, made once per row object. */
const entities = new WeakMap<EntityRow, CustomEntity>();
function entityOf(row: EntityRow): CustomEntity {
  let entity = entities.get(row);
  if (!entity) entities.set(row, (entity = asEntity(row)));
  return entity;
}

export function valueStore(tx: Tx, registry: Registry, ctx: Ctx, row: EntityRow): RecordStore {
  const entity = entityOf(row);
  const history = recordsHistoryEntity(entity.slug);
  const present = async (rows: readonly RecordRow[]) => (await presentRecords(tx, registry, ctx, entity, rows)) as Data[];
  const mustLoad = async (id: number) => {
    const row = await loadRecord(tx, ctx, entity, id, true);
    if (!row) throw new DomainError('not-found');
    return row;
  };

  return {
    get row() {
      return rowSchemaOf(row);
    },

    // The page as the database writes it: its records, their labels and the count, one statement.
    async list(raw): Promise<Page> {
      const key = keptKey(row, ctx, raw);
      let statement = keptPages.get(key);
      if (!statement) {
        const written = await recordsPageStatement(tx, registry, ctx, entity, parseRecordQuery(entity, raw));
        statement = written.statement;
        if (written.keep) keptPages.keep(key, statement);
      }
      const [page] = await writtenRows<{ body: string; total: number }>(tx, statement);
      return { data: [], total: Number(page!.total), json: page!.body };
    },

    async find(id) {
      const row = await loadRecord(tx, ctx, entity, id);
      return row ? ((await present([row]))[0] ?? null) : null;
    },

    async create(body) {
      const { values } = parseRecordBody(entity, body, 'create');
      await assertReferences(tx, registry, ctx, entity, values);
      const stored = cleanValues(entity, values);
      const [row] = await tx
        .insert(customRecords)
        .values({ tenantId: ctx.tenantId, entityId: entity.id, data: stored, search: searchOf(entity, stored) })
        .returning(recordColumns);
      await reindex(tx, entity, ctx.tenantId, [row!], true);
      await recordHistory(tx, ctx.tenantId, ctx.actor, { entity: history, entityId: row!.id, action: 'create', after: stored });
      return (await present([row!]))[0]!;
    },

    async update(id, body) {
      // The version travels in the body, checked with the entity's fields.
      const { values, version } = parseRecordBody(entity, body, 'update');
      const before = await mustLoad(id);
      assertVersion(before, version);
      // Only references that change must exist now.
      const changed = Object.fromEntries(Object.entries(values).filter(([k, v]) => v !== before.data[k]));
      await assertReferences(tx, registry, ctx, entity, changed);
      const stored = cleanValues(entity, { ...before.data, ...values });
      const [row] = await tx
        .update(customRecords)
        .set({ data: stored, search: searchOf(entity, stored), version: sql`${customRecords.version} + 1`, updatedAt: sql`now()` })
        .where(and(eq(customRecords.tenantId, ctx.tenantId), eq(customRecords.id, before.id)))
        .returning(recordColumns);
      await reindex(tx, entity, ctx.tenantId, [row!]);
      const keys = Object.keys(values);
      await recordHistory(tx, ctx.tenantId, ctx.actor, {
        entity: history,
        entityId: before.id,
        action: 'update',
        before: Object.fromEntries(keys.map((k) => [k, before.data[k] ?? null])),
        after: Object.fromEntries(keys.map((k) => [k, stored[k] ?? null])),
      });
      return (await present([row!]))[0]!;
    },

    async remove(id) {
      const before = await mustLoad(id);
      const refused = inUse(await customRecordsPointingAt(tx, ctx.tenantId, `custom:${entity.slug}`, before.id, { entityId: entity.id }));
      if (refused) throw refused;
      await tx.delete(customRecords).where(and(eq(customRecords.tenantId, ctx.tenantId), eq(customRecords.id, before.id)));
      await recordHistory(tx, ctx.tenantId, ctx.actor, { entity: history, entityId: before.id, action: 'delete', before: before.data });
    },

    async importRows(rows, options): Promise<ImportReport> {
      const errors: ImportReport['errors'] = [];
      const parsed: { row: number; values: Record<string, unknown> }[] = [];
      // A reference may come by name, as the export writes it; a name that fits no one row is the row's error.
      const named = await resolveReferenceNames(tx, registry, ctx.tenantId, entity, rows);
      named.rows.forEach((raw, row) => {
        const unnamed = named.errors[row]!;
        try {
          const { values } = parseRecordBody(entity, raw, 'create');
          if (Object.keys(unnamed).length) errors.push({ row, fields: { ...unnamed } });
          else parsed.push({ row, values });
        } catch (error) {
          if (error instanceof DomainError && error.fields) errors.push({ row, fields: { ...error.fields, ...unnamed } as FieldErrors });
          else throw error;
        }
      });
      const references = await checkRecordReferences(
        tx,
        registry,
        ctx,
        entity,
        parsed.map((p) => p.values),
      );
      const valid: Record<string, unknown>[] = [];
      parsed.forEach((p, i) => {
        if (Object.keys(references[i]!).length) errors.push({ row: p.row, fields: references[i]! });
        else valid.push(cleanValues(entity, p.values));
      });
      errors.sort((a, b) => a.row - b.row);
      if (errors.length && !options.skip_invalid) throw importRefused(errors);
      if (options.dry_run || !valid.length) return { created: valid.length, skipped: errors.length, errors };
      for (let at = 0; at < valid.length; at += IMPORT_BATCH) {
        const batch = valid.slice(at, at + IMPORT_BATCH);
        const written = await tx
          .insert(customRecords)
          .values(batch.map((data) => ({ tenantId: ctx.tenantId, entityId: entity.id, data, search: searchOf(entity, data) })))
          .returning(recordColumns);
        await reindex(tx, entity, ctx.tenantId, written, true);
        await recordHistoryMany(
          tx,
          ctx.tenantId,
          ctx.actor,
          written.map((r) => ({ entity: history, entityId: r.id, action: 'create' as const, after: r.data })),
        );
      }
      return { created: valid.length, skipped: errors.length, errors };
    },
  };
}

/** The row schema of a definition row's records, made once per row object. */
const rowSchemas = new WeakMap<EntityRow, ReturnType<typeof rowJsonSchema>>();
function rowSchemaOf(row: EntityRow) {
  let schema = rowSchemas.get(row);
  if (!schema) rowSchemas.set(row, (schema = rowJsonSchema(resourceOf(entityOf(row)))));
  return schema;
}

/**
 * The definition last read for each centre and slug. A request reads only its stamp (id,
 * version, instant of change) and starts its page from the definition held, in the same
 * message; if the stamp has moved, it reads the definition and makes the page again: one
 * round trip, not two, and no definition to decode while it stays the same.
 */
const lastRead = new Map<string, EntityRow>();
const LAST_READ_MAX = 10_000;

/** The store of `/api/custom-entities/:slug/records`: the entity named by the URL (404 when there is none). */
export const openValueStore =
  (registry: Registry): OpenStore =>
  async (tx, ctx, params) => {
    const slug = String(params.slug);
    const key = `${ctx.tenantId}|${slug}`;
    /** Reads the definition and holds it (the pages kept for it are keyed by the row object read). */
    const fresh = async () => {
      const row = await keptEntityBySlug(tx, ctx.tenantId, slug);
      if (!row) {
        lastRead.delete(key);
        throw new DomainError('not-found');
      }
      if (lastRead.size >= LAST_READ_MAX) lastRead.clear();
      lastRead.set(key, row);
      return row;
    };
    const held = lastRead.get(key);
    if (!held) return valueStore(tx, registry, ctx, await fresh());
    const stamp = entityStamp(tx, ctx.tenantId, slug);
    stamp.catch(() => undefined); // awaited by whichever method runs
    /** The held definition if its stamp is the database's, else the definition read again. */
    const now = async () => {
      const read = await stamp;
      if (!read) {
        lastRead.delete(key);
        throw new DomainError('not-found');
      }
      return sameStamp(read, held) ? held : fresh();
    };
    let store = valueStore(tx, registry, ctx, held);
    const current = async () => {
      const row = await now();
      if (row !== held) store = valueStore(tx, registry, ctx, row);
      return store;
    };
    return {
      get row() {
        return store.row;
      },
      async list(raw) {
        // The page from the definition held, in the same message as its stamp.
        const from = store;
        const attempt = from.list(raw).then(
          (page) => ({ page }),
          (error: unknown) => ({ error }),
        );
        try {
          await current();
        } catch (error) {
          if (error instanceof DomainError) throw error;
          // The whole message failed: read again without the definition held.
          store = valueStore(tx, registry, ctx, await fresh());
          return store.list(raw);
        }
        const outcome = await attempt;
        // the definition moved: its page is made again from the one just read
        if (store !== from) return store.list(raw);
        if ('error' in outcome) throw outcome.error;
        return outcome.page;
      },
      find: async (id) => (await current()).find(id),
      create: async (input) => (await current()).create(input),
      update: async (id, input, version) => (await current()).update(id, input, version),
      remove: async (id, options) => (await current()).remove(id, options),
      importRows: async (rows, options) => (await current()).importRows!(rows, options),
    };
  };
