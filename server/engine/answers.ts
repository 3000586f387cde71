/**
 * Fastify response schemas of the non-CRUD answers declared in domain/answers/. Answers are
 * written by fast-json-stringify from JSON Schema (quicker than JSON.stringify, and a name the
 * schema does not list never leaves the server), so each zod schema is turned into one here,
 * once per route at start-up.
 */
import { z } from 'zod';
import { type JsonSchema, RecordRow } from '../../domain/index';

const SAFE_INTEGER_BOUNDS = { minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };

/**
 * A union of plain types (`anyOf: [{type: 'string'}, {type: 'null'}]`, as a nullable described
 * value becomes) as one list of types, which the serializer writes faster. Null when not plain.
 */
function plainTypes(options: unknown[]): { type: string[]; description?: string } | null {
  const type: string[] = [];
  let description: string | undefined;
  for (const o of options) {
    if (typeof o !== 'object' || o === null) return null;
    const { type: one, description: said, ...rest } = o as { type?: unknown; description?: unknown };
    if (typeof one !== 'string' || Object.keys(rest).length) return null;
    type.push(one);
    if (typeof said === 'string') description ??= said;
  }
  return description === undefined ? { type } : { type, description };
}

function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (typeof node !== 'object' || node === null) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    // `required` would turn an answer missing a name into a 500 at write time; the tests parse
    // answers with the zod schema instead. The other keys say nothing to the serializer.
    if (key === '$schema' || key === 'required') continue;
    if (key === 'propertyNames' && (value as JsonSchema).type === 'string') continue;
    if ((key === 'minimum' || key === 'maximum') && value === SAFE_INTEGER_BOUNDS[key]) continue;
    out[key] = tidy(value);
  }
  const plain = Array.isArray(out.anyOf) ? plainTypes(out.anyOf) : null;
  if (plain) {
    delete out.anyOf;
    Object.assign(out, plain);
  }
  return out;
}

/**
 * The JSON Schema of an answer. `row` stands where the answer carries a record (RecordRow): the
 * resource's own row schema, so the record leaves as its CRUD read would.
 */
export function answerSchema(schema: z.ZodType, row?: JsonSchema): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io: 'output',
    override: (ctx) => {
      if (!row || ctx.zodSchema !== RecordRow) return;
      const target = ctx.jsonSchema as JsonSchema;
      for (const key of Object.keys(target)) delete target[key];
      Object.assign(target, row);
    },
  });
  return tidy(json) as JsonSchema;
}
