// A row in a list answers exactly as its own read does, for every resource of the record
// engine, on the demo centre: the values, instants and times of day, labels (of deleted and
// live rows alike), ids of REFERENCES fields and their labels' order. Lists an ADMIN reads
// are written by the database as JSON, reads by Node through the row schema: two writers of
// one answer, held to each other here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, routeTable } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';

describe.each(DATABASE_KINDS)('list rows against their reads on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  let secretary: string;
  const get = async (url: string, token: string) => {
    const res = await t.request({ url, token });
    expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
    return json(res);
  };
  /** Every list with a read beside it: GET <path> and GET <path>/:id, no other parameter. */
  const listed = () => {
    const routes = routeTable(t.app).filter((r) => r.method === 'GET');
    const paths = new Set(routes.map((r) => r.path));
    return [...paths].filter((p) => p.startsWith('/api/') && !p.slice(1).includes(':') && paths.has(`${p}/:id`)).sort();
  };

  beforeAll(async () => {
    t = await startApp(kind, { demoData: true });
    admin = (await t.signIn('admin', 'demo-admin-2024')).token;
    secretary = (await t.createUser(admin, { role: 'SECRETARY' })).token;
    // A teacher removed while her lessons and classes stay: their labels say "deleted".
    const teachers = await get('/api/teachers?_end=1&_sort=id', admin);
    const gone = teachers.data[0].id as number;
    const res = await t.request({ method: 'DELETE', url: `/api/teachers/${gone}`, token: admin });
    expect(res.statusCode, res.body).toBe(204);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('covers the resources that carry labels, instants and times of day', () => {
    expect(listed()).toEqual(
      expect.arrayContaining([
        '/api/students',
        '/api/guardians',
        '/api/contracts',
        '/api/payments',
        '/api/lessons',
        '/api/teachers',
        '/api/classes',
        '/api/recurring-lessons',
      ]),
    );
  });

  for (const role of ['ADMIN', 'SECRETARY'] as const) {
    it(`every row of every list a ${role} reads is the row its read answers`, async () => {
      const token = role === 'ADMIN' ? admin : secretary;
      let compared = 0;
      let deletedLabels = 0;
      for (const path of listed()) {
        const res = await t.request({ url: `${path}?_end=50&_sort=id&_order=desc`, token });
        if (res.statusCode === 403) continue;
        expect(res.statusCode, `${path}: ${res.body.slice(0, 300)}`).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        const page = json(res);
        expect(res.headers['x-total-count']).toBe(String(page.total));
        const reads = await Promise.all(page.data.map((row: { id: number }) => get(`${path}/${row.id}`, token)));
        page.data.forEach((row: { id: number }, i: number) => {
          expect(row, `${path}/${row.id}`).toStrictEqual(reads[i].data);
          deletedLabels += Object.values(row).filter((v) => v !== null && typeof v === 'object' && (v as { deleted?: boolean }).deleted === true).length;
          compared++;
        });
      }
      expect(compared).toBeGreaterThan(300);
      expect(deletedLabels).toBeGreaterThan(0);
    });
  }

  it('a page past the end is empty and still counts every row', async () => {
    const page = await get('/api/students?_start=100000&_end=100025', admin);
    expect(page.data).toEqual([]);
    expect(page.total).toBeGreaterThan(0);
    const totals = await get('/api/contracts?_start=100000&_end=100025', admin);
    expect(totals.data).toEqual([]);
    expect(totals.totals.total_cost).toBeGreaterThan(0);
  });
});
