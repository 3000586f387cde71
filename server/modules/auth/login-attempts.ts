/**
 * Sign-in rate limits, counted in the database so that all API processes share them:
 * failed attempts per (tenant, username) since its last success, and all attempts per
 * client address, each within a sliding window.
 */
import { and, count, eq, gt, isNull, lt, min, sql } from 'drizzle-orm';
import { DomainError } from '../../../domain/index';
import type { Config } from '../../config';
import { platform, type Database } from '../../db/client';
import { loginAttempts } from '../../db/schema/index';

export const usernameKey = (username: string) => username.trim().toLowerCase().slice(0, 200);

const tenantIs = (tenantId: number | null) => (tenantId === null ? isNull(loginAttempts.tenantId) : eq(loginAttempts.tenantId, tenantId));

/** Throws 429 rate-limited (with Retry-After seconds) when either limit is reached. */
export async function checkLoginRate(
  database: Database,
  limits: Config['loginRateLimit'],
  key: { tenantId: number | null; username: string; address: string },
): Promise<void> {
  const db = platform(database);
  const since = new Date(Date.now() - limits.windowSeconds * 1000);
  const retryAfter = (oldest: Date | null) => Math.max(1, Math.ceil(((oldest?.getTime() ?? Date.now()) + limits.windowSeconds * 1000 - Date.now()) / 1000));

  const [byAddress] = await db
    .select({ n: count(), oldest: min(loginAttempts.at) })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.address, key.address), gt(loginAttempts.at, since)));
  if (byAddress && byAddress.n >= limits.perAddress) {
    throw new DomainError('rate-limited', undefined, undefined, { retryAfter: retryAfter(byAddress.oldest) });
  }

  const [byUser] = await db
    .select({ n: count(), oldest: min(loginAttempts.at) })
    .from(loginAttempts)
    .where(
      and(tenantIs(key.tenantId), eq(loginAttempts.usernameKey, usernameKey(key.username)), eq(loginAttempts.succeeded, false), gt(loginAttempts.at, since)),
    );
  if (byUser && byUser.n >= limits.perUser) {
    throw new DomainError('rate-limited', undefined, undefined, { retryAfter: retryAfter(byUser.oldest) });
  }
}

export async function recordLoginAttempt(
  database: Database,
  key: { tenantId: number | null; username: string; address: string },
  succeeded: boolean,
): Promise<void> {
  const db = platform(database);
  const name = usernameKey(key.username);
  if (succeeded) {
    // A successful sign-in clears that account's failures; the address still counts the attempt.
    await db.delete(loginAttempts).where(and(tenantIs(key.tenantId), eq(loginAttempts.usernameKey, name), eq(loginAttempts.succeeded, false)));
  }
  await db.insert(loginAttempts).values({ tenantId: key.tenantId, usernameKey: name, address: key.address.slice(0, 100), succeeded });
}

/** Drops attempts older than any window could need (run by jobs/cleanup.ts). */
export async function pruneLoginAttempts(database: Database, windowSeconds: number): Promise<void> {
  await platform(database)
    .delete(loginAttempts)
    .where(lt(loginAttempts.at, sql`now() - make_interval(secs => ${windowSeconds * 2})`));
}
