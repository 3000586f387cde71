// A centre's guardians were two text fields on each student (guardian_name, guardian_phone).
// A database migrated only to the state before guardians existed, holding students in that
// old form, is migrated to the latest: every old name and phone is found in guardians, linked
// to its students; siblings (same name and phone) share one guardian; nothing crosses centres.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, migrate } from '../../../server/db/migrate';
import { DATABASE_KINDS, TEST_DATABASE_URL } from '../support/harness';
import { openDatabase } from '../../../server/db/open';
import { queryRows } from '../../../server/db/statements';

type Database = Awaited<ReturnType<typeof openDatabase>>;

/** A copy of the migrations folder that ends just before the guardians' migration. */
async function foldersBeforeGuardians(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'frontis-migrations-'));
  await cp(MIGRATIONS_FOLDER, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  const cut = journal.entries.findIndex((e) => e.tag.endsWith('_families_and_receipts'));
  expect(cut).toBeGreaterThan(0);
  for (const entry of journal.entries.slice(cut)) await rm(join(dir, `${entry.tag}.sql`));
  journal.entries = journal.entries.slice(0, cut);
  await writeFile(journalPath, JSON.stringify(journal));
  return dir;
}

interface OldStudent {
  first: string;
  last: string;
  guardianName: string | null;
  guardianPhone: string | null;
}

// Siblings: the same guardian (once written with extra spaces); a phone without a name; a
// one-word name; the same name with another phone (another person); a student with none.
const OLD_STUDENTS: OldStudent[] = [
  { first: 'Νίκος', last: 'Παπαδόπουλος', guardianName: 'Γιώργος Παπαδόπουλος', guardianPhone: '+30 690 0000001' },
  { first: 'Μαρία', last: 'Παπαδοπούλου', guardianName: 'Γιώργος Παπαδόπουλος', guardianPhone: '+30 690 0000001' },
  { first: 'Άννα', last: 'Παπαδοπούλου', guardianName: ' Γιώργος  Παπαδόπουλος ', guardianPhone: '+30 690 0000001' },
  { first: 'Ελένη', last: 'Κωστά', guardianName: null, guardianPhone: '210 1234567' },
  { first: 'Πέτρος', last: 'Νικολάου', guardianName: 'Σοφία', guardianPhone: null },
  { first: 'Κώστας', last: 'Ιωάννου', guardianName: 'Γιώργος Παπαδόπουλος', guardianPhone: '+30 690 0000002' },
  { first: 'Δήμητρα', last: 'Λαμπράκη', guardianName: 'Αικατερίνη Λαμπράκη Σταύρου', guardianPhone: '' },
  { first: 'Χρήστος', last: 'Χατζηδάκης', guardianName: null, guardianPhone: null },
];

interface Linked {
  student: string;
  guardian_id: number;
  first_name: string;
  last_name: string;
  phone: string | null;
  search: string;
}

