/**
 * The routes of every record, built-in or custom, whichever store keeps it (store.ts): list,
 * read, create, update (version required), delete and, where the store imports, import.
 * Access from the permission matrix, every query inside withTenant() (withPlatform() for the
 * platform's own rows), answers through the row's schema: a built-in resource's is fixed
 * and written by Fastify; a custom entity's follows its fields at request time, and an answer
 * carries no key the schema does not name.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createdJsonSchema,
  createSchema,
  DomainError,
  ImportJobAnswer,
  ImportReportAnswer,
  parseBody,
  listJsonSchema,
  oneJsonSchema,
  RESOURCE_AREA,
  rowJsonSchema,
  updateSchema,
  type Area,
  type JsonSchema,
} from '../../domain/index';
import { actorOf, tenantOf } from '../context';
import { getTableName, sql } from 'drizzle-orm';
import type { Database, Tx } from '../db/types';
import { platform, withPlatform, withTenant } from '../db/doors';
import { withTenantReads, type FirstStatement } from '../db/read-batch';
import { readsConfirmingSession } from '../plugins/auth';
import { answerSchema } from './answers';
import { formBody } from './body';
import { BACKGROUND_ROWS, importJob, startImport } from './import-jobs';
import { prepareInput, refuseClearedDefaults, withDefaults } from './input';
import { IdParams } from './params';
import type { Registry } from './registry';
import type { Ctx, Data, ResourceSpec } from './spec';
import { namedOnly, type ImportOptions, type OpenStore, type Page } from './store';
import { tableStore } from './table-store';
import { openValueStore } from './values/records';

export const ctxOf = (request: FastifyRequest): Ctx => ({
  tenantId: tenantOf(request).id,
  actor: actorOf(request),
  origin: `${request.protocol}://${request.host}`,
});

/**
 * A list's answer: its total in `x-total-count`, and the page, which is sent as it is where the
 * database wrote it as JSON (written as the row schema would write it) and otherwise written
 * by the route's schema.
 */
export function sendPage(reply: FastifyReply, page: Page) {
  reply.header('x-total-count', String(page.total));
  if (page.json !== undefined) return reply.type('application/json; charset=utf-8').send(page.json);
  return reply.send(page);
}

/** The create body; with `postUpdates`, a body naming an `id` is that row's update instead. */
function postBody(spec: ResourceSpec) {
  const { def } = spec;
  const create = spec.createExtras ? createSchema(def).extend(spec.createExtras) : createSchema(def);
  if (!spec.postUpdates) return formBody(def, create);
  const update = updateSchema(def, { versionRequired: false }).extend({ id: z.number().int().positive().max(2_147_483_647) });
  return formBody(
    def,
    z.unknown().transform((body, ctx) => {
      const schema = body !== null && typeof body === 'object' && 'id' in body ? update : create;
      const result = schema.safeParse(body, { reportInput: true });
      if (result.success) return result.data as Record<string, unknown>;
      ctx.issues.push(...(result.error.issues as typeof ctx.issues));
      return z.NEVER;
    }),
  );
}

/** The row's answer schema: the declaration plus what the spec shows beside it. */
export function rowSchemaOf(spec: ResourceSpec): JsonSchema {
  const declared = new Set(spec.def.fields.map((f) => f.name));
  const extra: Record<string, JsonSchema> = {};
  for (const name of [...Object.keys(spec.shown ?? {}), ...Object.keys(spec.join?.fields ?? {})]) if (!declared.has(name)) extra[name] = {};
  if (spec.deletedAt) extra.deleted = { type: 'boolean' };
  return rowJsonSchema(spec.def, extra);
}

/** The list's answer schema: `{data, total}`, and `totals` where the spec sums its rows. */
function listSchemaOf(spec: ResourceSpec, row: JsonSchema): JsonSchema {
  const schema = listJsonSchema(row) as { properties: Record<string, JsonSchema> };
  if (!spec.totals) return schema;
  const totals = Object.fromEntries(Object.keys(spec.totals).map((name) => [name, { type: 'integer' }]));
  return { ...schema, properties: { ...schema.properties, totals: { type: 'object', properties: totals } } };
}

/** What a write's body became before its transaction: the input, the version it names, the row (a POST that updates). */
interface Prepared {
  input: Record<string, unknown>;
  version?: number;
  id?: number;
}

