/**
 * GET /api/export: the whole centre as one zip archive, for a centre that leaves or keeps a
 * copy (docs/rules.md, Personal data). Every resource the engine serves is in it twice, as
 * `<name>.json` (what the API lists) and `<name>.csv`, the custom entities' records likewise,
 * every table of the centre as stored under `tables/<table>.json|csv` (receipts, attendance,
 * settings, history, messages...: tables.ts, secrets left out), every stored file under
 * `files/<id>-<name>`, and `manifest.json` last with the counts. No CSV cell starts a formula
 * (safeCell). The
 * archive is streamed as it is made: each entry is read a page at a time when the zip writer
 * reaches it, so neither the archive nor a whole table is ever held in memory.
 */
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZipFile } from 'yazl';
import { MAX_PAGE_ROWS, safeCell } from '../../../domain/index';
import type { Ctx } from '../../engine/spec';
import type { Database } from '../../db/types';
import { withTenant } from '../../db/doors';
import { withTenantReads } from '../../db/read-batch';
import { queryRows } from '../../db/statements';
import { listRows } from '../../engine/list';
import type { Registry } from '../../engine/registry';
import { ctxOf } from '../../engine/routes';
import { tenantOf } from '../../context';
import type { ResourceSpec } from '../../engine/spec';
import type { FileStore } from '../files/storage';
import { shapeOf, tablePages, tenantTables } from './tables';

type Row = Record<string, unknown>;

