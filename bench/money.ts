/**
 * The money part of npm run bench: every student of the demo centre gets a contract for the
 * school year and a history of payments (about 80,000 for 10,000 students: the registration,
 * most months, a few split in two, some extra charges, some months left unpaid, a quarter
 * without receipt), and the centre a year of expenses. They are written with a few bulk SQL
 * statements, not through the API: the figures the database keeps on each contract (and its
 * months, contract_months) are computed once per contract at the end instead of once per payment.
 *
 * Then, under the same load as the students list, it measures the contracts list filtered by
 * "this month unpaid" and sorted by what is left (a page of 25, counted, with its totals), the
 * account month, the account year and the analytics range (September to June), prints them
 * beside the students list, and says whether the contracts list is as fast as the students
 * list. With --explain (or when it is not) the plans of the contracts list's statements follow.
 */
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import type { Database } from '../server/db/types';
import { queryRows } from '../server/db/statements';
import { captureStatements, type Statement } from './capture';

/** The month a secretary would check ("this month") and the school year of the contracts. */
export const MONEY_MONTH = '2026-11';
const YEAR = { start: '2026-09-01', end: '2027-06-30', from: '2026-09', to: '2027-06' };

export const MONEY_URLS = {
  students: '/api/students?_start=0&_end=25&_sort=last_name,first_name&_order=asc,asc&status=ACTIVE',
  contracts: `/api/contracts?_start=0&_end=25&_sort=rest&_order=desc&unpaid_month=${MONEY_MONTH}`,
  accountMonth: `/api/account/month?month=${MONEY_MONTH}`,
  accountYear: `/api/account/year?year=${MONEY_MONTH.slice(0, 4)}`,
  analytics: `/api/analytics/contracts?from=${YEAR.from}&to=${YEAR.to}`,
};

interface MoneySeed {
  contracts: number;
  payments: number;
  expenses: number;
  seconds: number;
}

/**
 * Seeds the money of the tenant `slug` (its students must exist) as the database owner, so
 * row-level security and the per-payment trigger stay out of the way; the contracts' figures
 * are then recomputed once each by their own trigger.
 */