/** How one resource is served by the routes below. */
export interface ServeOptions {
  database: Database;
  /** Under the plugin's prefix: '' for `/api/<name>`, '/:slug/records' for a custom entity's records. */
  path: string;
  /** The path's parameters, and with `id` for one row's routes. */
  params?: z.ZodObject;
  idParams: z.ZodObject;
  open: OpenStore;
  area: Area;
  tags: string[];
  /** The resource as the OpenAPI summaries name it. */
  title: string;
  /** The platform's own rows (tenants), outside any centre. */
  platform?: boolean;
  /**
   * Answer schemas. `open`: the row's keys vary (a custom entity's fields), so the answer is cut
   * to the store's row schema of the request instead of Fastify's fixed one.
   */
  answers: { list: JsonSchema; one: JsonSchema; created: JsonSchema; open?: boolean };
  /** Bodies Fastify checks (and OpenAPI describes) where their shape is fixed; else the store checks them. */
  bodies?: { create?: z.ZodType; update?: z.ZodType };
  /** Slow work on a write's body before the transaction opens (password hashing). */
  prepare?(body: Record<string, unknown>, action: 'create' | 'update'): Promise<Prepared>;
  /** Refuses a create or delete before anything about the body or the id is read. */
  guard?(ctx: Ctx, action: 'create' | 'delete'): void;
  /** No JSON create (a file's row is made by its upload). */
  noCreate?: boolean;
  /** POST with an `id` updates that row. */
  postUpdates?: boolean;
  /** POST <path>/import: many rows at once, with a report. */
  importable?: boolean;
  /** A long import is worked in the background (import-jobs.ts): the store checks and creates in parts. */
  importsInParts?: boolean;
  /** After an import of 500 rows or more (fresh planner statistics). */
  afterLargeImport?(): Promise<void>;
}

export const MAX_IMPORT_ROWS = 5000;
const ImportBody = z.strictObject({
  rows: z.array(z.unknown()).max(MAX_IMPORT_ROWS),
  skip_invalid: z.boolean().optional(),
  dry_run: z.boolean().optional(),
});

const asPrepared = async (body: Record<string, unknown>): Promise<Prepared> => ({ input: body });