/** One CSV cell: lists joined by ';', objects as JSON, text that a spreadsheet would run neutralised, quoted when it must be. */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = safeCell(
    Array.isArray(value)
      ? value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(';')
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value),
  );
  return /[",\r\n;]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The columns of a resource's CSV: the system fields and every readable declared field. */
function columnsOf(spec: ResourceSpec): string[] {
  return ['id', ...spec.def.fields.filter((f) => !f.writeOnly).map((f) => f.name), 'version', 'created_at', 'updated_at'];
}

/** Pages of a resource as the API lists them, by id, each read in its own short transaction. */
async function* pagesOf(database: Database, registry: Registry, ctx: Ctx, spec: ResourceSpec): AsyncGenerator<Row[]> {
  for (let start = 0; ; start += MAX_PAGE_ROWS) {
    const raw = { _start: String(start), _end: String(start + MAX_PAGE_ROWS), _sort: 'id', _order: 'asc' };
    const page = await withTenantReads(database, ctx.tenantId, (tx) => listRows(tx, registry, ctx, spec, raw));
    if (page.data.length) yield page.data as Row[];
    if (page.data.length < MAX_PAGE_ROWS) return;
  }
}

/** Pages of a custom entity's records (id, data and the row's bookkeeping). */
async function* recordPages(database: Database, tenantId: number, entityId: number): AsyncGenerator<Row[]> {
  for (let after = 0; ; ) {
    const rows = await withTenant(database, tenantId, (tx) =>
      queryRows<Row & { id: number }>(
        tx,
        sql`select id, data, version, created_at, updated_at from custom_records
          where tenant_id = ${tenantId} and entity_id = ${entityId} and id > ${after} order by id limit ${MAX_PAGE_ROWS}`,
      ),
    );
    if (rows.length) {
      yield rows.map(({ id, data, version, created_at, updated_at }) => ({
        id,
        ...(data as Row),
        version,
        created_at: new Date(String(created_at)).toISOString(),
        updated_at: new Date(String(updated_at)).toISOString(),
      }));
    }
    if (rows.length < MAX_PAGE_ROWS) return;
    after = Number(rows[rows.length - 1]!.id);
  }
}

/**
 * Two entries from one source: the JSON array and the CSV of the same rows. The source is read
 * once per entry (the zip is written one entry after the other), and each count is kept.
 */
function addResource(zip: ZipFile, name: string, columns: (rows: Row[]) => string[], pages: () => AsyncGenerator<Row[]>, counts: Record<string, number>) {
  zip.addReadStream(
    Readable.from(
      (async function* () {
        let n = 0;
        yield '[';
        for await (const rows of pages()) {
          for (const row of rows) yield `${n++ ? ',' : ''}\n${JSON.stringify(row)}`;
        }
        yield n ? '\n]\n' : ']\n';
        counts[name] = n;
      })(),
    ),
    `${name}.json`,
  );
  zip.addReadStream(
    Readable.from(
      (async function* () {
        let header: string[] | undefined;
        for await (const rows of pages()) {
          if (!header) {
            header = columns(rows);
            yield `${header.map(cell).join(',')}\r\n`;
          }
          for (const row of rows) yield `${header.map((c) => cell(row[c])).join(',')}\r\n`;
        }
        if (!header) yield `${columns([]).map(cell).join(',')}\r\n`;
      })(),
    ),
    `${name}.csv`,
  );
}

/** A file name safe inside an archive: no folders, no control characters. */
const safeName = (name: string) => name.replace(/[\\/\p{Cc}]/gu, '_').slice(0, 180) || 'file';

export function centreArchive(database: Database, registry: Registry, store: FileStore, ctx: Ctx): Readable {
  const zip = new ZipFile();
  const output = zip.outputStream as unknown as Readable;
  const counts: Record<string, number> = {};
  const specs = [...registry.specs.values()].sort((a, b) => a.def.name.localeCompare(b.def.name));
  (async () => {
    for (const spec of specs) {
      addResource(
        zip,
        spec.def.name,
        () => columnsOf(spec),
        () => pagesOf(database, registry, ctx, spec),
        counts,
      );
    }
    const tables = await withTenant(database, ctx.tenantId, async (tx) => {
      const shapes = [];
      for (const table of await tenantTables(tx)) shapes.push(await shapeOf(tx, table));
      return shapes;
    });
    for (const shape of tables) {
      addResource(
        zip,
        `tables/${shape.name}`,
        () => shape.columns,
        () => tablePages(database, ctx.tenantId, shape),
        counts,
      );
    }
    const entities = await withTenant(database, ctx.tenantId, (tx) =>
      queryRows<{ id: number; slug: string }>(tx, sql`select id, slug from custom_entities where tenant_id = ${ctx.tenantId} order by slug`),
    );
    for (const entity of entities) {
      addResource(
        zip,
        `custom-entities/${entity.slug}`,
        (rows) => [...new Set(['id', ...rows.flatMap((r) => Object.keys(r)), 'version', 'created_at', 'updated_at'])],
        () => recordPages(database, ctx.tenantId, entity.id),
        counts,
      );
    }
    // the stored files, one entry each, read from the store only when the zip reaches them
    let files = 0;
    for (let after = 0; ; ) {
      const page = await withTenant(database, ctx.tenantId, (tx) =>
        queryRows<{ id: number; name: string; storage_key: string }>(
          tx,
          sql`select id, name, storage_key from files where tenant_id = ${ctx.tenantId} and id > ${after} order by id limit ${MAX_PAGE_ROWS}`,
        ),
      );
      for (const file of page) {
        files++;
        zip.addReadStream(
          Readable.from(
            (async function* () {
              const body = await store.get(file.storage_key);
              if (body) yield* body;
            })(),
          ),
          `files/${file.id}-${safeName(file.name)}`,
        );
      }
      if (page.length < MAX_PAGE_ROWS) break;
      after = Number(page[page.length - 1]!.id);
    }
    // the manifest is written last, when every count is known
    zip.addReadStream(
      Readable.from(
        (async function* () {
          yield JSON.stringify({ format: 'frontis-centre-export', version: 1, created_at: new Date().toISOString(), counts: { ...counts }, files }, null, 2);
        })(),
      ),
      'manifest.json',
    );
    zip.end();
  })().catch((error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))));
  return output;
}

export const archiveRoutes: FastifyPluginAsyncZod<{ database: Database; registry: Registry; store: FileStore }> = async (
  app,
  { database, registry, store },
) => {
  app.get(
    '/api/export',
    {
      config: { access: { area: 'personalData', action: 'read' } },
      schema: { tags: ['export'], summary: 'The whole centre as one zip archive: every resource as CSV and JSON, the files, and a manifest' },
    },
    async (request, reply) => {
      const ctx = ctxOf(request);
      const day = new Date().toISOString().slice(0, 10);
      reply.header('content-type', 'application/zip');
      reply.header('content-disposition', `attachment; filename="frontis-${tenantOf(request).slug}-${day}.zip"`);
      reply.header('cache-control', 'no-store');
      return reply.send(centreArchive(database, registry, store, ctx));
    },
  );
};
