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
 * The job is a row (import_jobs), so any process answers its starter's poll (several processes
 * behind a proxy), and each part records the rows it created in the same transaction as them.
 * A job whose process died (a restart, a kill) stops moving: the first poll after STALE_MS
 * takes back what it had created and answers it failed (`import-interrupted`). Only its starter
 * reads it; the clean-up job removes jobs a day old.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { DomainError, type ImportJobAnswer } from '../../domain/index';
import type { Tx } from '../db/types';
import { importJobs } from '../db/schema/index';
import { translate } from '../plugins/errors';
import type { Ctx } from './spec';
import { importRefused, type ImportOptions, type ImportReport, type RecordStore } from './store';

export type ImportJob = z.infer<typeof ImportJobAnswer>;

/** Imports of more rows than this are worked in the background. */
export const BACKGROUND_ROWS = 500;
/** Rows per part (one transaction each). */
const PART_ROWS = 250;
/** A running job whose parts have not moved for this long lost its process. */
export const STALE_MS = 2 * 60 * 1000;

/** Who started a job: the same user across her sessions (a token refreshed while it runs). */
const starterOf = (ctx: Ctx) => (ctx.actor ? `${ctx.actor.kind}:${ctx.actor.id}` : '');

/** Lets requests waiting for the database take their turn before the next part. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The part of a store a background import needs, opened in a transaction of its own. */
export type OpenImport = <T>(fn: (store: RecordStore, tx: Tx) => Promise<T>) => Promise<T>;

type JobRow = typeof importJobs.$inferSelect;

const answerOf = (row: JobRow): ImportJob => ({
  job: row.id,
  status: row.status as ImportJob['status'],
  total: row.total,
  checked: row.checked,
  created: row.createdIds.length,
  report: (row.report as ImportJob['report']) ?? null,
  error: (row.error as ImportJob['error']) ?? null,
});

const thisJob = (ctx: Ctx, id: string) => and(eq(importJobs.tenantId, ctx.tenantId), eq(importJobs.id, id));

/**
 * Starts importing `rows` in the background (`path`: the import's address); answers the job
 * as it is now. `afterLarge` runs after 500 rows or more were created (fresh planner statistics).
 */
export async function startImport(
  ctx: Ctx,
  path: string,
  rows: readonly unknown[],
  options: ImportOptions,
  inStore: OpenImport,
  afterLarge?: () => Promise<void>,
): Promise<ImportJob> {
  const [row] = await inStore((_store, tx) =>
    tx
      .insert(importJobs)
      .values({ tenantId: ctx.tenantId, id: randomUUID(), starter: starterOf(ctx), path, total: rows.length })
      .returning(),
  );
  void work(ctx, row!.id, rows, options, inStore, afterLarge);
  return answerOf(row!);
}

/** The job `id` as its starter sees it now; 404 for anyone else or an unknown one. */
export async function importJob(ctx: Ctx, id: string, inStore: OpenImport): Promise<ImportJob> {
  const row = await inStore(async (_store, tx) => {
    const [found] = await tx.select().from(importJobs).where(thisJob(ctx, id));
    return found;
  });
  if (!row || row.starter !== starterOf(ctx)) throw new DomainError('not-found');
  const running = row.status === 'checking' || row.status === 'creating';
  if (running && Date.now() - row.heartbeatAt.getTime() > STALE_MS) return takeBack(ctx, id, inStore);
  return answerOf(row);
}

/** A job whose process died: what it created is taken back, and it says so. */
async function takeBack(ctx: Ctx, id: string, inStore: OpenImport): Promise<ImportJob> {
  // Claimed by moving it on, so two polls at once do not both take it back.
  const [claimed] = await inStore((_store, tx) =>
    tx
      .update(importJobs)
      .set({ heartbeatAt: new Date() })
      .where(and(thisJob(ctx, id), lt(importJobs.heartbeatAt, new Date(Date.now() - STALE_MS))))
      .returning(),
  );
  if (!claimed) return importJob(ctx, id, inStore);
  await undo(claimed.createdIds, inStore);
  const error = new DomainError('conflict', 'The import was interrupted by a restart of the server; nothing was imported.', undefined, {
    details: { reason: 'import-interrupted' },
  });
  return finish(ctx, id, inStore, { status: 'failed', createdIds: [], error: error.toBody().error as Record<string, unknown> });
}

/** Takes back the rows `ids` (deleting one already gone does nothing, so this may run twice). */
async function undo(ids: readonly number[], inStore: OpenImport): Promise<void> {
  for (let at = 0; at < ids.length; at += PART_ROWS) {
    await inStore((store) => store.importUndo!(ids.slice(at, at + PART_ROWS)));
    await turn();
  }
}

async function finish(ctx: Ctx, id: string, inStore: OpenImport, set: Partial<JobRow>): Promise<ImportJob> {
  const [row] = await inStore((_store, tx) =>
    tx
      .update(importJobs)
      .set({ ...set, heartbeatAt: new Date() })
      .where(thisJob(ctx, id))
      .returning(),
  );
  return answerOf(row!);
}

async function work(ctx: Ctx, id: string, rows: readonly unknown[], options: ImportOptions, inStore: OpenImport, afterLarge?: () => Promise<void>) {
  const created: number[] = [];
  try {
    const valid: Record<string, unknown>[] = [];
    const errors: ImportReport['errors'] = [];
    for (let at = 0; at < rows.length; at += PART_ROWS) {
      const part = await inStore(async (store, tx) => {
        const checked = await store.importCheck!(rows.slice(at, at + PART_ROWS), at);
        await tx
          .update(importJobs)
          .set({ checked: Math.min(rows.length, at + PART_ROWS), heartbeatAt: new Date() })
          .where(thisJob(ctx, id));
        return checked;
      });
      valid.push(...part.valid);
      errors.push(...part.errors);
      await turn();
    }
    if (errors.length && !options.skip_invalid) throw importRefused(errors);
    if (!options.dry_run) {
      for (let at = 0; at < valid.length; at += PART_ROWS) {
        // The rows and the job's record of them commit together.
        const ids = await inStore(async (store, tx) => {
          const made = await store.importCreate!(valid.slice(at, at + PART_ROWS));
          await tx
            .update(importJobs)
            .set({ status: 'creating', createdIds: sql`${importJobs.createdIds} || ${`{${made.join(',')}}`}::integer[]`, heartbeatAt: new Date() })
            .where(thisJob(ctx, id));
          return made;
        });
        created.push(...ids);
        await turn();
      }
    }
    await finish(ctx, id, inStore, { status: 'done', report: { created: valid.length, skipped: errors.length, errors } });
    if (!options.dry_run && created.length >= 500) await afterLarge?.().catch(() => undefined);
  } catch (error) {
    try {
      // all or nothing: what this import made is taken back before it says it failed
      await undo(created, inStore);
      const known = translate(error) ?? new DomainError('internal');
      await finish(ctx, id, inStore, { status: 'failed', createdIds: [], error: known.toBody().error as Record<string, unknown> });
    } catch {
      // The database went away meanwhile: the job stops moving, and the first poll after
      // STALE_MS takes back what its record says it created.
    }
  }
}
