/**
 * Hourly housekeeping of security tables that would otherwise grow forever: old sign-in
 * attempts and long-expired refresh tokens. Safe on several processes at once (plain deletes).
 * The embedded database has no autovacuum: without VACUUM ANALYZE its planner keeps the
 * statistics of an empty database and sorts whole tables for a page of 25.
 */
import { lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import { platform, withTenant, type Database } from '../db/client';
import { refreshTokens, tenants } from '../db/schema/index';
import { pruneLoginAttempts } from '../modules/auth/login-attempts';

export async function cleanupNow(database: Database, config: Config): Promise<void> {
  await pruneLoginAttempts(database, config.loginRateLimit.windowSeconds);
  const all = await platform(database).select({ id: tenants.id }).from(tenants);
  for (const { id } of all) {
    // Keep expired tokens a day longer so a late reuse is still recognised as reuse.
    await withTenant(database, id, (tx) => tx.delete(refreshTokens).where(lt(refreshTokens.expiresAt, sql`now() - interval '1 day'`)));
  }
  if (database.kind === 'pglite') await platform(database).execute(sql`vacuum analyze`);
}

export function scheduleCleanup(database: Database, config: Config, log: FastifyBaseLogger): () => void {
  const timer = setInterval(() => {
    cleanupNow(database, config).catch((error: unknown) => log.error({ err: error }, 'cleanup failed'));
  }, 3600_000).unref();
  return () => clearInterval(timer);
}
