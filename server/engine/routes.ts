/**
 * The five routes of a CRUD resource, the same for every spec, as a plugin registered under
 * `/api/<name>`: access from RESOURCE_AREA, bodies validated by Fastify with the zod schemas
 * derived from the domain ResourceDef, answers written through the row's JSON Schema, every
 * query inside withTenant() (withPlatform() for the platform's own rows).
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createdJsonSchema,
  createSchema,
  DomainError,
  listJsonSchema,
  oneJsonSchema,
  RESOURCE_AREA,
  rowJsonSchema,
  updateSchema,
  type FieldErrors,
  type JsonSchema,
  type ResourceDef,
} from '../../domain/index';
import { actorOf, tenantOf } from '../context';
import { withPlatform, withTenant, withTenantReads, type Database, type Tx } from '../db/client';
import { formBody } from './body';
import { IdParams } from './params';
import { listRows } from './list';
import { findRow } from './read';
import type { Registry } from './registry';
import type { Ctx, ResourceSpec } from './spec';
import { createRow, deleteRow, updateRow } from './write';

export const ctxOf = (request: FastifyRequest): Ctx => ({ tenantId: tenantOf(request).id, actor: actorOf(request) });

/** Omitted or null fields that have a default take it on create (status ACTIVE, custom_fields {}). */
export function withDefaults(def: ResourceDef, input: Record<string, unknown>): Record<string, unknown> {
  const out = { ...input };
  for (const f of def.fields) {
    if (f.default !== undefined && (out[f.name] === undefined || out[f.name] === null)) out[f.name] = structuredClone(f.default);
  }
  return out;
}

/** A field with a default is never empty: clearing it on update is refused rather than stored as null. */
function refuseClearedDefaults(def: ResourceDef, input: Record<string, unknown>) {
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

export interface CrudOptions {
  database: Database;
  registry: Registry;
  spec: ResourceSpec;
}

export const crudRoutes: FastifyPluginAsyncZod<CrudOptions> = async (app, { database, registry, spec }) => {
  const { def } = spec;
  const area = RESOURCE_AREA[def.name] ?? def.area;
  const tag = { tags: [def.name] };
  const row = rowSchemaOf(spec);
  const inTenant = <T>(ctx: Ctx, fn: (tx: Tx) => Promise<T>) =>
    spec.def.scope === 'platform' ? withPlatform(database, fn) : withTenant(database, ctx.tenantId, fn);
  // Reads send what they can together: a page, its count and its labels in one round trip.
  const readTenant = <T>(ctx: Ctx, fn: (tx: Tx) => Promise<T>) =>
    spec.def.scope === 'platform' ? withPlatform(database, fn) : withTenantReads(database, ctx.tenantId, fn);
  // Who may not create or delete at all hears so before anything about the body or the id.
  const guard = (action: 'create' | 'delete') => async (request: FastifyRequest) => spec.guard?.(ctxOf(request), action);

  app.get(
    '',
    { config: { access: { area, action: 'list' } }, schema: { ...tag, summary: `List ${def.name}`, response: { 200: listSchemaOf(spec, row) } } },
    async (request, reply) => {
      const ctx = ctxOf(request);
      // The filter names depend on the resource (and, for custom fields, on the tenant): parseListQuery checks them.
      const page = await readTenant(ctx, (tx) => listRows(tx, registry, ctx, spec, request.query as Record<string, string | string[] | undefined>));
      reply.header('x-total-count', String(page.total));
      return page;
    },
  );

  app.get(
    '/:id',
    {
      config: { access: { area, action: 'read' } },
      schema: { ...tag, summary: `One of ${def.name}`, params: IdParams, response: { 200: oneJsonSchema(row) } },
    },
    async (request) => {
      const ctx = ctxOf(request);
      const data = await readTenant(ctx, (tx) => findRow(tx, registry, ctx, spec, request.params.id));
      if (!data) throw new DomainError('not-found');
      return { data };
    },
  );

  if (!spec.createdElsewhere) registerCreate();
  function registerCreate() {
    app.post(
      '',
      {
        config: { access: { area, action: 'create' } },
        preValidation: guard('create'),
        schema: {
          ...tag,
          summary: spec.postUpdates ? `Create one of ${def.name} (or update one when the body has an id)` : `Create one of ${def.name}`,
          body: postBody(spec),
          response: { 200: createdJsonSchema(row), 201: createdJsonSchema(row) },
        },
      },
      async (request, reply) => {
        const ctx = ctxOf(request);
        const body = request.body as Record<string, unknown>;
        if (spec.postUpdates && 'id' in body) {
          const { id, version, ...rest } = body as Record<string, unknown> & { id: number; version?: number };
          refuseClearedDefaults(def, rest);
          const input = await prepareInput(spec, rest, 'update');
          return { id, data: await inTenant(ctx, (tx) => updateRow(tx, registry, ctx, spec, id, input, version)) };
        }
        const input = await prepareInput(spec, withDefaults(def, body), 'create');
        const data = await inTenant(ctx, (tx) => createRow(tx, registry, ctx, spec, input));
        return reply.code(201).send({ id: data.id, data });
      },
    );
  }

  app.patch(
    '/:id',
    {
      config: { access: { area, action: 'update' } },
      schema: {
        ...tag,
        summary: `Update one of ${def.name} (version required)`,
        params: IdParams,
        body: formBody(def, updateSchema(def)),
        response: { 200: oneJsonSchema(row) },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body as Record<string, unknown> & { version: number };
      refuseClearedDefaults(def, fields);
      const input = await prepareInput(spec, fields, 'update');
      const ctx = ctxOf(request);
      return { data: await inTenant(ctx, (tx) => updateRow(tx, registry, ctx, spec, request.params.id, input, version)) };
    },
  );

  app.delete(
    '/:id',
    {
      config: { access: { area, action: 'delete' } },
      preValidation: guard('delete'),
      schema: { ...tag, summary: `Delete one of ${def.name}`, params: IdParams },
    },
    async (request, reply) => {
      const ctx = ctxOf(request);
      await inTenant(ctx, (tx) => deleteRow(tx, registry, ctx, spec, request.params.id, (request.query ?? {}) as Record<string, unknown>));
      return reply.code(204).send();
    },
  );
};
