/**
 * The store seam: what the engine's route handlers (routes.ts) need from wherever a
 * resource's rows live. A built-in resource keeps its rows in its own table (table-store.ts);
 * a custom entity's records live as jsonb with a typed value index (values/records.ts). The
 * handlers, the optimistic version check, the in-use answer, the import report and the
 * answer's shape are this file's and routes.ts's, once for both.
 */
import type { z } from 'zod';
import { DomainError, type ErrorDetails, type ImportReportAnswer, type JsonSchema } from '../../domain/index';
import type { Tx } from '../db/types';
import type { Ctx, Data } from './spec';

export type RawQuery = Record<string, string | string[] | undefined>;

/** A list's answer: the page, the count of every matching row, and sums where a resource keeps them. */
export interface Page {
  data: Data[];
  total: number;
  totals?: Record<string, number>;
  /** The whole answer, `{data, total[, totals]}`, as JSON text the database wrote; `data` is then empty. */
  json?: string;
}

/** One import's outcome: rows created, rows skipped (skip_invalid), and each refused row's fields (domain/answers/imports.ts). */
export type ImportReport = z.infer<typeof ImportReportAnswer>;

export interface ImportOptions {
  skip_invalid?: boolean;
  dry_run?: boolean;
}

/** A store bound to one request's transaction and caller. */
export interface RecordStore {
  /** The answer's row: its named keys are all an answer carries (see namedOnly). */
  readonly row: JsonSchema;
  list(query: RawQuery): Promise<Page>;
  find(id: number): Promise<Data | null>;
  create(input: Record<string, unknown>): Promise<Data>;
  update(id: number, input: Record<string, unknown>, version: number | undefined): Promise<Data>;
  remove(id: number, options: Record<string, unknown>): Promise<void>;
  importRows?(rows: readonly unknown[], options: ImportOptions): Promise<ImportReport>;
  /**
   * An import in parts, each in its own short transaction (server/engine/import-jobs.ts): check
   * some rows (`first` is the first one's place among all), create checked rows (their ids),
   * take created rows back when a later part fails.
   */
  importCheck?(rows: readonly unknown[], first: number): Promise<CheckedRows>;
  importCreate?(inputs: readonly Record<string, unknown>[]): Promise<number[]>;
  importUndo?(ids: readonly number[]): Promise<void>;
}

/** Rows an import checked: the valid ones' inputs, and each refused row's fields. */
export interface CheckedRows {
  valid: Record<string, unknown>[];
  errors: ImportReport['errors'];
}

/** Opens the store of one request inside its transaction, from the URL's parameters (a custom entity's `:slug`). */
export type OpenStore = (tx: Tx, ctx: Ctx, params: Record<string, unknown>) => Promise<RecordStore>;

/** Optimistic locking, for every store: a write naming another version than the row's is refused. */
export function assertVersion(before: { version: number }, version: number | undefined): void {
  if (version !== undefined && version !== before.version) throw new DomainError('stale');
}

/**
 * 409 in-use while other rows point at this one, by resource: `details.uses` counts them per
 * resource, `details.count` in all, `details.used_by` says the same in words.
 */
export function inUse(uses: Record<string, number>): DomainError | null {
  const entries = Object.entries(uses).filter(([, n]) => n > 0);
  if (!entries.length) return null;
  const count = entries.reduce((sum, [, n]) => sum + n, 0);
  const words = entries.map(([name, n]) => `${n} ${name}`);
  // Every extra of an error lives in its details (the one error body).
  const details: ErrorDetails & Record<string, unknown> = { reason: 'used-by', count, uses: Object.fromEntries(entries), used_by: words };
  return new DomainError('in-use', `This record is used by ${words.join(', ')}.`, undefined, { details });
}

/** The import's refusal when any row is invalid and the caller did not ask to skip them. */
export function importRefused(errors: ImportReport['errors']): DomainError {
  const details: ErrorDetails & Record<string, unknown> = { reason: 'rows-invalid', count: errors.length, errors };
  return new DomainError('validation', `${errors.length} rows are not valid; nothing was imported.`, { rows: 'invalid' }, { details });
}

/**
 * A row with only the keys its schema names: whatever a store carries beside them (a key a
 * definition no longer has, a helper column) never reaches an answer.
 */
export function namedOnly(row: JsonSchema, data: Data): Data {
  const names = Object.keys((row as { properties?: Record<string, unknown> }).properties ?? {});
  const out: Record<string, unknown> = {};
  for (const name of names) if (name in data) out[name] = data[name];
  return out as Data;
}
