import { z } from 'zod';
import { DomainError } from '../../domain/index';

/** A row id from the URL; anything that is not a positive 32-bit integer names no row. */
export function parseId(raw: unknown): number {
  if (typeof raw !== 'string' || !/^\d{1,10}$/.test(raw)) throw new DomainError('not-found');
  const id = Number(raw);
  if (id < 1 || id > 2_147_483_647) throw new DomainError('not-found');
  return id;
}

/** Instants leave the server as ISO 8601 UTC strings. */
export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** `/:id` of a route: a positive 32-bit integer, else the row does not exist (404). */
export const IdParams = z.strictObject({
  id: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(2_147_483_647)),
});
