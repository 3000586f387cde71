/**
 * Statements as text: written once by drizzle and sent again as they are (writeStatement,
 * KeptStatements, writtenRows), parameters written in as literals (inlineParams), and raw SQL's
 * rows on either driver (queryRows).
 */
import { createRequire } from 'node:module';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Queryable, Tx } from './types';

/** node-postgres's own conversion of a parameter to the text it sends (arrays, dates, JSON). */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils') as { prepareValue: (value: unknown) => string | Buffer | null };

/**
 * The literal pg's escapeLiteral writes (quotes doubled; with a backslash, backslashes doubled
 * too and an E string), made by splitting and joining where pg adds one character at a time:
 * a megabyte took 280–370 ms there and 1–60 ms here (most for a megabyte of quotes).
 */
export function quoteLiteral(value: string): string {
  const quoted = value.split("'").join("''");
  return value.includes('\\') ? ` E'${quoted.split('\\').join('\\\\')}'` : `'${quoted}'`;
}

/**
 * A statement with its parameters written in as literals, exactly the text node-postgres
 * would have sent for each (its parameters are untyped, like a quoted literal, so PostgreSQL
 * reads both alike), quoted as pg's escapeLiteral quotes (quoteLiteral). Undefined when a
 * parameter cannot travel inside the text (a NUL character or binary data): the caller then
 * sends it on its own.
 */
export function inlineParams(text: string, params: readonly unknown[]): string | undefined {
  const literals: string[] = [];
  for (const param of params) {
    const value = prepareValue(param);
    if (value === null) literals.push('null');
    else if (typeof value !== 'string' || value.includes('\0')) return undefined;
    else literals.push(quoteLiteral(value));
  }
  if (!literals.length) return text;
  return text.replace(/\$(\d+)\b/g, (whole, n: string) => literals[Number(n) - 1] ?? whole);
}

/**
 * A parameter written as PGlite would send it: a Date as its ISO text (node-postgres writes
 * it in local time), the rest as node-postgres writes it.
 */
export const inlinePglite = (text: string, params: readonly unknown[]) =>
  inlineParams(
    text,
    params.map((p) => (p instanceof Date ? p.toISOString() : p)),
  );

/** How a driver's parameters are written into a statement's text (inlineParams, inlinePglite). */
export type Inline = (text: string, params: readonly unknown[]) => string | undefined;

/**
 * A statement drizzle already wrote: its text (`$n` for each parameter) and its parameters.
 * With `inlined`, the text with the parameters written in is kept there too, per driver, for
 * a statement sent many times as it is (a kept list page).
 */
export interface WrittenStatement {
  text: string;
  params: unknown[];
  inlined?: Map<Inline, string | undefined>;
  /**
   * Prepared with its values written into the text, so that its one plan is made for them:
   * for a statement whose best plan depends on the values (which index rows a key or a
   * filter value selects), where a plan made for any value would be slower than planning.
   */
  valuesInText?: boolean;
}

const dialect = new PgDialect();

/** A statement written to SQL text once, as drizzle writes it, to be sent again as it is (writtenRows). */
export function writeStatement(statement: SQL, opts: { valuesInText?: boolean } = {}): WrittenStatement {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  return { text, params, inlined: new Map(), ...(opts.valuesInText ? { valuesInText: true } : {}) };
}

/**
 * Statements already written, by what decides their text, to be sent again as they are
 * without building anything: at most `max` in the process, all let go when it is reached
 * (each a few KB of SQL; a kept statement is only ever a shortcut).
 */
export class KeptStatements {
  readonly #kept = new Map<string, WrittenStatement>();
  constructor(readonly max: number) {}
  get(key: string): WrittenStatement | undefined {
    return this.#kept.get(key);
  }
  keep(key: string, statement: WrittenStatement): WrittenStatement {
    if (this.#kept.size >= this.max) this.#kept.clear();
    this.#kept.set(key, statement);
    return statement;
  }
}

/** A written statement as SQL again, for a transaction that does not batch its reads. */
function asSql({ text, params }: WrittenStatement): SQL {
  const chunks: SQL[] = [];
  let last = 0;
  for (const match of text.matchAll(/\$(\d+)\b/g)) {
    chunks.push(sql.raw(text.slice(last, match.index)), sql`${sql.param(params[Number(match[1]) - 1])}`);
    last = match.index + match[0].length;
  }
  chunks.push(sql.raw(text.slice(last)));
  return sql.join(chunks);
}

/**
 * Rows of a statement built for this request, sent as a kept one is: prepared once on a
 * connection that keeps prepared statements, and executed there after (same text, any values).
 */
export const preparedRows = <T>(tx: Tx, statement: SQL): Promise<T[]> => writtenRows<T>(tx, writeStatement(statement));

/** How a transaction that batches its reads sends a written statement (read-batch.ts tells). */
type SendWritten = (statement: WrittenStatement) => Promise<{ rows: unknown[] }>;
const writtenSenders = new WeakMap<Tx, SendWritten>();

/** Written statements on tx are sent by `send` (a batch of reads) rather than through drizzle. */
export const sendWrittenThrough = (tx: Tx, send: SendWritten) => void writtenSenders.set(tx, send);

/**
 * A count of rows (a page's size or offset), checked and written into a statement's text: a
 * prepared page whose limit PostgreSQL can see keeps one plan for every centre and filter
 * value, where against a limit parameter it would plan every run anew.
 */
export function rowCount(n: number): SQL {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a count of rows: ${n}`);
  return sql.raw(String(n));
}

/** Rows of a written statement, sent again without drizzle where tx batches reads (through drizzle elsewhere). */
export async function writtenRows<T>(tx: Tx, statement: WrittenStatement): Promise<T[]> {
  const send = writtenSenders.get(tx);
  if (!send) return queryRows<T>(tx, asSql(statement));
  return (await send(statement)).rows as T[];
}

/** Rows of a raw SQL query on either driver (pg answers {rows}, PGlite answers {rows} too). */
export async function queryRows<T>(q: Queryable, query: SQL): Promise<T[]> {
  return (await q.execute(query)).rows as T[];
}
