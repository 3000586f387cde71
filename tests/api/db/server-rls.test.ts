// Tenant isolation below the HTTP layer: row-level security must hide and protect other
// tenants' rows even when a query forgets its tenant_id condition, on PGlite and on a
// PostgreSQL server alike. Also: migrations are idempotent and safe to run concurrently.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../server/db/migrate';
import { history, sessions, tenants, users } from '../../../server/db/schema/index';
import { DATABASE_KINDS, startApp, TEST_DATABASE_URL, type TestApp } from '../support/harness';
import type { Database } from '../../../server/db/types';
import { openDatabase } from '../../../server/db/open';
import { platform, withPlatform, withTenant } from '../../../server/db/doors';
import { queryRows } from '../../../server/db/statements';

async function addTenant(database: Database, slug: string) {
  const [row] = await platform(database).insert(tenants).values({ slug, name: slug }).returning({ id: tenants.id });
  return row!.id;
}

async function addUser(database: Database, tenantId: number, username: string) {
  return withTenant(database, tenantId, async (tx) => {
    const [row] = await tx.insert(users).values({ tenantId, username, passwordHash: 'not-a-real-hash', role: 'SECRETARY' }).returning({ id: users.id });
    await tx.insert(history).values({ tenantId, entity: 'users', entityId: row!.id, action: 'create', changes: {} });
    return row!.id;
  });
}

const slug = (p: string) => `${p}-${randomBytes(4).toString('hex')}`;

