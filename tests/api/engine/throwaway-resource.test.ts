// A resource declared here, at test time, and nowhere else: its table is derived from the
// declaration (declaredTable, created by drizzle-kit's generator as a migration would), the app
// serves it through BuildOptions.resources, and with no other code it is served, validated,
// listed, permission-checked from its declared area and row-level secured between centres.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineResource } from '../../../domain/fields';
import { declaredTable } from '../../../server/db/schema/declared';
import { expectError, expectStatus, json } from '../support/api-helpers';
import { createTables } from '../support/declared-ddl';
import { validBody } from '../support/declared-bodies';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { withTenant } from '../../../server/db/doors';
import { queryRows } from '../../../server/db/statements';

/** Holidays of a centre: ADMIN writes, every role reads (the `categories` area's grant). */
const HOLIDAYS = defineResource({
  name: 'holidays',
  area: 'categories',
  fields: [
    { name: 'name', type: 'TEXT', required: true, max: 100, sortable: true, filterable: true, searchable: true },
    { name: 'date', type: 'DATE', sortable: true, filterable: true },
    { name: 'notes', type: 'LONG_TEXT', searchable: true },
  ],
  defaultSort: [{ field: 'date', order: 'asc' }],
  screen: { route: '/holidays/', entity: 'holiday', modes: ['create', 'update'], icon: 'calendar', order: 95 },
});
const holidays = declaredTable(HOLIDAYS);

