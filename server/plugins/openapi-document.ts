/**
 * What the published OpenAPI document says beyond the route schemas, added by @fastify/swagger's
 * `transform` (one route) and `transformObject` (the whole document) hooks so the routes keep
 * only what they validate: stable operationIds, the two client headers as shared parameters,
 * the 4xx answers with the one error body, `servers`, the list routes' query names derived
 * from the resource declarations, and one shared schema per resource row.
 * tests/api/plugins/openapi.test.ts runs a real validator (Redocly) over the result.
 */
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import {
  ERROR_CODES,
  ERROR_REASONS,
  ERROR_STATUS,
  FIELD_CODES,
  FIELD_REGISTRY,
  type FilterOp,
  RESOURCES,
  type ResourceDef,
  SYSTEM_FIELDS,
} from '../../domain/index';
import { isApiPath } from '../context';

type Json = Record<string, unknown>;
interface Operation extends Json {
  operationId?: string;
  parameters?: Json[];
  responses?: Record<string, Json>;
  security?: unknown[];
}
type PathItem = Record<string, Operation>;
export interface OpenApiDocument extends Json {
  paths: Record<string, PathItem>;
  components: Json & { schemas?: Record<string, Json>; parameters?: Record<string, Json>; responses?: Record<string, Json> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const WRITES = new Set(['post', 'put', 'patch', 'delete']);
const ref = (kind: 'schemas' | 'parameters' | 'responses', name: string) => ({ $ref: `#/components/${kind}/${name}` });

/**
 * A query string a route reads by hand (with its own field codes): the schema names and
 * documents each parameter, but lets every value through, so the handler's checks and codes
 * stay the only ones. `required` is written into the document only (zod's meta), for the same
 * reason: a missing name is the handler's 400, not the validator's.
 */
export function handReadQuery(shape: Record<string, { description: string; many?: boolean }>, required: readonly string[] = []) {
  // z.any() documented as a string: a repeated name (an array) is the handler's to refuse too.
  const one = z.any().meta({ type: 'string' });
  const many = z.union([z.string(), z.array(z.string())]);
  const entries = Object.entries(shape).map(([name, { description, many: repeated }]) => [name, (repeated ? many : one).optional().meta({ description })]);
  return z.looseObject(Object.fromEntries(entries)).meta(required.length ? { required: [...required] } : {});
}

/** `get /api/lessons/{id}/calendar-feed` -> `getApiLessonsIdCalendarFeed`: stable, and unique because method+path is. */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1));
  return method.toLowerCase() + (words.join('') || 'Root');
}

/** The names a list route's query takes for a resource: paging, sorting, search, each filter with its operators. */
export function listParameters(res: ResourceDef): Json[] {
  const fields = [...SYSTEM_FIELDS, ...res.fields].filter((f) => f.filterable && !f.writeOnly);
  const suffix: Record<FilterOp, string> = { eq: '', ne: '_ne', gte: '_gte', lte: '_lte', like: '_like' };
  const out: Json[] = [];
  for (const field of fields) {
    const ops = FIELD_REGISTRY[field.type].ops;
    // parseListQuery reads a bare name as equality when the type allows eq or like.
    const allowed = (Object.keys(suffix) as FilterOp[]).filter((op) => ops.includes(op) || (op === 'eq' && ops.includes('like')));
    for (const op of allowed) {
      const repeated = op === 'eq' || op === 'ne' || op === 'like';
      out.push({
        in: 'query',
        name: field.name + suffix[op],
        required: false,
        description: `${field.type} field \`${field.name}\`: ${op === 'eq' ? 'equal to' : op === 'ne' ? 'not equal to' : op === 'gte' ? 'at least' : op === 'lte' ? 'at most' : 'contains'}${repeated ? ' (repeat for any of several)' : ''}`,
        schema: repeated ? { type: 'array', items: { type: 'string' } } : { type: 'string' },
        ...(repeated ? { style: 'form', explode: true } : {}),
      });
    }
  }
  return out;
}

const PAGING = ['Start', 'End', 'Sort', 'Order', 'Search'] as const;

