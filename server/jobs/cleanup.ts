/**
 * Hourly housekeeping of security tables that would otherwise grow forever: old sign-in
 * attempts, long-expired refresh tokens, long imports' jobs of yesterday and Idempotency-Keys older than a day. Safe on several processes at once (plain deletes).
 * The embedded database has no autovacuum: without VACUUM ANALYZE its planner keeps the
 * statistics of an empty database and sorts whole tables for a page of 25.
 * Bytes of deleted files are removed once every kept backup is younger than their deletion
 * (a restored backup then never names a file whose bytes are gone).
 */
import { eq, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/types';
import { platform, withTenant } from '../db/doors';
import { fileDeletions, files, idempotencyKeys, importJobs, refreshTokens, tenants } from '../db/schema/index';
import { openFileStore, type FileStore } from '../modules/files/storage';
import { KEEP_BACKUPS } from './backup';
import { pruneLoginAttempts } from '../modules/auth/login-attempts';

/** Deleted files' bytes outlive the oldest backup kept by a day. */
const KEEP_DELETED_DAYS = KEEP_BACKUPS + 1;

/** Removes the bytes of files deleted long enough ago, unless a file row names them again. */
export async function purgeDeletedFiles(database: Database, tenantId: number, store: FileStore, days = KEEP_DELETED_DAYS): Promise<number> {
  const due = await withTenant(database, tenantId, (tx) =>
    tx
      .select({ key: fileDeletions.storageKey })
      .from(fileDeletions)
      .where(
        sql`${fileDeletions.deletedAt} <= now() - make_interval(days => ${days}) and not exists (select 1 from ${files} where ${files.storageKey} = ${fileDeletions.storageKey})`,
      ),
  );
  for (const { key } of due) {
    await store.remove(key);
    await withTenant(database, tenantId, (tx) => tx.delete(fileDeletions).where(eq(fileDeletions.storageKey, key)));
  }
  return due.length;
}

export async function cleanupNow(database: Database, config: Config, store: FileStore = openFileStore(config)): Promise<void> {
  await pruneLoginAttempts(database, config.loginRateLimit.windowSeconds);
  const all = await platform(database).select({ id: tenants.id }).from(tenants);
  for (const { id } of all) {
    // Keep expired tokens a day longer so a late reuse is still recognised as reuse.
    await withTenant(database, id, async (tx) => {
      await tx.delete(refreshTokens).where(lt(refreshTokens.expiresAt, sql`now() - interval '1 day'`));
      // A long import's report is read within minutes of its end.
      await tx.delete(importJobs).where(lt(importJobs.createdAt, sql`now() - interval '1 day'`));
    });
    // An Idempotency-Key is kept 24 hours (docs/rules.md, "Exactly once").
    await withTenant(database, id, (tx) => tx.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, sql`now() - interval '24 hours'`)));
    await purgeDeletedFiles(database, id, store);
  }
  if (database.kind === 'pglite') await platform(database).execute(sql`vacuum analyze`);
}

export function scheduleCleanup(database: Database, config: Config, log: FastifyBaseLogger): () => void {
  const timer = setInterval(() => {
    cleanupNow(database, config).catch((error: unknown) => log.error({ err: error }, 'cleanup failed'));
  }, 3600_000).unref();
  return () => clearInterval(timer);
}
