/**
 * The doors to data. Every query runs behind one of them:
 *  - withTenant(): tenant data, as role frontis_app with app.tenant_id set, so row-level
 *    security applies on top of the tenant_id conditions the code writes anyway (reads alone:
 *    withTenantReads() in read-batch.ts);
 *  - withFamily(): one guardian's family, as role frontis_guardian;
 *  - platform() / withPlatform(): tenants, root users, secrets, login attempts.
 */
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { transactionOnConnection } from './drizzle-inside';
import { throughKeyedDoor } from './idempotency';
import type { Database, Db, Tx } from './types';
import { isDatabaseUnavailable } from './unavailable';

export const assertTenantId = (tenantId: number) => {
  if (!Number.isSafeInteger(tenantId) || tenantId <= 0) throw new Error(`invalid tenant id ${tenantId}`);
};

/**
 * Turns the current transaction into a tenant transaction: role frontis_app (no superuser,
 * so RLS applies) and app.tenant_id, both local to the transaction so a pooled connection
 * never leaks them to the next user. One statement, one round trip.
 * Use withTenant(); call this directly only inside a platform transaction that must also
 * write tenant rows atomically (creating a tenant with its first ADMIN).
 */
export async function enterTenant(tx: Tx, tenantId: number): Promise<void> {
  assertTenantId(tenantId);
  await tx.execute(sql`select set_config('role', 'frontis_app', true), set_config('app.tenant_id', ${String(tenantId)}, true)`);
}

/** The settings of a tenant transaction as literal SQL (tenantId is checked to be a positive integer). */
export const tenantSettings = (tenantId: number) => `select set_config('role', 'frontis_app', true), set_config('app.tenant_id', '${tenantId}', true)`;

/** The single door to tenant data: fn runs in a transaction that sees only tenantId's rows. */
export async function withTenant<T>(database: Database, tenantId: number, fn: (tx: Tx) => Promise<T>): Promise<T> {
  assertTenantId(tenantId);
  // A write sent with an Idempotency-Key reserves it in this same transaction (idempotency.ts).
  return throughKeyedDoor(tenantId, fn, (run) => {
    if (database.pool) return pgTenantTransaction(database.pool, database.db, tenantSettings(tenantId), run);
    return database.db.transaction(async (tx) => {
      await enterTenant(tx, tenantId);
      return run(tx);
    });
  });
}

/**
 * The settings of a family transaction as literal SQL: role frontis_guardian, the centre and
 * the guardian (both checked to be positive integers), local to the transaction.
 */
const familySettings = (tenantId: number, guardianId: number) =>
  `select set_config('role', 'frontis_guardian', true), set_config('app.tenant_id', '${tenantId}', true), set_config('app.guardian_id', '${guardianId}', true)`;

/**
 * The door to one family's data (a guardian's portal requests): like withTenant(), but as role
 * frontis_guardian with app.guardian_id set too, so row-level security (family-policies.ts)
 * shows fn only this guardian's own row, her children and what hangs off them, whatever its
 * queries forget to narrow.
 */
export async function withFamily<T>(database: Database, tenantId: number, guardianId: number, fn: (tx: Tx) => Promise<T>): Promise<T> {
  assertTenantId(tenantId);
  if (!Number.isSafeInteger(guardianId) || guardianId <= 0) throw new Error(`invalid guardian id ${guardianId}`);
  return throughKeyedDoor(tenantId, fn, (run) => {
    if (database.pool) return pgTenantTransaction(database.pool, database.db, familySettings(tenantId, guardianId), run);
    return database.db.transaction(async (tx) => {
      await tx.execute(sql.raw(familySettings(tenantId, guardianId)));
      return run(tx);
    });
  });
}

/**
 * withTenant (and withFamily) on node-postgres: what drizzle's db.transaction() does, except that BEGIN and
 * the tenant settings travel as one simple-protocol message (one round trip instead of
 * two). The settings are transaction-local as before, so the pooled connection never keeps them.
 */
async function pgTenantTransaction<T>(pool: pg.Pool, db: Db, settings: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    const tx = transactionOnConnection(db, client);
    await client.query(`begin; ${settings}`);
    try {
      const result = await fn(tx);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch((e: Error) => (broken = e));
      throw error;
    }
  } catch (error) {
    if (isDatabaseUnavailable(error)) broken ??= error as Error;
    throw error;
  } finally {
    // A connection that failed (or whose rollback failed) is discarded, never handed to the next request.
    client.release(broken);
  }
}

/**
 * The door to platform tables (tenants, root_users, login_attempts, server_secrets). Runs as
 * the connecting role, without app.tenant_id: tenant tables show no rows here unless that
 * role bypasses RLS, so tenant data must not be read this way.
 */
export const platform = (database: Database): Db => database.db;

/** A platform transaction (see platform()). */
export async function withPlatform<T>(database: Database, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return database.db.transaction(fn);
}