const COMPONENT_PARAMETERS: Record<string, Json> = {
  ClientType: {
    in: 'header',
    name: 'x-client-type',
    required: true,
    description: 'Who calls: `web` (the browser client, session in cookies) or `api`.',
    schema: { type: 'string', enum: ['web', 'api'] },
  },
  TenantId: {
    in: 'header',
    name: 'x-tenant-id',
    required: true,
    description: "The centre's slug; when the Host names a centre, the two must agree.",
    schema: { type: 'string', pattern: '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$' },
  },
  IdempotencyKey: {
    in: 'header',
    name: 'idempotency-key',
    required: false,
    description:
      'Makes the write safe to send again: the same key with the same request answers the first answer again (`Idempotency-Replayed: true`) without doing it twice; with another request 422 `idempotency-mismatch`; 409 `in-progress` while the first has not answered. 1-255 visible ASCII characters, kept 24 hours per account and centre.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  },
  Start: { in: 'query', name: '_start', required: false, description: 'First row (0-based).', schema: { type: 'string', pattern: '^\\d{1,9}$' } },
  End: { in: 'query', name: '_end', required: false, description: 'Row after the last one.', schema: { type: 'string', pattern: '^\\d{1,9}$' } },
  Sort: { in: 'query', name: '_sort', required: false, description: 'Sortable field names, comma-separated (at most 5).', schema: { type: 'string' } },
  Order: {
    in: 'query',
    name: '_order',
    required: false,
    description: '`asc` or `desc` for each name of `_sort`, comma-separated.',
    schema: { type: 'string' },
  },
  Search: { in: 'query', name: 'q', required: false, description: 'Words to search for (at most 200 characters).', schema: { type: 'string', maxLength: 200 } },
};

const ERROR_SCHEMA: Json = {
  type: 'object',
  description: 'Every refusal: a code for programs, a message for people, the refused fields of a 400.',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: [...ERROR_CODES] },
        message: { type: 'string' },
        fields: {
          type: 'object',
          description: 'Field name (`_` for the whole request) -> why.',
          additionalProperties: { type: 'string', enum: [...FIELD_CODES] },
        },
        details: {
          type: 'object',
          properties: {
            reason: { type: 'string', enum: [...ERROR_REASONS] },
            uses: { type: 'object', additionalProperties: { type: 'integer' } },
            count: { type: 'integer' },
            field: { type: 'string' },
            from: { type: 'string' },
            to: { type: 'string' },
            status: { type: 'string' },
            retry_after: { type: 'integer' },
          },
        },
      },
    },
  },
};

/** One shared response per 4xx status of the error catalogue, naming the codes it carries. */
const RESPONSE_NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'TooLarge',
  429: 'TooManyRequests',
};
function componentResponses(): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [status, name] of Object.entries(RESPONSE_NAMES)) {
    const codes = ERROR_CODES.filter((code) => ERROR_STATUS[code] === Number(status));
    out[name] = { description: `Refused: ${codes.join(', ')}.`, content: { 'application/json': { schema: ref('schemas', 'Error') } } };
  }
  return out;
}

/** Which refusals an operation can answer, from what it is: every API call, signed in or not, with an id, a write. */
function errorStatuses(method: string, path: string, op: Operation): number[] {
  // An API call is refused 400 without its headers; the rest (the iCalendar link) only for its id.
  const statuses = isApiPath(method.toUpperCase(), path) ? [400] : [];
  const signedIn = !(Array.isArray(op.security) && op.security.length === 0);
  if (signedIn) statuses.push(401, 403);
  if (path.includes('{')) statuses.push(404);
  if (WRITES.has(method) && signedIn) statuses.push(409);
  if (op.requestBody) statuses.push(413);
  if (path === '/login') statuses.push(401, 429);
  return [...new Set(statuses)].sort((a, b) => a - b);
}

const pascal = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase());

/** Replaces every subtree deep-equal to `target` by `replacement` (the row schemas repeated in each answer). */
function replaceEqual(node: unknown, target: unknown, replacement: Json): unknown {
  if (isDeepStrictEqual(node, target)) return replacement;
  if (Array.isArray(node)) return node.map((n) => replaceEqual(n, target, replacement));
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, replaceEqual(v, target, replacement)]));
  return node;
}

