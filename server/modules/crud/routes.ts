/**
 * The five routes of a CRUD resource, the same for every spec: access from RESOURCE_AREA,
 * bodies validated by the zod schemas derived from the domain ResourceDef, every query inside
 * withTenant().
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createSchema, DomainError, parseBody, RESOURCE_AREA, updateSchema, type FieldErrors, type ResourceDef } from '../../../domain/index';
import { actorOf, tenantOf } from '../../context';
import { withTenant, type Database, type Tx } from '../../db/client';
import { jsonSchema } from '../../plugins/openapi';
import { blankToNull } from '../body';
import { parseId } from '../params';
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

/** Parses a create body: blank optional text is null, then the domain schema, then defaults. */
export function parseCreate(def: ResourceDef, schema: ReturnType<typeof createSchema>, body: unknown): Record<string, unknown> {
  return withDefaults(def, parseBody(schema, blankToNull(def, body)) as Record<string, unknown>);
}

export function crudRoutes(app: FastifyInstance, database: Database, registry: Registry, spec: ResourceSpec) {
  const { def } = spec;
  const area = RESOURCE_AREA[def.name] ?? def.area;
  const base = `/api/${def.name}`;
  const tag = { tags: [def.name] };
  const CreateBody = createSchema(def);
  const PatchBody = updateSchema(def);
  const inTenant = <T>(ctx: Ctx, fn: (tx: Tx) => Promise<T>) => withTenant(database, ctx.tenantId, fn);

  app.get(base, { config: { access: { area, action: 'list' } }, schema: { ...tag, summary: `List ${def.name}` } }, async (request, reply) => {
    const ctx = ctxOf(request);
    const page = await inTenant(ctx, (tx) => listRows(tx, registry, ctx, spec, request.query as Record<string, string | string[] | undefined>));
    reply.header('x-total-count', String(page.total));
    return page;
  });

  app.get(`${base}/:id`, { config: { access: { area, action: 'read' } }, schema: { ...tag, summary: `One of ${def.name}` } }, async (request) => {
    const id = parseId((request.params as { id?: string }).id);
    const ctx = ctxOf(request);
    const data = await inTenant(ctx, (tx) => findRow(tx, registry, ctx, spec, id));
    if (!data) throw new DomainError('not-found');
    return { data };
  });

  app.post(
    base,
    { config: { access: { area, action: 'create' } }, schema: { ...tag, summary: `Create one of ${def.name}`, body: jsonSchema(CreateBody) } },
    async (request, reply) => {
      spec.guard?.(ctxOf(request), 'create');
      const parsed = parseCreate(def, CreateBody, request.body);
      const input = spec.prepareCreate ? await spec.prepareCreate(parsed) : parsed;
      const ctx = ctxOf(request);
      const data = await inTenant(ctx, (tx) => createRow(tx, registry, ctx, spec, input));
      return reply.code(201).send({ id: data.id, data });
    },
  );

  app.patch(
    `${base}/:id`,
    {
      config: { access: { area, action: 'update' } },
      schema: { ...tag, summary: `Update one of ${def.name} (version required)`, body: jsonSchema(PatchBody) },
    },
    async (request) => {
      const id = parseId((request.params as { id?: string }).id);
      const { version, ...input } = parseBody(PatchBody, blankToNull(def, request.body)) as Record<string, unknown> & { version: number };
      refuseClearedDefaults(def, input);
      const ctx = ctxOf(request);
      return { data: await inTenant(ctx, (tx) => updateRow(tx, registry, ctx, spec, id, input, version)) };
    },
  );

  app.delete(
    `${base}/:id`,
    { config: { access: { area, action: 'delete' } }, schema: { ...tag, summary: `Delete one of ${def.name}` } },
    async (request, reply) => {
      const ctx = ctxOf(request);
      spec.guard?.(ctx, 'delete');
      const id = parseId((request.params as { id?: string }).id);
      await inTenant(ctx, (tx) => deleteRow(tx, registry, ctx, spec, id, (request.query ?? {}) as Record<string, unknown>));
      return reply.code(204).send();
    },
  );
}