export async function seedMoney(database: Database, slug = 'demo'): Promise<MoneySeed> {
  const t0 = performance.now();
  const db = database.db;
  const [tenant] = await queryRows<{ id: number }>(db, sql`select id from tenants where slug = ${slug}`);
  if (!tenant) throw new Error(`no tenant ${slug}`);
  const t = tenant.id;
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`insert into contract_categories (tenant_id, name) select ${t}, n from unnest(array['Γυμνάσιο', 'Α΄ Λυκείου', 'Β΄ Λυκείου', 'Πανελλαδικές']) n`,
    );
    await tx.execute(
      sql`insert into expense_categories (tenant_id, name) select ${t}, n from unnest(array['Ενοίκιο', 'Μισθοδοσία', 'Λογαριασμοί', 'Αναλώσιμα']) n`,
    );
    // Classes: those the centre has (the calendar's), or twenty of our own.
    const [classes] = await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from classes where tenant_id = ${t}`);
    if (!classes?.n) await tx.execute(sql`insert into classes (tenant_id, name) select ${t}, 'Τμήμα ' || g from generate_series(1, 20) g`);
    await tx.execute(sql`
      with s as (select id, row_number() over (order by id) as k from students where tenant_id = ${t}),
      k as (select id, row_number() over (order by id) as i, count(*) over () as n from classes where tenant_id = ${t})
      insert into class_students (tenant_id, class_id, student_id)
      select ${t}, k.id, s.id from s join k on k.i = s.k % k.n + 1 or (s.k % 3 = 0 and k.i = (s.k + 7) % k.n + 1)
      on conflict do nothing`);
    await tx.execute(sql`
      with s as (select id, row_number() over (order by id) as k from students where tenant_id = ${t}),
      c as (select id, row_number() over (order by id) as i, count(*) over () as n from contract_categories where tenant_id = ${t})
      insert into contracts (tenant_id, student_id, category_id, start_date, end_date, register_cost, month_cost, with_receipt)
      select ${t}, s.id, c.id, ${YEAR.start}::date, ${YEAR.end}::date, 5000, 8000 + (s.k % 5) * 1000, s.k % 4 <> 1
      from s join c on c.i = s.k % c.n + 1`);
    // The payments, with the per-payment trigger off: the contracts are recomputed once below.
    await tx.execute(sql`alter table payments disable trigger payments_contract_figures`);
    await tx.execute(sql`
      with c as (
        select id, row_number() over (order by id) as k, register_cost, month_cost, with_receipt
        from contracts where tenant_id = ${t}
      ),
      m as (
        select to_char(d, 'YYYY-MM') as month, row_number() over (order by d) as i, d::date as first
        from generate_series(${YEAR.start}::timestamp, ${`${YEAR.to}-01`}::timestamp, interval '1 month') d
      ),
      pay as (
        -- The registration (one in twenty still owes it).
        select c.id, c.k, c.with_receipt, 'REGISTER' as kind, null::text as month, c.register_cost as amount,
          ${YEAR.start}::date + (c.k % 10)::int as paid_on
        from c where c.k % 20 <> 0
        union all
        -- Months in order: four to all ten of them; one in three skips November.
        select c.id, c.k, c.with_receipt, 'MONTHLY', m.month, part.amount, m.first + (c.k % 20)::int + part.late
        from c join m on m.i <= 4 + c.k % 7 and not (c.k % 3 = 0 and m.month = ${MONEY_MONTH})
        cross join lateral (
          -- One in four paid its first month in two halves.
          select c.month_cost - (c.month_cost / 2) * (case when c.k % 4 = 0 and m.i = 1 then 1 else 0 end) as amount, 0 as late
          union all
          select c.month_cost / 2, 3 where c.k % 4 = 0 and m.i = 1
        ) part
        union all
        -- Books: an extra charge, paid, for one in five.
        select c.id, c.k, c.with_receipt, 'EXTRA', null, 2000, ${YEAR.start}::date + 40 + (c.k % 30)::int
        from c where c.k % 5 = 0
      )
      insert into payments (tenant_id, contract_id, kind, month, amount, method, bill_number, paid_on, description)
      select ${t}, id, kind, month, amount, (array['CASH', 'CREDIT_CARD', 'BANK_ACCOUNT'])[k % 3 + 1],
        case when with_receipt then (row_number() over (partition by with_receipt order by paid_on, id, kind, month))::text end,
        paid_on, case when kind = 'EXTRA' then 'Βιβλία' end
      from pay`);
    await tx.execute(sql`alter table payments enable trigger payments_contract_figures`);
    // Statistics first: planned for an empty payments table, the trigger's lookups would scan
    // every payment for every contract.
    await tx.execute(sql`analyze payments`);
    await tx.execute(sql`analyze contracts`);
    // Each contract's figures by its own trigger, then the months of all of them in one statement
    // (the same function the trigger calls for one contract).
    await tx.execute(sql`alter table contracts disable trigger contracts_months`);
    await tx.execute(sql`update contracts set month_count = month_count where tenant_id = ${t}`);
    await tx.execute(sql`alter table contracts enable trigger contracts_months`);
    await tx.execute(sql`select contract_months_refresh(${t}, array(select id from contracts where tenant_id = ${t}))`);
    // A year of expenses: rent, salaries and bills each month, supplies now and then.
    await tx.execute(sql`
      with e as (select id, row_number() over (order by id) as i from expense_categories where tenant_id = ${t}),
      d as (select d::date as first, row_number() over (order by d) as j from generate_series('2026-01-01'::timestamp, '2027-06-01'::timestamp, interval '1 month') d)
      insert into expenses (tenant_id, date, amount, description, category_id, method, bill_number)
      select ${t}, d.first + ((e.i * 7 + g) % 27)::int, 50000 + e.i * 12000 + g * 900, 'Έξοδο ' || g, e.id,
        (array['CASH', 'BANK_ACCOUNT'])[g % 2 + 1], case when g % 4 <> 0 then 'E-' || d.j || '-' || e.i || '-' || g end
      from d cross join e cross join generate_series(1, 8) g`);
  });
  await db.execute(sql`vacuum analyze`);
  const [counts] = await queryRows<{ contracts: number; payments: number; expenses: number }>(
    db,
    sql`select (select count(*)::int from contracts where tenant_id = ${t}) as contracts,
      (select count(*)::int from payments where tenant_id = ${t}) as payments,
      (select count(*)::int from expenses where tenant_id = ${t}) as expenses`,
  );
  return { ...counts!, seconds: (performance.now() - t0) / 1000 };
}

interface Measured {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(label: string, url: string, headers: Record<string, string>, connections: number, seconds: number): Promise<Measured> {
  const result = await autocannon({ url, headers, connections, duration: seconds });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { label, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors };
}

/** EXPLAIN ANALYZE of each select the server ran for `url`, in the tenant's view (role and RLS as in a request). */
async function explain(database: Database, address: string, url: string, headers: Record<string, string>, tenantId: number): Promise<string[]> {
  const statements: Statement[] = await captureStatements(database, async () => {
    const res = await fetch(address + url, { headers });
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    await res.text();
  });
  const selects = statements.filter(
    (s): s is { text: string; params: unknown[] } => 'params' in s && !s.script && /^select\b/i.test(s.text) && /contracts/.test(s.text),
  );
  const out: string[] = [];
  const settings = `select set_config('role', 'frontis_app', true), set_config('app.tenant_id', '${tenantId}', true)`;
  for (const s of selects) {
    let plan: Array<Record<string, string>>;
    if (database.pglite) {
      plan = await database.pglite.transaction(async (tx) => {
        await tx.query(settings);
        return (await tx.query<Record<string, string>>(`explain (analyze, costs off) ${s.text}`, s.params)).rows;
      });
    } else {
      const client = await database.pool!.connect();
      try {
        await client.query('begin');
        await client.query(settings);
        plan = (await client.query(`explain (analyze, costs off) ${s.text}`, s.params)).rows;
        await client.query('rollback');
      } finally {
        client.release();
      }
    }
    out.push(`  -- ${s.text.replace(/\s+/g, ' ').slice(0, 140)}…`, ...plan.map((r) => `     ${Object.values(r)[0]}`));
  }
  return out;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** `count` requests one after the other: what one request costs when nothing else is waiting. */
async function oneAtATime(url: string, headers: Record<string, string>, count: number) {
  const ms: number[] = [];
  for (let k = 0; k < count; k++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    await res.text();
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

const line = (m: Measured) =>
  `  ${m.label.padEnd(52)} ${m.rps.toFixed(0).padStart(6)} req/s  p50 ${String(m.p50).padStart(4)} ms  p99 ${String(m.p99).padStart(4)} ms` +
  (m.errors ? `  (${m.errors} errors)` : '');

/**
 * Seeds the money, then measures the four money screens and the students list under the
 * same load (10 clients on PGlite, 50 on PostgreSQL) and prints them side by side.
 */
export async function benchMoney(
  kind: 'pglite' | 'postgres',
  server: { database: Database; address: string; headers: Record<string, string> },
  opts: { seconds: number; explain?: boolean },
) {
  const { database, address, headers } = server;
  const seeded = await seedMoney(database);
  console.log(
    `  seeded ${seeded.contracts} contracts, ${seeded.payments} payments and ${seeded.expenses} expenses with bulk SQL in ${seeded.seconds.toFixed(1)} s`,
  );
  // The seeding kept the event loop busy past the server's keep-alive: the first request may meet a closed socket.
  const first = () => fetch(address + MONEY_URLS.contracts, { headers }).then((r) => r.json());
  const page = (await first().catch(first)) as { total: number; totals: Record<string, number> };
  console.log(`  contracts with ${MONEY_MONTH} unpaid: ${page.total} (rest ${(page.totals.rest / 100).toFixed(2)} €)`);

  const connections = kind === 'postgres' ? 50 : 10;
  const runs: Array<[string, string]> = [
    ['students list (25 of the active, by name, counted)', MONEY_URLS.students],
    [`contracts list (${MONEY_MONTH} unpaid, by rest, counted, totals)`, MONEY_URLS.contracts],
    [`account month ${MONEY_MONTH}`, MONEY_URLS.accountMonth],
    [`account year ${MONEY_MONTH.slice(0, 4)}`, MONEY_URLS.accountYear],
    [`analytics ${YEAR.from} to ${YEAR.to}`, MONEY_URLS.analytics],
  ];
  console.log('  one request at a time (20 each):');
  for (const [label, url] of runs) {
    const one = await oneAtATime(address + url, headers, 20);
    console.log(`  ${label.padEnd(52)} p50 ${one.p50.toFixed(0).padStart(4)} ms  p99 ${one.p99.toFixed(0).padStart(4)} ms`);
  }
  const results: Measured[] = [];
  for (const [label, url] of runs) {
    await measure('warm-up', address + url, headers, connections, Math.max(2, Math.round(opts.seconds / 3)));
    results.push(await measure(label, address + url, headers, connections, opts.seconds));
  }
  console.log(`  money screens beside the students list, ${connections} clients (${kind}):`);
  for (const m of results) console.log(line(m));
  const [students, contracts] = results as [Measured, Measured];
  // Runs of the same route differ by a few per cent from one to the next; within 5% counts as as fast.
  const holds = contracts.rps >= students.rps * 0.95;
  console.log(
    `  contracts list no slower than the students list: ${holds ? 'holds' : 'does NOT hold'} ` +
      `(${((contracts.rps / students.rps) * 100).toFixed(0)}% of its req/s; p50 ${contracts.p50} vs ${students.p50} ms, p99 ${contracts.p99} vs ${students.p99} ms)`,
  );
  if (opts.explain || !holds) {
    const [tenant] = await queryRows<{ id: number }>(database.db, sql`select id from tenants where slug = 'demo'`);
    console.log('  plans of the contracts list:');
    for (const l of await explain(database, address, MONEY_URLS.contracts, headers, tenant!.id)) console.log(l);
  }
  return { seeded, results, holds };
}