/** A resource's row as its GET by id answers it (`{data: row}`). */
function rowSchemaOf(doc: OpenApiDocument, name: string): Json | undefined {
  const answer = doc.paths[`/api/${name}/{id}`]?.get?.responses?.['200'] as { content?: { 'application/json'?: { schema?: Json } } } | undefined;
  const data = (answer?.content?.['application/json']?.schema?.properties as Json | undefined)?.data as Json | undefined;
  return data?.type === 'object' ? data : undefined;
}

/**
 * Per route: a public route needs no credentials (`security: []`), which also tells
 * `transformObject` that it has no 401/403 to document.
 */
export function documentRoute<T extends { schema: unknown; route: { method: string | string[]; config?: unknown } }>(input: T): T {
  if (!input.schema || typeof input.schema !== 'object') return input;
  const schema = { ...(input.schema as Json) };
  if ((input.route.config as { access?: unknown } | undefined)?.access === 'public') schema.security = [];
  // Every DELETE handler answers 204 with no body; without an answer schema the document would say 200.
  if (input.route.method === 'DELETE' && !schema.response) schema.response = { 204: { description: 'Deleted', type: 'null' } };
  return { ...input, schema };
}

/** The whole document: shared components, then each operation pointed at them. */
export function documentObject(input: { openapiObject: object }): OpenApiDocument {
  let doc = input.openapiObject as OpenApiDocument;
  doc.servers = [{ url: '/', description: 'The server that serves this document' }];
  doc.components = {
    ...doc.components,
    schemas: { ...(doc.components?.schemas ?? {}), Error: ERROR_SCHEMA },
    parameters: { ...(doc.components?.parameters ?? {}), ...COMPONENT_PARAMETERS },
    responses: { ...(doc.components?.responses ?? {}), ...componentResponses() },
  };

  const lists = new Map<string, Json[]>(Object.values(RESOURCES).map((res) => [`/api/${res.name}`, listParameters(res)]));
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      op.operationId ??= operationIdOf(method, path);
      op.responses ??= {};
      for (const status of errorStatuses(method, path, op)) op.responses[status] ??= ref('responses', RESPONSE_NAMES[status]!);
      if (!isApiPath(method.toUpperCase(), path)) continue;
      const own = op.parameters ?? [];
      const named = new Set(own.map((p) => `${p.in}:${p.name}`));
      const added: Json[] = [ref('parameters', 'ClientType'), ref('parameters', 'TenantId')];
      // Every signed-in write takes an Idempotency-Key (plugins/idempotency.ts); sign-in and refresh do not.
      if (['post', 'put', 'patch', 'delete'].includes(method) && path !== '/login' && path !== '/refresh-token' && path !== '/sign-out')
        added.push(ref('parameters', 'IdempotencyKey'));
      const filters = method === 'get' ? lists.get(path) : undefined;
      // Every list of rows pages, sorts and searches alike (parseListQuery); a declared resource also filters.
      if (filters || (method === 'get' && /^\/api\/custom-entities(\/\{slug\}\/records)?$/.test(path))) {
        added.push(...PAGING.filter((p) => !named.has(`query:${COMPONENT_PARAMETERS[p]!.name}`)).map((p) => ref('parameters', p)));
        added.push(...(filters ?? []).filter((p) => !named.has(`query:${p.name}`)));
      }
      op.parameters = [...added, ...own];
    }
  }

  // One schema per resource row, shared by its list, read, create and update answers.
  for (const res of Object.values(RESOURCES)) {
    const row = rowSchemaOf(doc, res.name);
    if (!row) continue;
    const name = `${pascal(res.name)}Row`;
    const paths = Object.fromEntries(
      Object.entries(doc.paths).map(([path, item]) => [
        path,
        path === `/api/${res.name}` || path.startsWith(`/api/${res.name}/`) ? replaceEqual(item, row, ref('schemas', name)) : item,
      ]),
    ) as OpenApiDocument['paths'];
    doc = { ...doc, paths, components: { ...doc.components, schemas: { ...doc.components.schemas, [name]: row } } };
  }
  return doc;
}
