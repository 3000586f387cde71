// Lists sort text as a Greek reader expects: accents, case and the final sigma ignored, the
// same order on the embedded database (no Greek collation) and on PostgreSQL. The students
// page keeps walking an index while it sorts that way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureStatements } from '../../../bench/capture';
import { sortKey } from '../../../domain/text';
import { json, show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';

type Row = Record<string, any>;

/** Created in this order; none of the sorts below equals it. */
const SUBJECTS = ['Έκθεση', 'άλφα', 'Ωδική', 'Αγγλικά', 'Βιολογία', 'Άλφα', 'ΑΡΧΑΙΑ', 'έκφραση', 'Zeta', 'école', 'Φυσική', 'αρχαία ιστορία'];
/** What a Greek reader expects (Latin before Greek; ties keep creation order, by id). */
const SUBJECTS_SORTED = ['école', 'Zeta', 'Αγγλικά', 'άλφα', 'Άλφα', 'ΑΡΧΑΙΑ', 'αρχαία ιστορία', 'Βιολογία', 'Έκθεση', 'έκφραση', 'Φυσική', 'Ωδική'];

const STUDENTS: [string, string][] = [
  ['Ζωή', 'Παπαδοπούλου'],
  ['Άννα', 'Ανδρέου'],
  ['Νίκος', 'ΑΝΔΡΕΟΥ'],
  ['άγγελος', 'Ανδρέου'],
  ['Ελένη', 'Έξαρχου'],
  ['Ιωάννης', 'Ευαγγέλου'],
  ['Σταύρος', 'παπαδόπουλος'],
  ['Όλγα', 'Οικονόμου'],
];
const STUDENTS_SORTED = [
  'Ανδρέου άγγελος',
  'Ανδρέου Άννα',
  'ΑΝΔΡΕΟΥ Νίκος',
  'Έξαρχου Ελένη',
  'Ευαγγέλου Ιωάννης',
  'Οικονόμου Όλγα',
  'παπαδόπουλος Σταύρος',
  'Παπαδοπούλου Ζωή',
];

describe.each(DATABASE_KINDS)('Greek sorting on %s', (kind) => {
  let t: TestApp;
  let admin: { token: string };
  const tenant = 'greeksort';
  const get = async (url: string) => {
    const r = await t.request({ url, token: admin.token, tenant });
    expect(r.statusCode, show(r)).toBe(200);
    return json(r).data as Row[];
  };

  beforeAll(async () => {
    t = await startApp(kind);
    ({ admin } = await t.createTenant(tenant));
    for (const name of SUBJECTS) {
      const r = await t.request({ method: 'POST', url: '/api/subjects', token: admin.token, tenant, body: { name } });
      expect(r.statusCode, show(r)).toBe(201);
    }
    for (const [first_name, last_name] of STUDENTS) {
      const r = await t.request({ method: 'POST', url: '/api/students', token: admin.token, tenant, body: { first_name, last_name } });
      expect(r.statusCode, show(r)).toBe(201);
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('orders names ignoring accents and case, ascending and descending', async () => {
    const asc = await get('/api/subjects?_sort=name&_order=asc&_end=100');
    expect(asc.map((r) => r.name)).toEqual(SUBJECTS_SORTED);
    const desc = await get('/api/subjects?_sort=name&_order=desc&_end=100');
    // Equal keys stay in id order behind the sort, in both directions.
    const descNames = desc.map((r) => r.name);
    expect(descNames.slice(0, 3)).toEqual(['Ωδική', 'Φυσική', 'έκφραση']);
    expect(descNames.indexOf('άλφα')).toBeLessThan(descNames.indexOf('Άλφα'));
    expect(descNames.indexOf('Αγγλικά')).toBe(descNames.length - 3);
  });

  it('keeps "άλφα" next to "Άλφα" across page boundaries', async () => {
    const first = await get('/api/subjects?_sort=name&_order=asc&_start=0&_end=4');
    const second = await get('/api/subjects?_sort=name&_order=asc&_start=4&_end=8');
    expect([...first, ...second].map((r) => r.name)).toEqual(SUBJECTS_SORTED.slice(0, 8));
  });

  it('sorts students by last then first name, the default order too', async () => {
    const shown = (rows: Row[]) => rows.map((r) => `${r.last_name} ${r.first_name}`);
    expect(shown(await get('/api/students?_sort=last_name,first_name&_order=asc,asc'))).toEqual(STUDENTS_SORTED);
    expect(shown(await get('/api/students'))).toEqual(STUDENTS_SORTED);
    expect(shown(await get('/api/students?_sort=last_name,first_name&_order=desc,desc&status=ACTIVE'))).toEqual([...STUDENTS_SORTED].reverse());
  });

  it('lists labels of REFERENCES fields alphabetically the same way', async () => {
    const subjects = await get('/api/subjects?_sort=id&_order=asc&_end=100');
    const ids = subjects.map((s) => s.id as number);
    const r = await t.request({
      method: 'POST',
      url: '/api/students',
      token: admin.token,
      tenant,
      body: { first_name: 'Μαρία', last_name: 'Ωραιόπουλου', subject_ids: ids },
    });
    expect(r.statusCode, show(r)).toBe(201);
    expect(json(r).data.subjects.map((s: Row) => s.name)).toEqual(SUBJECTS_SORTED);
  });

  it("lists a guardian's students by their shown name (first, then last), folded the same way, in every answer", async () => {
    const students = await get('/api/students?_end=100');
    // The shown name is "first last": Άννα Ανδρέου before άγγελος Ανδρέου is wrong by last name, right by name.
    const expected = students
      .map((s) => ({ id: s.id as number, name: `${s.first_name} ${s.last_name}` }))
      .sort((a, b) => (sortKey(a.name) < sortKey(b.name) ? -1 : sortKey(a.name) > sortKey(b.name) ? 1 : a.id - b.id))
      .map((s) => s.name);
    expect(expected.slice(0, 3)).toEqual(['άγγελος Ανδρέου', 'Άννα Ανδρέου', 'Ελένη Έξαρχου']);
    const r = await t.request({
      method: 'POST',
      url: '/api/guardians',
      token: admin.token,
      tenant,
      body: { first_name: 'Ρένα', last_name: 'Κηδεμόνα', relation: 'MOTHER', student_ids: students.map((s) => s.id) },
    });
    expect(r.statusCode, show(r)).toBe(201);
    const id = json(r).data.id as number;
    const names = (row: Row) => (row.students as Row[]).map((s) => s.name);
    expect(names(json(r).data)).toEqual(expected);
    const one = await t.request({ url: `/api/guardians/${id}`, token: admin.token, tenant });
    expect(names(json(one).data)).toEqual(expected);
    const [listed] = await get(`/api/guardians?q=${encodeURIComponent('Κηδεμόνα')}`);
    expect(names(listed!)).toEqual(expected);
  });

  it('pages the students list by sorted name through an index, without sorting the table', async () => {
    const statements = await captureStatements(t.database, async () => {
      await get('/api/students?_start=0&_end=25&_sort=last_name,first_name&_order=asc,asc&status=ACTIVE');
    });
    const page = statements.find((s) => 'params' in s && /from "students"/.test(s.text) && /order by/i.test(s.text) && /limit/i.test(s.text));
    if (!page || !('params' in page)) throw new Error('the students page statement was not seen');
    // Eight rows make a scan and a sort the cheapest plan; forbidding both shows whether an index serves the order.
    const plan = await explain(t, page.text, page.params);
    expect(plan, plan).toMatch(/Index Scan using students_status_sort_idx/);
    // At most the id tie-breaker is sorted, within runs of equal names the index already ordered
    // (in the page's own plan: its subplans order each row's few labels, not the table).
    const own = plan.split(/^\s*SubPlan/m)[0]!;
    expect(own, plan).not.toMatch(/^\s*(->\s*)?Sort\s+\(/m);
    if (/Incremental Sort/.test(plan)) expect(plan, plan).toMatch(/Presorted Key: .*last_name.*first_name/);
  });
});

async function explain(t: TestApp, text: string, params: unknown[]): Promise<string> {
  const statements = ['set local enable_seqscan = off', 'set local enable_bitmapscan = off', 'set local enable_sort = off'];
  if (t.database.pglite) {
    const lite = t.database.pglite;
    return lite.transaction(async (tx) => {
      for (const s of statements) await tx.query(s);
      const r = await tx.query<{ 'QUERY PLAN': string }>(`explain ${text}`, params);
      return r.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  }
  const client = await t.database.pool!.connect();
  try {
    await client.query('begin');
    for (const s of statements) await client.query(s);
    const r = await client.query<{ 'QUERY PLAN': string }>(`explain ${text}`, params);
    return r.rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.query('rollback');
    client.release();
  }
}
