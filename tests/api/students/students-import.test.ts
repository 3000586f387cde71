// POST /api/students/import: {rows, skip_invalid, dry_run} -> 200
// {created, skipped, errors: [{row, fields}]}; an invalid row without skip_invalid is 400
// validation with the errors and nothing written; dry_run validates and writes nothing; each
// created student has a history entry; at most 5000 rows; the route takes bodies over 1 MB.
// A long import (over 500 rows) answers 202 at once with a job, worked in the background in
// short transactions while other requests are answered; GET …/import?job=<id> says how far it has
// come and gives the report, or the same refusal, nothing written.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { expectError, expectStatus, json, show } from '../support/api-helpers';
import { platform } from '../../../server/db/doors';

type Row = Record<string, any>;

describe.each(DATABASE_KINDS)('student import on %s', (kind) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<TestApp['createTenant']>>['admin'];
  let classId: number;
  let foreignClassId: number;

  const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    t.request({ method, url, body, token: admin.token, tenant: 'importing', clientType: 'api' });
  const importRows = (rows: unknown[], opts: { skip_invalid?: boolean; dry_run?: boolean } = {}) =>
    call('POST', '/api/students/import', { rows, skip_invalid: opts.skip_invalid ?? false, dry_run: opts.dry_run ?? false });
  const students = async () => json(await call('GET', '/api/students?_end=200&_sort=id&_order=asc')).data as Row[];

  beforeAll(async () => {
    t = await startApp(kind);
    admin = (await t.createTenant('importing')).admin;
    classId = json(await call('POST', '/api/classes', { name: 'Γ΄ Λυκείου' })).id;
    expectStatus(await call('POST', '/api/student-custom-fields', { key: 'level', label: 'Επίπεδο', type: 'SINGLE_CHOICE', options: ['A1', 'B2'] }), 201);
    const other = await t.createTenant('importother');
    foreignClassId = json(
      await t.request({ method: 'POST', url: '/api/classes', tenant: 'importother', token: other.admin.token, body: { name: 'Ξένη τάξη' } }),
    ).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const valid = (n: number, prefix = 'Εισαγωγή'): Row[] =>
    Array.from({ length: n }, (_, i) => ({
      first_name: `${prefix}${i}`,
      last_name: 'Μαθητής',
      class_ids: [classId],
      custom_fields: { level: i % 2 ? 'A1' : 'B2' },
    }));
  const invalidRows: Array<[Row, string]> = [
    [{ first_name: '', last_name: 'Κενό' }, 'first_name'],
    [{ first_name: 'Χωρίς επώνυμο' }, 'last_name'],
    [{ first_name: 'Α', last_name: 'Β', email: 'not-an-email' }, 'email'],
    [{ first_name: 'Α', last_name: 'Β', class_ids: [2147483000] }, 'class_ids'],
    [{ first_name: 'Α', last_name: 'Β', class_ids: [0] }, 'class_ids'],
    [{ first_name: 'Α', last_name: 'Β', custom_fields: { level: 'Z9' } }, 'custom_fields.level'],
    [{ first_name: 'Α', last_name: 'Β', nosuch: 1 }, 'nosuch'],
  ];

  it('imports valid rows: 200 {created, skipped: 0, errors: []}, each student with a create history entry', async () => {
    const before = (await students()).length;
    const res = await importRows(valid(4));
    expectStatus(res, 200);
    expect(json(res)).toEqual({ created: 4, skipped: 0, errors: [] });
    const after = await students();
    expect(after.length).toBe(before + 4);
    const made = after.filter((s) => s.first_name.startsWith('Εισαγωγή'));
    expect(made.map((s) => s.first_name).sort()).toEqual(['Εισαγωγή0', 'Εισαγωγή1', 'Εισαγωγή2', 'Εισαγωγή3']);
    for (const s of made) {
      expect(s.class_ids).toEqual([classId]);
      expect(s.status).toBe('ACTIVE');
      expect(['A1', 'B2']).toContain(s.custom_fields.level);
      const h = json(await call('GET', `/api/history?entity=students&entity_id=${s.id}`)).data as Row[];
      expect(h.map((e) => e.action)).toEqual(['create']);
    }
  });

  it('one invalid row without skip_invalid: 400 validation with per-row errors, nothing written', async () => {
    const before = await students();
    const rows: unknown[] = valid(3, 'Ποτέ');
    const bad: number[] = [];
    for (const [row] of invalidRows) {
      bad.push(rows.length);
      rows.push(row);
      rows.push(...valid(1, 'Ποτέ'));
    }
    const res = await importRows(rows);
    const body = expectError(res, 400, 'validation');
    const errors = body.error.details.errors;
    expect(Array.isArray(errors), show(res)).toBe(true);
    expect(errors.map((e: Row) => e.row).sort((a: number, b: number) => a - b)).toEqual(bad);
    invalidRows.forEach(([, field], k) => {
      const e = errors.find((x: Row) => x.row === bad[k]);
      // the field itself, or one of its elements (class_ids.0)
      expect(
        Object.keys(e.fields).some((f) => f === field || f.startsWith(`${field}.`)),
        `row ${bad[k]}: ${JSON.stringify(e)}`,
      ).toBe(true);
    });
    expect(await students()).toEqual(before);
  });

  it('skip_invalid: the valid rows are created, the invalid ones skipped and reported', async () => {
    const before = (await students()).length;
    const rows = [...valid(2, 'Παράλειψη'), invalidRows[0][0], ...valid(1, 'Παράλειψη2'), invalidRows[3][0]];
    const res = await importRows(rows, { skip_invalid: true });
    expectStatus(res, 200);
    const body = json(res);
    expect(body.created).toBe(3);
    expect(body.skipped).toBe(2);
    expect(body.errors.map((e: Row) => e.row)).toEqual([2, 4]);
    expect(body.errors[0].fields).toHaveProperty('first_name');
    expect(body.errors[1].fields).toMatchObject({ class_ids: 'invalid' });
    expect((await students()).length).toBe(before + 3);
  });

  it('dry_run validates and writes nothing', async () => {
    const before = await students();
    const ok = await importRows(valid(3, 'Δοκιμαστική'), { dry_run: true });
    expectStatus(ok, 200);
    expect(json(ok)).toEqual({ created: 3, skipped: 0, errors: [] });
    const mixed = await importRows([...valid(2, 'Δοκιμαστική'), invalidRows[2][0]], { dry_run: true, skip_invalid: true });
    expectStatus(mixed, 200);
    expect(json(mixed)).toMatchObject({ created: 2, skipped: 1, errors: [{ row: 2, fields: { email: 'invalid-format' } }] });
    const refused = await importRows([...valid(2, 'Δοκιμαστική'), invalidRows[2][0]], { dry_run: true });
    expect(refused.statusCode, show(refused)).toBe(400);
    expect(await students()).toEqual(before);
  });

  it('a class of another centre is an invalid reference, not a link', async () => {
    const before = await students();
    const res = await importRows([{ first_name: 'Ξένος', last_name: 'Σύνδεσμος', class_ids: [foreignClassId] }]);
    const body = expectError(res, 400, 'validation');
    expect(body.error.details.errors[0]).toMatchObject({ row: 0, fields: { class_ids: 'invalid' } });
    expect(await students()).toEqual(before);
  });

  it('refuses a malformed import body and more than 5000 rows; accepts a body over 1 MB', async () => {
    for (const body of [
      {},
      { rows: 'x' },
      { rows: [1, 2] },
      { rows: [], skip_invalid: 'yes' },
      { rows: [{ first_name: 'Α', last_name: 'Β' }], dry_run: 1 },
      { rows: [], extra: true },
    ]) {
      const res = await call('POST', '/api/students/import', body);
      expect(res.statusCode, `${JSON.stringify(body)}: ${show(res)}`).toBe(400);
      expect(json(res).error.code).toBe('validation');
    }
    const before = (await students()).length;
    const tooMany = await importRows(
      Array.from({ length: 5001 }, (_, i) => ({ first_name: `Π${i}`, last_name: 'Πολλοί' })),
      { dry_run: true },
    );
    expect(tooMany.statusCode, show(tooMany)).toBe(400);
    expect(json(tooMany).error.fields).toMatchObject({ rows: 'too-long' });
    // ~1.5 MB of valid rows: over the default JSON limit, under this route's 10 MB
    const big = Array.from({ length: 300 }, (_, i) => ({ first_name: `Μεγάλο${i}`, last_name: 'Αρχείο', information: 'π'.repeat(2500) }));
    expect(Buffer.byteLength(JSON.stringify({ rows: big }))).toBeGreaterThan(1024 * 1024);
    const res = await importRows(big, { dry_run: true });
    expectStatus(res, 200);
    expect(json(res)).toMatchObject({ created: 300, skipped: 0 });
    expect((await students()).length).toBe(before);
  });

  /** Polls the job until it has ended; answers its last state. */
  const finished = async (job: string, timeout = 240_000) => {
    const until = Date.now() + timeout;
    for (;;) {
      const res = await call('GET', `/api/students/import?job=${job}`);
      expectStatus(res, 200);
      const state = json(res);
      if (state.status === 'done' || state.status === 'failed') return state;
      if (Date.now() > until) throw new Error(`the import is still ${state.status} (${state.checked}/${state.total} checked, ${state.created} created)`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const countOf = async (lastName: string) => json(await call('GET', `/api/students?_end=1&q=${encodeURIComponent(lastName)}`)).total as number;

  it('a 9 MB import answers 202 within 10 s, other requests are answered meanwhile, and the polled job ends with the report', async () => {
    // 4,000 students with long notes: about 9 MB
    const rows = Array.from({ length: 4000 }, (_, i) => ({
      first_name: `Μεγάλη${i}`,
      last_name: 'Παρτίδα',
      class_ids: [classId],
      custom_fields: { level: 'A1' },
      information: 'ι'.repeat(1100),
    }));
    expect(Buffer.byteLength(JSON.stringify({ rows }))).toBeGreaterThan(8.5 * 1024 * 1024);
    const started = Date.now();
    const res = await importRows(rows);
    expect(Date.now() - started).toBeLessThan(10_000);
    expectStatus(res, 202);
    const job = json(res);
    expect(job).toMatchObject({ status: expect.stringMatching(/^(checking|creating)$/), total: 4000, report: null, error: null });
    expect(res.headers.location).toBe(`/api/students/import?job=${job.job}`);
    // another request is not held up by the import
    const asked = Date.now();
    expectStatus(await call('GET', '/api/classes?_end=5'), 200);
    expect(Date.now() - asked).toBeLessThan(5_000);
    const end = await finished(job.job);
    expect(end).toMatchObject({ status: 'done', total: 4000, checked: 4000, created: 4000, report: { created: 4000, skipped: 0, errors: [] }, error: null });
    expect(await countOf('Παρτίδα')).toBe(4000);
  }, 300_000);

  it('a long import with an invalid row fails as a short one is refused: the same errors, nothing written', async () => {
    const rows: unknown[] = Array.from({ length: 700 }, (_, i) => ({ first_name: `Άκυρη${i}`, last_name: 'Ολόκληρη' }));
    rows[650] = { first_name: 'Α', last_name: 'Β', email: 'not-an-email' };
    const res = await importRows(rows);
    expectStatus(res, 202);
    const end = await finished(json(res).job);
    expect(end).toMatchObject({ status: 'failed', created: 0, report: null });
    expect(end.error).toMatchObject({ code: 'validation', details: { reason: 'rows-invalid', errors: [{ row: 650, fields: { email: 'invalid-format' } }] } });
    expect(await countOf('Ολόκληρη')).toBe(0);
    // with skip_invalid, the others go in; a dry run writes nothing
    const dry = await finished(json(await importRows(rows, { skip_invalid: true, dry_run: true })).job);
    expect(dry).toMatchObject({ status: 'done', report: { created: 699, skipped: 1 } });
    expect(await countOf('Ολόκληρη')).toBe(0);
    const skipped = await finished(json(await importRows(rows, { skip_invalid: true })).job);
    expect(skipped).toMatchObject({ status: 'done', created: 699, report: { created: 699, skipped: 1, errors: [{ row: 650 }] } });
    expect(await countOf('Ολόκληρη')).toBe(699);
  }, 300_000);

  it('a job whose server stopped part-way is taken back whole at the next poll, and says so', async () => {
    const res = await importRows(Array.from({ length: 600 }, (_, i) => ({ first_name: `Διακοπή${i}`, last_name: 'Επανεκκίνηση' })));
    expectStatus(res, 202);
    const { job } = json(res);
    const done = await finished(job);
    expect(done.status, JSON.stringify(done)).toBe('done');
    expect(await countOf('Επανεκκίνηση')).toBe(600);
    // As its process leaves it when killed while creating: the rows made so far recorded, the job not moving.
    await platform(t.database).execute(
      sql`update import_jobs set status = 'creating', report = null, heartbeat_at = now() - interval '3 minutes' where id = ${job}`,
    );
    const end = await finished(job);
    expect(end).toMatchObject({ status: 'failed', created: 0, report: null, error: { code: 'conflict', details: { reason: 'import-interrupted' } } });
    expect(await countOf('Επανεκκίνηση')).toBe(0);
    // Read again, it stays so (taken back once).
    expect(json(await call('GET', `/api/students/import?job=${job}`))).toMatchObject({ status: 'failed', created: 0 });
  }, 300_000);

  it('a job is read only by whoever started it; an unknown one is 404', async () => {
    const res = await importRows(
      Array.from({ length: 501 }, (_, i) => ({ first_name: `Ιδιωτική${i}`, last_name: 'Εργασία' })),
      { dry_run: true },
    );
    expectStatus(res, 202);
    const { job } = json(res);
    const other = await t.createUser(admin.token, { role: 'SECRETARY', tenant: 'importing' });
    expectError(await t.request({ method: 'GET', url: `/api/students/import?job=${job}`, token: other.token, tenant: 'importing' }), 404, 'not-found');
    expectError(await call('GET', '/api/students/import?job=no-such-job'), 404, 'not-found');
    expect((await finished(job)).status).toBe('done');
  });
});
