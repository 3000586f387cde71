/**
 * A long import (more than BACKGROUND_ROWS rows) is answered at once with 202 and worked in the
 * background, in parts of PART_ROWS rows, each part its own short transaction, so the request
 * never waits on it and other requests take their turns between parts (the embedded
 * database has one connection). The client polls GET …/import?job=<id> for how far it has come,
 * then the report.
 *
 * It stays all or nothing as one transaction was: every row is checked before any is created
 * (an invalid row without skip_invalid fails the job with the same 400 body a short import
 * answers, nothing written), and when creating fails part-way, the rows already created are
 * taken back (their links and history too) before the job says it failed.
 *
 * Jobs live in this process's memory for an hour after they end; only their starter reads them.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { DomainError, type ImportJobAnswer } from '../../domain/index';
import type { Tx } from '../db/client';
import { translate } from '../plugins/errors';
import type { Ctx } from './spec';
import { importRefused, type ImportOptions, type ImportReport, type RecordStore } from './store';

export type ImportJob = z.infer<typeof ImportJobAnswer>;

/** Imports of more rows than this are worked in the background. */
export const BACKGROUND_ROWS = 500;
/** Rows per part (one transaction each). */
const PART_ROWS = 250;
/** How long a finished job's report stays to be read. */
const KEEP_MS = 60 * 60 * 1000;

interface Held {
  job: ImportJob;
  tenantId: number;
  userKey: string;
}

const JOBS = new Map<string, Held>();

/** Who started a job: the same user across her sessions (a token refreshed while it runs). */
const userKeyOf = (ctx: Ctx) => (ctx.actor ? `${ctx.actor.kind}:${ctx.actor.id}` : '');

/** Lets requests waiting for the database take their turn before the next part. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The part of a store a background import needs, opened in a transaction of its own. */
export type OpenImport = <T>(fn: (store: RecordStore, tx: Tx) => Promise<T>) => Promise<T>;

/**
 * Starts importing `rows` in the background; answers the job as it is now. `afterLarge` runs
 * after 500 rows or more were created (fresh planner statistics).
 */
export function startImport(ctx: Ctx, rows: readonly unknown[], options: ImportOptions, inStore: OpenImport, afterLarge?: () => Promise<void>): ImportJob {
  const job: ImportJob = { job: randomUUID(), status: 'checking', total: rows.length, checked: 0, created: 0, report: null, error: null };
  JOBS.set(job.job, { job, tenantId: ctx.tenantId, userKey: userKeyOf(ctx) });
  void work(job, rows, options, inStore, afterLarge).finally(() => setTimeout(() => JOBS.delete(job.job), KEEP_MS).unref());
  return { ...job };
}

/** The job `id` as its starter sees it now; 404 for anyone else or an unknown one. */
export function importJob(ctx: Ctx, id: string): ImportJob {
  const held = JOBS.get(id);
  if (!held || held.tenantId !== ctx.tenantId || held.userKey !== userKeyOf(ctx)) throw new DomainError('not-found');
  return { ...held.job };
}

async function work(job: ImportJob, rows: readonly unknown[], options: ImportOptions, inStore: OpenImport, afterLarge?: () => Promise<void>) {
  const created: number[] = [];
  try {
    const valid: Record<string, unknown>[] = [];
    const errors: ImportReport['errors'] = [];
    for (let at = 0; at < rows.length; at += PART_ROWS) {
      const part = await inStore((store) => store.importCheck!(rows.slice(at, at + PART_ROWS), at));
      valid.push(...part.valid);
      errors.push(...part.errors);
      job.checked = Math.min(rows.length, at + PART_ROWS);
      await turn();
    }
    if (errors.length && !options.skip_invalid) throw importRefused(errors);
    if (!options.dry_run) {
      job.status = 'creating';
      for (let at = 0; at < valid.length; at += PART_ROWS) {
        const ids = await inStore((store) => store.importCreate!(valid.slice(at, at + PART_ROWS)));
        created.push(...ids);
        job.created = created.length;
        await turn();
      }
    }
    job.report = { created: valid.length, skipped: errors.length, errors };
    job.status = 'done';
    if (!options.dry_run && created.length >= 500) await afterLarge?.().catch(() => undefined);
  } catch (error) {
    // all or nothing: what this import made is taken back before it says it failed
    if (created.length) {
      for (let at = 0; at < created.length; at += PART_ROWS) {
        await inStore((store) => store.importUndo!(created.slice(at, at + PART_ROWS))).catch(() => undefined);
        await turn();
      }
      job.created = 0;
    }
    const known = translate(error) ?? new DomainError('internal');
    job.error = known.toBody().error;
    job.status = 'failed';
  }
}
