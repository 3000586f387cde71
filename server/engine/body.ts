import { z } from 'zod';
import type { ResourceDef } from '../../domain/index';

/**
 * Forms send '' for a cleared optional input; store that as "no value" (null) rather than
 * refusing it as a malformed e-mail or phone. Required fields keep '' and fail as required.
 */
export function blankToNull(res: ResourceDef, body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const f of res.fields) {
    if (!f.required && typeof out[f.name] === 'string' && (out[f.name] as string).trim() === '') out[f.name] = null;
  }
  return out;
}

/** A route's body schema for a resource: blank optional inputs become null, then `schema` decides. */
export const formBody = <T extends z.ZodType>(res: ResourceDef, schema: T) => z.preprocess((body) => blankToNull(res, body), schema);
