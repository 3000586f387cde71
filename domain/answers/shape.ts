/**
 * What the answers of non-CRUD routes are made of. Each answer is declared once, as a zod
 * schema in this folder: the server writes it through its JSON Schema (server/modules/answers.ts),
 * the client types the hook that reads it with `z.infer`, and tests parse real answers with it.
 */
import { z } from 'zod';

/** A whole number of euro cents, a count or an id. */
export const int = z.int();
/** YYYY-MM */
export const month = z.string().describe('YYYY-MM');
/** YYYY-MM-DD */
export const date = z.string().describe('YYYY-MM-DD');

/**
 * A record as the CRUD routes of its resource answer it. The server puts the resource's own row
 * schema (derived from its declaration) in this place, so what an answer carries of a record is
 * what its CRUD read carries; the client types it with the resource's row type.
 */
export const RecordRow = z.looseObject({ id: int, version: int });

/** `{data: …}`: how every single answer of the API is wrapped. */
export const dataOf = <T extends z.ZodType>(schema: T) => z.object({ data: schema });
