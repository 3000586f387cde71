// DEMO_DATA=1 fills a term of attendance once: the past lessons of the school year marked for
// their classes, nearly all present with a few absences, and the notices those absences sent
// (every one sent, each for an absence, one per guardian who wants notices and has an address).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../../server/bootstrap';
import { json } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { withTenant } from '../../../server/db/doors';
import { queryRows } from '../../../server/db/statements';

describe.each(DATABASE_KINDS)('demo attendance on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  let tenantId: number;
  const get = async (url: string) => json(await t.request({ url, token: admin }));
  const today = new Date().toISOString().slice(0, 10);
  const one = async <T>(query: ReturnType<typeof sql>) => (await withTenant(t.database, tenantId, (tx) => queryRows<T>(tx, query)))[0]!;

  beforeAll(async () => {
    t = await startApp(kind, { demoData: true });
    admin = (await t.signIn('admin', 'demo-admin-2024')).token;
    tenantId = (await queryRows<{ id: number }>(t.database.db, sql`select id from tenants where slug = 'demo'`))[0]!.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the past lessons are marked, nearly all present, with a few absences', async () => {
    const all = await get(`/api/attendance?date_lte=${today}&_end=1`);
    const absences = await get(`/api/attendance?status=ABSENT&_end=1`);
    // Between September and today there is at least a week of lessons, unless the year has just begun.
    if (today.slice(5) >= '09-08' || today.slice(5) < '07-01') {
      expect(all.total).toBeGreaterThan(100);
      expect(absences.total).toBeGreaterThan(0);
      expect(absences.total / all.total).toBeLessThan(0.1);
      const klass = (await get('/api/classes?_end=1')).data[0];
      const rates = (await get(`/api/attendance/rates?class_id=${klass.id}`)).data;
      expect(rates.rate).toBeGreaterThan(0.8);
      expect(rates.rate).toBeLessThan(1);
    }
    // Nothing is marked for a lesson still to come.
    expect((await get(`/api/attendance?date_gte=${today}&_end=1`)).total).toBe(0);
  });

  it('each notice the absences sent is sent, once per absence, guardian who wants notices and channel she has', async () => {
    const notices = await one<{ n: number; unsent: number; strays: number }>(
      sql`select count(*)::int as n, count(*) filter (where sent_at is null)::int as unsent,
                 count(*) filter (where not exists (select 1 from attendance a where a.tenant_id = o.tenant_id and a.status = 'ABSENT'
                   and a.lesson_id = (o.params->>'lesson_id')::int and a.student_id = (o.params->>'student_id')::int))::int as strays
          from outbox o where o.tenant_id = ${tenantId} and o.kind = 'absence'`,
    );
    const expected = await one<{ n: number }>(
      // the demo's phones are all mobiles
      sql`select sum((g.notify_by <> 'SMS' and coalesce(trim(g.email), '') <> '')::int + (g.notify_by <> 'EMAIL' and g.phone is not null)::int)::int as n
          from attendance a
          join student_guardians sg on sg.tenant_id = a.tenant_id and sg.student_id = a.student_id
          join guardians g on g.tenant_id = sg.tenant_id and g.id = sg.guardian_id and g.notify
          where a.tenant_id = ${tenantId} and a.status = 'ABSENT'`,
    );
    expect(notices).toEqual({ n: expected.n, unsent: 0, strays: 0 });
  });

  it('bootstrap again adds nothing', async () => {
    const before = (await get('/api/attendance?_end=1')).total;
    await bootstrap(t.database, t.config);
    expect((await get('/api/attendance?_end=1')).total).toBe(before);
  });
});
