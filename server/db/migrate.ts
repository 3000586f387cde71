import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Database } from './types';
import { FAMILY_POLICIES } from './family-policies';
import { TENANT_POLICIES } from './tenant-policies';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/** Arbitrary constant shared by every Frontis process: the key of the migration advisory lock. */
const MIGRATION_LOCK_KEY = 7_345_112_001;

/**
 * Applies pending migrations; a no-op when all are applied. On PostgreSQL several processes
 * may start at once, so the work is serialised by a session-level advisory lock held on one
 * dedicated connection, and the migrations run on that same connection. Row-level security
 * for every tenant table follows (tenant-policies.ts), then the wall between families
 * (family-policies.ts).
 */
export async function migrate(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    if (!database.pglite) throw new Error('PGlite database without client');
    const db = drizzlePglite({ client: database.pglite });
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
    await db.execute(TENANT_POLICIES);
    await db.execute(FAMILY_POLICIES);
    return;
  }
  if (!database.pool) throw new Error('PostgreSQL database without pool');
  // The lock is the session's: through PgBouncer in transaction mode the unlock could reach
  // another server connection and leave the lock held. A direct URL gets a session of its own.
  const direct = database.directUrl ? new pg.Client({ connectionString: database.directUrl, connectionTimeoutMillis: 5000 }) : undefined;
  if (direct) await direct.connect();
  const client = direct ?? (await database.pool.connect());
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const db = drizzlePg({ client });
      await migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER });
      await db.execute(TENANT_POLICIES);
      await db.execute(FAMILY_POLICIES);
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    if (direct) await direct.end();
    else (client as pg.PoolClient).release();
  }
}