describe.each(DATABASE_KINDS)('a resource declared at test time on %s', (kind) => {
  let t: TestApp;
  const slugA = `hol-a-${randomBytes(3).toString('hex')}`;
  const slugB = `hol-b-${randomBytes(3).toString('hex')}`;
  let tenantA: number;
  let tenantB: number;
  let adminA: string;
  let adminB: string;
  let secretaryA: string;

  const call = (tenant: string, token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    t.request({ method, url, tenant, token, body });
  const create = async (body: Record<string, unknown>) => {
    const res = await call(slugA, adminA, 'POST', '/api/holidays', body);
    expectStatus(res, 201);
    return json(res).data as Record<string, unknown> & { id: number; version: number };
  };

  beforeAll(async () => {
    t = await startApp(kind, {}, { resources: [HOLIDAYS], prepare: (database) => createTables(database, { holidays }) });
    ({ tenantId: tenantA } = await t.createTenant(slugA));
    ({ tenantId: tenantB } = await t.createTenant(slugB));
    adminA = (await t.signIn(`admin-${slugA}`, 'admin-password-1', slugA)).token;
    adminB = (await t.signIn(`admin-${slugB}`, 'admin-password-1', slugB)).token;
    secretaryA = (await t.createUser(adminA, { role: 'SECRETARY', tenant: slugA })).token;
  }, 120_000);
  afterAll(async () => t?.close());

  it('is served: created from a body derived from its declaration, read, changed and deleted', async () => {
    const made = await create(validBody(HOLIDAYS, { full: true, text: 'Χριστούγεννα' }));
    expect(made).toMatchObject({ name: 'Χριστούγεννα', date: '2026-03-16', notes: 'notes x', version: 1 });
    const read = await call(slugA, adminA, 'GET', `/api/holidays/${made.id}`);
    expectStatus(read, 200);
    expect(json(read).data).toEqual(made);
    const changed = await call(slugA, adminA, 'PATCH', `/api/holidays/${made.id}`, { date: '2026-12-25', version: made.version });
    expectStatus(changed, 200);
    expect(json(changed).data).toMatchObject({ date: '2026-12-25', version: 2 });
    expectStatus(await call(slugA, adminA, 'DELETE', `/api/holidays/${made.id}`), 204);
    expectError(await call(slugA, adminA, 'GET', `/api/holidays/${made.id}`), 404, 'not-found');
  });

  it('is validated: 400 with a code per field, and nothing stored', async () => {
    const before = json(await call(slugA, adminA, 'GET', '/api/holidays')).total;
    const res = await call(slugA, adminA, 'POST', '/api/holidays', { date: '2026-02-30', colour: 'red' });
    const body = expectError(res, 400, 'validation');
    expect(Object.keys(body.error.fields).sort()).toEqual(['colour', 'date', 'name']);
    expectError(await call(slugA, adminA, 'GET', '/api/holidays?date_gte=tomorrow'), 400, 'validation', { date_gte: 'invalid' });
    expect(json(await call(slugA, adminA, 'GET', '/api/holidays')).total).toBe(before);
  });

  it('is listed: in its declared order, searched and filtered by its declared fields', async () => {
    const tag = randomBytes(3).toString('hex');
    await create({ name: `Πάσχα ${tag}`, date: '2026-04-12' });
    await create({ name: `Πρωτοχρονιά ${tag}`, date: '2026-01-01', notes: 'κλειστά' });
    await create({ name: `Αγίου Πνεύματος ${tag}`, date: '2026-06-01' });
    const list = await call(slugA, adminA, 'GET', `/api/holidays?q=${tag}`);
    expectStatus(list, 200);
    expect(json(list).data.map((r: { date: string }) => r.date)).toEqual(['2026-01-01', '2026-04-12', '2026-06-01']);
    expect(json(list).total).toBe(3);
    const spring = json(await call(slugA, adminA, 'GET', `/api/holidays?q=${tag}&date_gte=2026-03-01&date_lte=2026-05-31`)).data;
    expect(spring.map((r: { name: string }) => r.name)).toEqual([`Πάσχα ${tag}`]);
    // `q` folds accents and case (domain/text.ts), for a field declared searchable.
    expect(json(await call(slugA, adminA, 'GET', `/api/holidays?q=${encodeURIComponent('ΚΛΕΙΣΤΑ')}`)).data.map((r: { name: string }) => r.name)).toContain(
      `Πρωτοχρονιά ${tag}`,
    );
  });

  it('is permission-checked from its declared area: every role reads, only managers write', async () => {
    expectStatus(await call(slugA, secretaryA, 'GET', '/api/holidays'), 200);
    expectError(await call(slugA, secretaryA, 'POST', '/api/holidays', { name: 'Της γραμματείας' }), 403, 'forbidden');
    expectError(await t.request({ method: 'GET', url: '/api/holidays', tenant: slugA }), 401, 'unauthorized');
  });

  it('is row-level secured: another centre sees none of its rows, even without a tenant condition', async () => {
    const made = await create({ name: 'Του κέντρου Α', date: '2026-10-28' });
    const ofB = await call(slugB, adminB, 'GET', '/api/holidays');
    expectStatus(ofB, 200);
    expect(json(ofB)).toMatchObject({ data: [], total: 0 });
    expectError(await call(slugB, adminB, 'GET', `/api/holidays/${made.id}`), 404, 'not-found');
    expectError(await call(slugB, adminB, 'DELETE', `/api/holidays/${made.id}`), 404, 'not-found');

    const [policy] = await queryRows<{ forced: boolean; policies: number }>(
      t.database.db,
      sql`select c.relforcerowsecurity as forced, (select count(*)::int from pg_policy p where p.polrelid = c.oid and p.polname = 'tenant_isolation') as policies
          from pg_class c where c.relname = 'holidays'`,
    );
    expect(policy).toEqual({ forced: true, policies: 1 });
    const seenByB = await withTenant(t.database, tenantB, (tx) => tx.select({ id: holidays.id }).from(holidays));
    expect(seenByB).toEqual([]);
    const seenByA = await withTenant(t.database, tenantA, (tx) => tx.select({ tenantId: holidays.tenantId }).from(holidays));
    expect(seenByA.length).toBeGreaterThan(0);
    expect(seenByA.every((r) => r.tenantId === tenantA)).toBe(true);
  });
});
