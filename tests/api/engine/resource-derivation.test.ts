// The server side of "declared once": every declared resource has its API routes in the
// OpenAPI description and, when its rows belong to a tenant, a row-level-security policy on
// its table. Table-driven from the declarations, so a new declaration is checked here at once.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../../domain/resources/index';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { platform } from '../../../server/db/doors';
import { queryRows } from '../../../server/db/statements';

const DECLARED = Object.values(RESOURCES);
/** A resource's table: its API name in snake case. */
const tableOf = (name: string) => name.replace(/-/g, '_');

describe.each(DATABASE_KINDS)('declared resources on %s', (kind) => {
  let t: TestApp;
  let paths: Record<string, Record<string, unknown>>;
  let tables: Map<string, { tenantId: boolean; enabled: boolean; forced: boolean; policies: number }>;

  beforeAll(async () => {
    t = await startApp(kind);
    const docs = await t.request({ url: '/api/docs/json', tenant: null, clientType: null });
    expect(docs.statusCode).toBe(200);
    paths = (docs.json() as { paths: typeof paths }).paths;
    const rows = await queryRows<{ table: string; tenant_id: boolean; enabled: boolean; forced: boolean; policies: number }>(
      platform(t.database),
      sql`select c.relname as table, c.relrowsecurity as enabled, c.relforcerowsecurity as forced,
                 exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped) as tenant_id,
                 (select count(*)::int from pg_policies p where p.schemaname = 'public' and p.tablename = c.relname) as policies
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind = 'r'`,
    );
    tables = new Map(rows.map((r) => [r.table, { tenantId: r.tenant_id, enabled: r.enabled, forced: r.forced, policies: r.policies }]));
  });
  afterAll(async () => t?.close());

  it.each(DECLARED.map((d) => [d.name, d] as const))('%s: list and read routes are described', (name) => {
    expect(Object.keys(paths), `/api/${name}`).toContain(`/api/${name}`);
    expect(paths[`/api/${name}`]).toHaveProperty('get');
    expect(Object.keys(paths), `/api/${name}/{id}`).toContain(`/api/${name}/{id}`);
  });

  it.each(DECLARED.map((d) => [d.name, d] as const))('%s: its table has the row-level-security policy its scope needs', (name, def) => {
    const table = tables.get(tableOf(name));
    expect(table, tableOf(name)).toBeDefined();
    if ((def.scope ?? 'tenant') === 'platform') {
      expect(table!.tenantId).toBe(false);
      return;
    }
    expect(table).toMatchObject({ tenantId: true, enabled: true, forced: true });
    expect(table!.policies, tableOf(name)).toBeGreaterThanOrEqual(1);
  });

  it('the runtime declarations answer a signed-in user with a list (empty until custom entities), nobody else', async () => {
    const anonymous = await t.request({ url: '/api/resources/runtime' });
    expect(anonymous.statusCode).toBe(401);
    const slug = `rt${Date.now().toString(36)}`;
    const { admin } = await t.createTenant(slug);
    const res = await t.request({ url: '/api/resources/runtime', tenant: slug, token: admin.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: [] });
  });
});