/** Registers the routes of one resource (see ServeOptions). */
export async function serveRecords(app: Parameters<FastifyPluginAsyncZod>[0], o: ServeOptions): Promise<void> {
  const { database, path, open, area } = o;
  const tags = o.tags;
  const inTenant = <T>(ctx: Ctx, fn: (tx: Tx) => Promise<T>) => (o.platform ? withPlatform(database, fn) : withTenant(database, ctx.tenantId, fn));
  // Reads send what they can together: a page, its count and its labels in one round trip.
  const readTenant = <T>(ctx: Ctx, fn: (tx: Tx) => Promise<T>, first?: FirstStatement) =>
    o.platform ? withPlatform(database, fn) : withTenantReads(database, ctx.tenantId, fn, first);
  /** A read whose session check travels with its first message (sessionInReads), in the request's ctx once confirmed. */
  const readOf = <T>(request: FastifyRequest, fn: (ctx: Ctx, tx: Tx) => Promise<T>) =>
    readsConfirmingSession(request, (first) => {
      const ctx = ctxOf(request);
      return readTenant(ctx, (tx) => fn(ctx, tx), first);
    });
  const guard = (action: 'create' | 'delete') => async (request: FastifyRequest) => o.guard?.(ctxOf(request), action);
  const prepare = o.prepare ?? asPrepared;
  const paramsOf = (request: FastifyRequest) => (request.params ?? {}) as Record<string, unknown>;
  /** The row as answered: only what its schema names (open schemas; fixed ones are cut by Fastify). */
  const answer = (row: JsonSchema, data: Data) => (o.answers.open ? namedOnly(row, data) : data);
  const access = (action: 'list' | 'read' | 'create' | 'update' | 'delete') => ({ access: { area, action } });
  // Platform rows are read in a transaction of their own, where a session check cannot travel.
  const reads = (action: 'list' | 'read') => ({ ...access(action), sessionInReads: !o.platform });

  app.get(
    path,
    { config: reads('list'), schema: { tags, summary: `List ${o.title}`, ...(o.params ? { params: o.params } : {}), response: { 200: o.answers.list } } },
    async (request, reply) => {
      // The filter names depend on the resource (and on the centre's own fields): the store checks them.
      const page: Page = await readOf(request, async (ctx, tx) => {
        const store = await open(tx, ctx, paramsOf(request));
        const found = await store.list(request.query as Record<string, string | string[] | undefined>);
        return o.answers.open ? { ...found, data: found.data.map((row) => answer(store.row, row)) } : found;
      });
      return sendPage(reply, page);
    },
  );

  app.get(
    `${path}/:id`,
    { config: reads('read'), schema: { tags, summary: `One of ${o.title}`, params: o.idParams, response: { 200: o.answers.one } } },
    async (request) => {
      const { id } = request.params as { id: number };
      const data = await readOf(request, async (ctx, tx) => {
        const store = await open(tx, ctx, paramsOf(request));
        const row = await store.find(id);
        return row && answer(store.row, row);
      });
      if (!data) throw new DomainError('not-found');
      return { data };
    },
  );

  if (!o.noCreate) {
    app.post(
      path,
      {
        config: access('create'),
        preValidation: guard('create'),
        schema: {
          tags,
          summary: o.postUpdates ? `Create one of ${o.title} (or update one when the body has an id)` : `Create one of ${o.title}`,
          ...(o.params ? { params: o.params } : {}),
          ...(o.bodies?.create ? { body: o.bodies.create } : {}),
          // 201 for a create; 200 only where a body naming an id is an update instead.
          response: o.postUpdates ? { 200: o.answers.created, 201: o.answers.created } : { 201: o.answers.created },
        },
      },
      async (request, reply) => {
        const ctx = ctxOf(request);
        const { input, version, id } = await prepare(request.body as Record<string, unknown>, 'create');
        const data = await inTenant(ctx, async (tx) => {
          const store = await open(tx, ctx, paramsOf(request));
          return answer(store.row, id === undefined ? await store.create(input) : await store.update(id, input, version));
        });
        if (id !== undefined) return { id, data };
        return reply.code(201).send({ id: data.id, data });
      },
    );
  }

  app.patch(
    `${path}/:id`,
    {
      config: access('update'),
      schema: {
        tags,
        summary: `Update one of ${o.title} (version required)`,
        params: o.idParams,
        ...(o.bodies?.update ? { body: o.bodies.update } : {}),
        response: { 200: o.answers.one },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      const { id } = request.params as { id: number };
      const { input, version } = await prepare(request.body as Record<string, unknown>, 'update');
      const data = await inTenant(ctx, async (tx) => {
        const store = await open(tx, ctx, paramsOf(request));
        return answer(store.row, await store.update(id, input, version));
      });
      return { data };
    },
  );

  app.delete(
    `${path}/:id`,
    { config: access('delete'), preValidation: guard('delete'), schema: { tags, summary: `Delete one of ${o.title}`, params: o.idParams } },
    async (request, reply) => {
      const ctx = ctxOf(request);
      const { id } = request.params as { id: number };
      await inTenant(ctx, async (tx) => (await open(tx, ctx, paramsOf(request))).remove(id, (request.query ?? {}) as Record<string, unknown>));
      return reply.code(204).send();
    },
  );

  if (o.importable) {
    app.post(
      `${path}/import`,
      {
        bodyLimit: 10 * 1024 * 1024,
        config: access('create'),
        schema: {
          tags,
          summary: `Create many rows of ${o.title} at once (all or nothing unless skip_invalid); a long import answers 202 and goes on in the background`,
          ...(o.params ? { params: o.params } : {}),
          response: { 200: answerSchema(ImportReportAnswer), ...(o.importsInParts ? { 202: answerSchema(ImportJobAnswer) } : {}) },
        },
      },
      async (request, reply) => {
        const body = parseBody(ImportBody, request.body);
        const options: ImportOptions = { skip_invalid: body.skip_invalid, dry_run: body.dry_run };
        const ctx = ctxOf(request);
        if (o.importsInParts && body.rows.length > BACKGROUND_ROWS) {
          const params = paramsOf(request);
          const at = request.url.split('?')[0]!;
          const job = await startImport(
            ctx,
            at,
            body.rows,
            options,
            (fn) => inTenant(ctx, async (tx) => fn(await open(tx, ctx, params), tx)),
            o.afterLargeImport,
          );
          reply.header('location', `${at}?job=${job.job}`);
          return reply.code(202).send(job);
        }
        const report = await inTenant(ctx, async (tx) => {
          const store = await open(tx, ctx, paramsOf(request));
          if (!store.importRows) throw new DomainError('not-found');
          return store.importRows(body.rows, options);
        });
        if (!body.dry_run && report.created >= 500) await o.afterLargeImport?.();
        return report;
      },
    );
  }

  if (o.importable && o.importsInParts) {
    app.get(
      `${path}/import`,
      {
        config: access('create'),
        schema: {
          tags,
          summary: `How far a long import of ${o.title} has come, and its report once done`,
          querystring: JobQuery,
          response: { 200: answerSchema(ImportJobAnswer) },
        },
      },
      async (request) => {
        const ctx = ctxOf(request);
        const params = paramsOf(request);
        return importJob(ctx, parseBody(JobQuery, request.query).job, (fn) => inTenant(ctx, async (tx) => fn(await open(tx, ctx, params), tx)));
      },
    );
  }
}

const JobQuery = z.strictObject({ job: z.string().min(1).max(64) });

export interface CrudOptions {
  database: Database;
  registry: Registry;
  spec: ResourceSpec;
}

/** A built-in resource under `/api/<name>`: its table's store, its fixed answers and bodies. */
export const crudRoutes: FastifyPluginAsyncZod<CrudOptions> = async (app, { database, registry, spec }) => {
  const { def } = spec;
  const row = rowSchemaOf(spec);
  await serveRecords(app, {
    database,
    path: '',
    idParams: IdParams,
    open: async (tx, ctx) => tableStore(tx, registry, ctx, spec, row),
    area: RESOURCE_AREA[def.name] ?? def.area,
    tags: [def.name],
    title: def.name,
    platform: def.scope === 'platform',
    answers: { list: listSchemaOf(spec, row), one: oneJsonSchema(row), created: createdJsonSchema(row) },
    bodies: { create: postBody(spec), update: formBody(def, updateSchema(def)) },
    guard: spec.guard ? (ctx, action) => spec.guard?.(ctx, action) : undefined,
    noCreate: spec.createdElsewhere,
    postUpdates: spec.postUpdates,
    importable: spec.importable,
    importsInParts: spec.importable && spec.imports?.bulk,
    // The table's planner statistics after a large import (the owner's work, outside the tenant's transaction).
    afterLargeImport: spec.imports?.analyze ? () => analyze(database, spec) : undefined,
    async prepare(body, action) {
      if (action === 'create' && !(spec.postUpdates && 'id' in body)) return { input: await prepareInput(spec, withDefaults(def, body), 'create') };
      const { id, version, ...fields } = body as Record<string, unknown> & { id?: number; version?: number };
      refuseClearedDefaults(def, fields);
      return { input: await prepareInput(spec, fields, 'update'), version, id: action === 'create' ? id : undefined };
    },
  });
};

async function analyze(database: Database, spec: ResourceSpec): Promise<void> {
  await platform(database).execute(sql`analyze ${sql.identifier(getTableName(spec.table))}`);
}

const SlugParams = z.strictObject({ slug: z.string().min(1).max(60) });

/** A record as OpenAPI describes it: the system fields and the entity's own (its keys vary by entity). */
const RECORD_JSON = {
  type: 'object',
  properties: { id: { type: 'integer' }, version: { type: 'integer' }, created_at: { type: ['string', 'null'] }, updated_at: { type: ['string', 'null'] } },
  additionalProperties: true,
};

export interface CustomRecordOptions {
  database: Database;
  registry: Registry;
}

/** A custom entity's records under `/api/custom-entities/:slug/records`: the value-index store. */
export const customRecordRoutes: FastifyPluginAsyncZod<CustomRecordOptions> = async (app, { database, registry }) => {
  await serveRecords(app, {
    database,
    path: '/:slug/records',
    params: SlugParams,
    idParams: SlugParams.extend(IdParams.shape),
    open: openValueStore(registry),
    area: 'customEntityRecords',
    tags: ['custom-entity-records'],
    title: 'the records of a custom entity',
    answers: { list: listJsonSchema(RECORD_JSON), one: oneJsonSchema(RECORD_JSON), created: createdJsonSchema(RECORD_JSON), open: true },
    importable: true,
    // Fresh statistics after a large import keep list pages on their indexes (the owner's work, outside the tenant's transaction).
    async afterLargeImport() {
      await platform(database).execute(sql`analyze custom_records`);
      await platform(database).execute(sql`analyze custom_values`);
    },
  });
};
