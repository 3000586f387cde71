// A list's page is a kept statement: written once, sent again as it is. Where a connection keeps
// what it prepares (PGlite; a PostgreSQL server reached directly), the page is prepared on it
// once, in the same message as its first run, and executed after, so PostgreSQL no longer plans
// it on every request. Here: the pages answer exactly what they answer sent as plain text; the
// page really is prepared; prepared statements lost behind the server's back cost a retry,
// never an error; and any value reads back through a prepared statement as it does written into
// the text, also where PostgreSQL cannot tell a parameter's type (such a statement goes as text).
import { sql, type SQL } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examEntity } from '../../../bench/exam-entity';
import { json, outcome, show } from '../support/api-helpers';
import '../support/fast-check-seed';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { contractBody, created, makeMoneyWorld, paymentBody, type MoneyWorld } from '../support/money-helpers';
import { withTenantReads } from '../../../server/db/read-batch';
import { writeStatement, writtenRows } from '../../../server/db/statements';

type Row = Record<string, unknown>;

const PAGES = [
  '/api/students?_start=0&_end=25&_sort=last_name,first_name&_order=asc,asc&status=ACTIVE',
  '/api/students?_start=5&_end=10&_sort=first_name&_order=desc',
  '/api/students?_start=0&_end=25&q=μαθητης1',
  '/api/students?_start=0&_end=25&q=%27%3B%20deallocate%20all%3B%20--',
  '/api/contracts?_start=0&_end=25&unpaid_month=2026-10',
  '/api/guardians?_start=0&_end=2&_sort=last_name,first_name&_order=asc,asc&q=παπα',
  '/api/classes?_start=0&_end=25',
  `/api/custom-entities/pr-exams/records?_start=0&_end=25&_sort=title&_order=asc&subject=${encodeURIComponent('Φυσική')}`,
  `/api/custom-entities/pr-exams/records?_start=0&_end=5&_sort=student&_order=desc&q=${encodeURIComponent('%27; deallocate all; --')}`,
];

describe.each(DATABASE_KINDS)('list pages prepared once per connection on %s', (kind) => {
  let t: TestApp;
  let w: MoneyWorld;

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeMoneyWorld(t, 30);
    const admin = (url: string, body: unknown) => t.request({ method: 'POST', url, body, token: w.token.ADMIN });
    for (const student of w.students.slice(0, 3)) {
      const contract = await created(await admin('/api/contracts', contractBody(w, { student_id: student.id })));
      await created(await admin('/api/payments', paymentBody(contract.id)));
    }
    for (const [i, last] of ['Παπαδοπούλου', 'Παπαγεωργίου', 'Παπάς'].entries()) {
      await created(await admin('/api/guardians', { first_name: 'Ελένη', last_name: last, student_ids: [w.students[i]!.id] }));
    }
    // A custom entity's records (their page prepared with its values in its text).
    const root = (url: string, body: unknown) => t.request({ method: 'POST', url, body, token: w.token.ROOT });
    await created(await root('/api/custom-entities', examEntity('pr-exams', { subjects: ['Φυσική', 'Χημεία'], tags: ['γραπτά'] })));
    const rows = w.students.map((st, i) => ({ title: `Διαγώνισμα ${i}`, subject: i % 2 ? 'Φυσική' : 'Χημεία', student: st.id }));
    expect(json(await root('/api/custom-entities/pr-exams/records/import', { rows }))).toMatchObject({ created: rows.length });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Each page's answer (status and body), read by the office. */
  const pages = async () => {
    const out: { url: string; status: number; body: unknown }[] = [];
    for (const url of PAGES) {
      const res = await t.request({ url, token: w.token.SECRETARY });
      expect(res.statusCode, `${url}: ${show(res)}`).toBe(200);
      out.push({ url, status: res.statusCode, body: json(res) });
    }
    return out;
  };

  /** Runs `statement` on every connection the server keeps idle (PGlite has one); answers each one's rows. */
  async function onEveryConnection(statement: string): Promise<Row[][]> {
    if (t.database.pglite) return [(await t.database.pglite.query<Row>(statement)).rows];
    const pool = t.database.pool!;
    const clients = await Promise.all(Array.from({ length: pool.idleCount }, () => pool.connect()));
    try {
      return await Promise.all(clients.map(async (client) => (await client.query(statement)).rows as Row[]));
    } finally {
      for (const client of clients) client.release();
    }
  }

  const preparedPages = async () =>
    (await onEveryConnection('select statement from pg_prepared_statements'))
      .flat()
      .filter((r) => String(r.statement).includes("json_build_object(\n      'data'"));

  it('pages answer the same prepared (first run and later ones) as sent as plain text, and the page is prepared', async () => {
    expect(t.database.keepsPrepared).toBe(true);
    const first = await pages();
    const again = await pages();
    expect(await preparedPages()).not.toEqual([]);
    t.database.keepsPrepared = false;
    try {
      expect(await pages()).toEqual(first);
    } finally {
      t.database.keepsPrepared = true;
    }
    expect(again).toEqual(first);
  });

  it('statements let go behind the server’s back: the next requests still answer the same, and prepare again', async () => {
    const before = await pages();
    await onEveryConnection('deallocate all');
    expect(await preparedPages()).toEqual([]);
    expect(await pages()).toEqual(before);
    expect(await pages()).toEqual(before);
    expect(await preparedPages()).not.toEqual([]);
  });

  it('a value reads back through a prepared statement as sent as text; one whose type PostgreSQL cannot tell goes as text', async () => {
    const { tenantId } = await t.createTenant(`prepared${kind}`);
    // The same text every time (so it is prepared once), a new value each run.
    const statements: ((s: string, n: number) => SQL)[] = [
      (s, n) => sql`select ${s}::text as v, length(${s}::text) as len, ${n}::int + 1 as next`,
      // $1 alone says nothing of its type: PostgreSQL will not prepare it, the text way reads it as text
      (s) => sql`select ${s} is null as missing, ${s} as v`,
    ];
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 30 }), fc.integer({ min: -1000, max: 1000 }), async (s, n) => {
        for (const [make, valuesInText] of [...statements.map((m) => [m, false] as const), [statements[0]!, true] as const]) {
          const query = make(s, n);
          // valuesInText: prepared with the values written into its text (a plan per value).
          const read = () => outcome(() => withTenantReads(t.database, tenantId, (tx) => writtenRows<Row>(tx, writeStatement(query, { valuesInText }))));
          const prepared = await read();
          t.database.keepsPrepared = false;
          const plain = await read().finally(() => (t.database.keepsPrepared = true));
          expect(prepared, JSON.stringify(s)).toEqual(plain);
          if (!s.includes('\0')) expect(prepared).toHaveProperty('rows');
        }
      }),
      { numRuns: 60 },
    );
  });
});