describe.each(DATABASE_KINDS)('row-level security on %s', (kind) => {
  let t: TestApp;
  let a: number;
  let b: number;
  let userA: number;
  let userB: number;

  beforeAll(async () => {
    t = await startApp(kind);
    a = await addTenant(t.database, slug('rls-a'));
    b = await addTenant(t.database, slug('rls-b'));
    userA = await addUser(t.database, a, 'alice');
    userB = await addUser(t.database, b, 'bob');
  });
  afterAll(async () => t?.close());

  it('a query without any tenant condition sees only its own tenant', async () => {
    const seenByA = await withTenant(t.database, a, (tx) => tx.select({ id: users.id, tenantId: users.tenantId }).from(users));
    expect(seenByA).toEqual([{ id: userA, tenantId: a }]);
    const historyOfB = await withTenant(t.database, b, (tx) => tx.select({ tenantId: history.tenantId }).from(history));
    expect(historyOfB.length).toBeGreaterThan(0);
    expect(historyOfB.every((r) => r.tenantId === b)).toBe(true);
  });

  it("another tenant's rows can be neither written, changed nor deleted", async () => {
    await expect(
      withTenant(t.database, a, (tx) => tx.insert(users).values({ tenantId: b, username: 'mallory', passwordHash: 'x', role: 'ADMIN' })),
    ).rejects.toThrow();
    const changed = await withTenant(t.database, a, (tx) =>
      tx.update(users).set({ firstName: 'hacked' }).where(sql`${users.id} = ${userB}`).returning({ id: users.id }),
    );
    expect(changed).toEqual([]);
    const deleted = await withTenant(t.database, a, (tx) => tx.delete(history).where(sql`true`).returning({ tenantId: history.tenantId }));
    expect(deleted.every((r) => r.tenantId === a)).toBe(true);
    const [bob] = await withTenant(t.database, b, (tx) => tx.select({ firstName: users.firstName }).from(users));
    expect(bob?.firstName).toBe('');
    // Moving a row into another tenant is refused too (WITH CHECK).
    await expect(withTenant(t.database, a, (tx) => tx.update(users).set({ tenantId: b }).where(sql`true`))).rejects.toThrow();
  });

  it('a foreign key cannot point into another tenant', async () => {
    await expect(withTenant(t.database, a, (tx) => tx.insert(sessions).values({ tenantId: a, publicId: 'p1', userId: userB }))).rejects.toThrow();
  });

  it('the application role without a tenant sees no tenant rows at all', async () => {
    const rows = await withPlatform(t.database, async (tx) => {
      await tx.execute(sql`select set_config('role', 'frontis_app', true)`);
      return queryRows<{ n: number }>(tx, sql`select count(*)::int as n from users`);
    });
    expect(rows[0]?.n).toBe(0);
  });

  it('every table with a NOT NULL tenant_id has RLS enabled and forced with a policy, and frontis_app cannot bypass it', async () => {
    const tables = await queryRows<{ table: string; enabled: boolean; forced: boolean; policies: number }>(
      platform(t.database),
      sql`select c.relname as table, c.relrowsecurity as enabled, c.relforcerowsecurity as forced,
                 (select count(*)::int from pg_policy p where p.polrelid = c.oid and p.polname = 'tenant_isolation') as policies
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind = 'r'
            and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and a.attnotnull and not a.attisdropped)`,
    );
    expect(tables.map((r) => r.table).sort()).toEqual(expect.arrayContaining(['history', 'refresh_tokens', 'sessions', 'users']));
    for (const row of tables) expect(row, row.table).toMatchObject({ enabled: true, forced: true, policies: 1 });
    const [role] = await queryRows<{ rolsuper: boolean; rolbypassrls: boolean }>(
      platform(t.database),
      sql`select rolsuper, rolbypassrls from pg_roles where rolname = 'frontis_app'`,
    );
    expect(role).toEqual({ rolsuper: false, rolbypassrls: false });
  });

  it('a new tenant table gets its policy from the migration step, with no SQL of its own', async () => {
    const table = `rls_probe_${kind}`;
    await platform(t.database).execute(
      sql.raw(
        `create table ${table} (tenant_id int not null references tenants(id), id int generated always as identity, note text, primary key (tenant_id, id))`,
      ),
    );
    await migrate(t.database);
    await withTenant(t.database, a, (tx) => tx.execute(sql.raw(`insert into ${table} (tenant_id, note) values (${a}, 'mine')`)));
    const seen = await withTenant(t.database, b, (tx) => queryRows<{ n: number }>(tx, sql.raw(`select count(*)::int as n from ${table}`)));
    expect(seen[0]?.n).toBe(0);
    await expect(withTenant(t.database, b, (tx) => tx.execute(sql.raw(`insert into ${table} (tenant_id, note) values (${a}, 'forged')`)))).rejects.toThrow();
    await platform(t.database).execute(sql.raw(`drop table ${table}`));
  });

  it('a policy that read the centre row by row is brought to reading it once per statement, and still walls centres apart', async () => {
    const policyOf = async () => {
      const [row] = await queryRows<{ expr: string }>(
        platform(t.database),
        sql`select pg_get_expr(p.polqual, p.polrelid) as expr from pg_policy p where p.polrelid = 'users'::regclass and p.polname = 'tenant_isolation'`,
      );
      return row!.expr;
    };
    expect(await policyOf()).toContain('SELECT');
    // A database migrated before: the setting compared on every row.
    await platform(t.database).execute(
      sql.raw(
        `alter policy tenant_isolation on users using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int) with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)`,
      ),
    );
    expect(await policyOf()).not.toContain('SELECT');
    await migrate(t.database);
    expect(await policyOf()).toContain('SELECT');
    const seenByA = await withTenant(t.database, a, (tx) => tx.select({ id: users.id }).from(users));
    expect(seenByA).toEqual([{ id: userA }]);
    await expect(
      withTenant(t.database, b, (tx) => tx.insert(users).values({ tenantId: a, username: 'forged', passwordHash: 'x', role: 'SECRETARY' })),
    ).rejects.toThrow();
  });

  it('migrate is idempotent', async () => {
    await migrate(t.database);
    await migrate(t.database);
    const [row] = await queryRows<{ n: number }>(platform(t.database), sql`select count(*)::int as n from tenants`);
    expect(row!.n).toBeGreaterThanOrEqual(3);
  });
});

describe('migrations on PostgreSQL', () => {
  const name = `frontis_mig_${randomBytes(5).toString('hex')}`;
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const admin = () => new pg.Client({ connectionString: TEST_DATABASE_URL });

  beforeAll(async () => {
    const c = admin();
    await c.connect();
    await c.query(`CREATE DATABASE ${name}`);
    await c.end();
  });
  afterAll(async () => {
    const c = admin();
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  });

  it('two processes migrating one fresh database at once both succeed (advisory lock)', async () => {
    const first = await openDatabase({ url: url.toString() });
    const second = await openDatabase({ url: url.toString() });
    try {
      await Promise.all([migrate(first), migrate(second), migrate(first)]);
      const [row] = await queryRows<{ n: number }>(platform(second), sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect(row!.n).toBeGreaterThanOrEqual(2);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