describe.each(DATABASE_KINDS)('guardians migrated from the old student fields on %s', (kind) => {
  let database: Database;
  let dropScratch: (() => Promise<void>) | undefined;
  const tenants: number[] = [];

  const rowsOf = <T>(query: ReturnType<typeof sql>): Promise<T[]> => queryRows<T>(database.db, query);

  beforeAll(async () => {
    let url: string | undefined;
    if (kind === 'postgres') {
      const name = `frontis_t_mig_${process.pid}_${Date.now().toString(36)}`;
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const u = new URL(TEST_DATABASE_URL);
      u.pathname = `/${name}`;
      url = u.toString();
      dropScratch = async () => {
        const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      };
    }
    database = await openDatabase({ url });
    const folder = await foldersBeforeGuardians();
    try {
      if (database.pglite) await migratePglite(drizzlePglite({ client: database.pglite }), { migrationsFolder: folder });
      else await migratePg(drizzlePg({ client: database.pool! }), { migrationsFolder: folder });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    for (const slug of ['old-a', 'old-b']) {
      const [row] = await rowsOf<{ id: number }>(sql`insert into tenants (slug, name) values (${slug}, ${slug}) returning id`);
      tenants.push(Number(row!.id));
    }
    for (const tenantId of tenants) {
      for (const s of OLD_STUDENTS) {
        await database.db.execute(
          sql`insert into students (tenant_id, first_name, last_name, guardian_name, guardian_phone) values (${tenantId}, ${s.first}, ${s.last}, ${s.guardianName}, ${s.guardianPhone})`,
        );
      }
    }
    await migrate(database);
  });
  afterAll(async () => {
    await database?.close();
    await dropScratch?.();
  });

  const linked = (tenantId: number) =>
    rowsOf<Linked>(sql`select s.first_name || ' ' || s.last_name as student, g.id as guardian_id, g.first_name, g.last_name, g.phone, g.search
      from students s join student_guardians sg on sg.tenant_id = s.tenant_id and sg.student_id = s.id
      join guardians g on g.tenant_id = sg.tenant_id and g.id = sg.guardian_id
      where s.tenant_id = ${tenantId} order by s.id`);

  it('finds every old name and phone in a guardian of the same student', async () => {
    for (const tenantId of tenants) {
      const links = await linked(tenantId);
      for (const s of OLD_STUDENTS) {
        const mine = links.filter((l) => l.student === `${s.first} ${s.last}`);
        const name = s.guardianName?.trim().replace(/\s+/g, ' ') || null;
        const phone = s.guardianPhone?.trim() || null;
        if (!name && !phone) {
          expect(mine).toEqual([]);
          continue;
        }
        expect(mine).toHaveLength(1);
        const g = mine[0]!;
        expect(g.phone).toBe(phone);
        if (name === null) expect([g.first_name, g.last_name]).toEqual(['Κηδεμόνας', s.last]);
        else if (!name.includes(' ')) expect([g.first_name, g.last_name]).toEqual([name, s.last]);
        else expect(`${g.first_name} ${g.last_name}`).toBe(name);
        // the guardian is found by search, accents and case aside
        expect(g.search).toContain(
          g.first_name
            .normalize('NFD')
            .replace(/\p{M}+/gu, '')
            .toLowerCase()
            .replace(/ς/g, 'σ'),
        );
      }
    }
  });

  it('lets siblings share one guardian, and no one else', async () => {
    for (const tenantId of tenants) {
      const links = await linked(tenantId);
      const idOf = (student: string) => links.find((l) => l.student === student)!.guardian_id;
      const siblings = ['Νίκος Παπαδόπουλος', 'Μαρία Παπαδοπούλου', 'Άννα Παπαδοπούλου'].map(idOf);
      expect(new Set(siblings).size).toBe(1);
      // the same name with another phone is another person
      expect(idOf('Κώστας Ιωάννου')).not.toBe(siblings[0]);
      const guardians = await rowsOf<{ n: number }>(sql`select count(*)::int as n from guardians where tenant_id = ${tenantId}`);
      expect(Number(guardians[0]!.n)).toBe(5);
    }
    // each centre has guardians of its own
    const [a, b] = await Promise.all(tenants.map(linked));
    const ofA = new Set(a!.map((l) => l.guardian_id));
    expect(b!.filter((l) => ofA.has(l.guardian_id))).toEqual([]);
  });

  it('drops the old text fields from students and from their search text', async () => {
    const columns = await rowsOf<{ column_name: string }>(
      sql`select column_name from information_schema.columns where table_name = 'students' and column_name like 'guardian%'`,
    );
    expect(columns).toEqual([]);
    const searches = await rowsOf<{ search: string }>(sql`select search from students where tenant_id = ${tenants[0]!} order by id`);
    expect(searches[0]!.search).toBe('νικοσ παπαδοπουλοσ');
    expect(searches.some((s) => s.search.includes('γιωργοσ'))).toBe(false);
  });
});
