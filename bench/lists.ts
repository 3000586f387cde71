/**
 * The family and office lists in `npm run bench` (and `--part lists`): guardians, receipts and
 * attendance marks, each measured beside a bare route (one hand-written statement for the same
 * answer) as the students list is, and the two reports (the analytics range and the account
 * year) one request at a time and at 10 clients, all on the server in its own process.
 *
 * The seeding runs in the server's process (its database may live there) as the database
 * owner, with bulk SQL: the money of bench/money.ts (contracts, about 80,000 payments, class
 * members), lessons of the school year's first weeks if the centre has none yet, attendance
 * marks for them (25 students a lesson, about 85% present), one receipt per payment with a
 * receipt, and a guardian for every two or three students (siblings share one).
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { performance } from 'node:perf_hooks';
import type { Database } from '../server/db/types';
import { queryRows } from '../server/db/statements';
import { amountInWords, VAT_EXEMPTION_LINE } from '../domain/receipt-words';
import { RECORDS_SLUG, RECORDS_SUBJECT, RECORDS_URL } from './targets';
import { MONEY_MONTH, MONEY_URLS, seedMoney } from './money';

export const LIST_URLS = {
  guardians: '/api/guardians?_start=0&_end=25&_sort=last_name,first_name&_order=asc,asc',
  receipts: '/api/receipts?_start=0&_end=25&issued_on_gte=2026-11-01&issued_on_lte=2026-11-30',
  attendance: '/api/attendance?_start=0&_end=25&status=ABSENT',
  contracts: MONEY_URLS.contracts,
  records: RECORDS_URL,
};

export const REPORT_URLS = { analytics: MONEY_URLS.analytics, accountYear: MONEY_URLS.accountYear };

/** The weeks whose lessons get marks: the school year's first seven. */
const MARKED = { from: '2026-09-14', to: '2026-10-31' };
const PER_LESSON = 25;

export interface ListsSeed {
  payments: number;
  lessons: number;
  marks: number;
  receipts: number;
  guardians: number;
  seconds: number;
}

/** Seeds the lists of the tenant `slug` (its students must exist), as the database owner. */
export async function seedLists(database: Database, slug = 'demo'): Promise<ListsSeed> {
  const t0 = performance.now();
  const money = await seedMoney(database, slug);
  const db = database.db;
  const [tenant] = await queryRows<{ id: number }>(db, sql`select id from tenants where slug = ${slug}`);
  const t = tenant!.id;
  await db.transaction(async (tx) => {
    // Lessons for every class in the marked weeks, unless the centre's timetable has them.
    const [have] = await queryRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from lessons where tenant_id = ${t} and class_id is not null and date between ${MARKED.from}::date and ${MARKED.to}::date`,
    );
    if (!have?.n) {
      await tx.execute(sql`
        insert into lessons (tenant_id, date, start_time, end_time, class_id)
        select ${t}, d::date, make_time(14 + h, 0, 0), make_time(15 + h, 0, 0), k.id
        from classes k
        cross join generate_series(${MARKED.from}::timestamp, ${MARKED.to}::timestamp, interval '1 day') d
        cross join generate_series(0, 5) h
        where k.tenant_id = ${t} and extract(isodow from d) <= 6`);
    }
    // Each lesson marks 25 of its class's members (a different group from lesson to lesson).
    await tx.execute(sql`
      with members as (
        select cs.class_id, cs.student_id, row_number() over (partition by cs.class_id order by cs.student_id) as r
        from class_students cs where cs.tenant_id = ${t}
      ),
      l as (
        select id, class_id, date, end_time from lessons
        where tenant_id = ${t} and class_id is not null and date between ${MARKED.from}::date and ${MARKED.to}::date
      )
      insert into attendance (tenant_id, lesson_id, student_id, status, marked_at)
      select ${t}, l.id, m.student_id,
        case when (l.id * 31 + m.student_id) % 100 < 85 then 'PRESENT' when (l.id * 31 + m.student_id) % 100 < 93 then 'ABSENT'
             when (l.id * 31 + m.student_id) % 100 < 98 then 'LATE' else 'EXCUSED' end,
        (l.date + l.end_time) at time zone 'Europe/Athens'
      from l join members m on m.class_id = l.class_id and m.r > (l.id % 4) * ${PER_LESSON} and m.r <= (l.id % 4 + 1) * ${PER_LESSON}`);
    // One receipt for each payment with a receipt, numbered in the order they were paid.
    await tx.execute(sql`
      with src as (
        select p.id as payment_id, row_number() over (order by p.paid_on, p.id) as number, p.paid_on, p.kind, p.month, p.amount, p.method,
          s.id as student_id, trim(s.first_name || ' ' || s.last_name) as name
        from payments p
        join contracts c on c.tenant_id = p.tenant_id and c.id = p.contract_id
        join students s on s.tenant_id = c.tenant_id and s.id = c.student_id
        where p.tenant_id = ${t} and p.bill_number is not null
      ),
      made as (
        insert into receipts (tenant_id, series, number, issued_on, kind, issuer, payer, lines, amount, method, status, search)
        select ${t}, 'Α', number, paid_on, 'RECEIPT',
          jsonb_build_object('legal_name', 'Φροντιστήριο Δοκιμών', 'tax_id', '094014201', 'tax_office', 'Α΄ Αθηνών', 'address', 'Σταδίου 1',
            'city', 'Αθήνα', 'postal_code', '10562', 'phone', '2100000000', 'email', 'info@example.gr'),
          jsonb_build_object('name', name, 'student_id', student_id, 'address', null, 'tax_id', null),
          jsonb_build_array(jsonb_build_object('kind', kind, 'month', month, 'description', case when kind = 'MONTHLY' then 'Δίδακτρα ' || month else 'Εγγραφή' end, 'amount', amount)),
          amount, method, case when number % 10 = 0 then 'ISSUED' else 'SENT' end, lower(name || ' α-' || number)
        from src
        returning id, number
      )
      insert into receipt_payments (tenant_id, receipt_id, payment_id)
      select ${t}, made.id, src.payment_id from made join src using (number)`);
    await tx.execute(sql`
      insert into receipt_series (tenant_id, series, last_number)
      select ${t}, 'Α', coalesce(max(number), 0) from receipts where tenant_id = ${t} and series = 'Α'
      on conflict (tenant_id, series) do update set last_number = excluded.last_number`);
    // A guardian for each student but every third, who is the younger sibling of the one before.
    await tx.execute(sql`
      with s as (select id, first_name, last_name, row_number() over (order by id) as k from students where tenant_id = ${t}),
      made as (
        insert into guardians (tenant_id, first_name, last_name, relation, phone, email, search)
        select ${t}, (array['Ελένη', 'Γιώργος', 'Μαρία', 'Νίκος'])[k % 4 + 1], last_name, (array['MOTHER', 'FATHER', 'GUARDIAN'])[k % 3 + 1],
          '69' || lpad((20000000 + k)::text, 8, '0'), 'parent' || k || '@example.gr', 'bench ' || k
        from s where k % 3 <> 0
        returning id, search
      )
      insert into student_guardians (tenant_id, student_id, guardian_id)
      select ${t}, s.id, made.id from s join made on made.search = 'bench ' || case when s.k % 3 = 0 then s.k - 1 else s.k end`);
  });
  await db.execute(sql`vacuum analyze`);
  const [counts] = await queryRows<{ lessons: number; marks: number; receipts: number; guardians: number }>(
    db,
    sql`select (select count(distinct lesson_id)::int from attendance where tenant_id = ${t}) as lessons,
      (select count(*)::int from attendance where tenant_id = ${t}) as marks,
      (select count(*)::int from receipts where tenant_id = ${t}) as receipts,
      (select count(*)::int from guardians where tenant_id = ${t}) as guardians`,
  );
  return { payments: money.payments, ...counts!, seconds: (performance.now() - t0) / 1000 };
}

/** A live session of the tenant, as the bare students route checks it. */
const LIVE_SESSION = 'exists (select 1 from sessions where tenant_id = $1 and id = $2 and revoked_at is null)';
const INSTANT = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A page of 25 guardians by name, their students' ids and names, and the count, as JSON. */
const BARE_GUARDIANS = `select case when ${LIVE_SESSION} then json_build_object(
  'data', coalesce((select json_agg(p) from (
    select g.id, g.version, ${INSTANT('g.created_at')} as created_at, ${INSTANT('g.updated_at')} as updated_at, g.first_name, g.last_name,
      g.relation, g.phone, g.email, g.address, g.city, g.postal_code, g.tax_id, g.notify, g.portal,
      coalesce((select json_agg(l.student_id order by l.student_id) from student_guardians l where l.tenant_id = g.tenant_id and l.guardian_id = g.id), '[]') as student_ids,
      coalesce((select json_agg(json_build_object('id', s.id, 'name', trim(s.first_name || ' ' || s.last_name)) order by s.last_name_sort collate "C", s.id)
         from student_guardians l join students s on s.tenant_id = l.tenant_id and s.id = l.student_id
         where l.tenant_id = g.tenant_id and l.guardian_id = g.id), '[]') as students
    from guardians g where g.tenant_id = $1
    order by g.last_name_sort collate "C", g.first_name_sort collate "C", g.id limit 25) p), '[]'),
  'total', (select count(*) from guardians where tenant_id = $1))::text end as body`;

/** A month's receipts, newest first, 25 of them with their payments, and the count. */
const BARE_RECEIPTS = `select case when ${LIVE_SESSION} then json_build_object(
  'data', coalesce((select json_agg(p) from (
    select r.id, r.series, r.number, r.series || '-' || r.number as bill_number, to_char(r.issued_on, 'YYYY-MM-DD') as issued_on, r.kind,
      r.issuer, r.payer, r.lines, r.amount, r.method, r.status, r.mark, r.uid, r.qr_url, r.error, r.cancels_receipt_id, r.cancel_reason,
      (select c.id from receipts c where c.tenant_id = r.tenant_id and c.cancels_receipt_id = r.id) as cancelled_by_receipt_id,
      coalesce((select json_agg(rp.payment_id order by rp.payment_id) from receipt_payments rp where rp.tenant_id = r.tenant_id and rp.receipt_id = r.id), '[]') as payment_ids,
      r.version, ${INSTANT('r.created_at')} as created_at
    from receipts r where r.tenant_id = $1 and r.issued_on >= '2026-11-01' and r.issued_on <= '2026-11-30'
    order by r.issued_on desc, r.id desc limit 25) p), '[]'),
  'total', (select count(*) from receipts where tenant_id = $1 and issued_on >= '2026-11-01' and issued_on <= '2026-11-30'))::text end as body`;

/** The latest 25 absences with their lessons' date, times, class and subject, and the count. */
const BARE_ATTENDANCE = `select case when ${LIVE_SESSION} then json_build_object(
  'data', coalesce((select json_agg(p) from (
    select a.id, a.lesson_id, a.student_id, json_build_object('id', s.id, 'name', trim(s.first_name || ' ' || s.last_name)) as student,
      a.status, a.note, a.marked_by, ${INSTANT('a.marked_at')} as marked_at, to_char(l.date, 'YYYY-MM-DD') as date,
      to_char(l.start_time, 'HH24:MI') as start_time, to_char(l.end_time, 'HH24:MI') as end_time,
      l.class_id, case when l.class_id is not null then json_build_object('id', l.class_id, 'name', c.name) end as class,
      l.subject_id, case when l.subject_id is not null then json_build_object('id', l.subject_id, 'name', sb.name) end as subject, a.version
    from attendance a
    join lessons l on l.tenant_id = a.tenant_id and l.id = a.lesson_id
    join students s on s.tenant_id = a.tenant_id and s.id = a.student_id
    left join classes c on c.tenant_id = l.tenant_id and c.id = l.class_id
    left join subjects sb on sb.tenant_id = l.tenant_id and sb.id = l.subject_id
    where a.tenant_id = $1 and a.status = 'ABSENT'
    order by l.date desc, l.start_time desc, a.id limit 25) p), '[]'),
  'total', (select count(*) from attendance a where a.tenant_id = $1 and a.status = 'ABSENT'))::text end as body`;

/** A row's label, `{id, name}`, or null when it names none. */
const LABEL = (id: string, table: string, name: string) =>
  `case when ${id} is not null then (select json_build_object('id', t.id, 'name', ${name}) from ${table} t where t.tenant_id = $1 and t.id = ${id}) end`;
const PERSON = "trim(t.first_name || ' ' || t.last_name)";

/** The months of a contract still owed and already due. */
const DUE_UNPAID = 'from unnest(c.unpaid_months) m where m <= (select centre_month($1))';

/**
 * This month's unpaid contracts, those owing most first, 25 with their figures and their
 * student's, category's and paying guardian's names, counted and summed. The centre's date
 * and month are those of the centre asked for ($1), worked out once for the statement.
 */
const BARE_CONTRACTS = `select case when ${LIVE_SESSION} then json_build_object(
  'data', coalesce((select json_agg(p) from (
    select c.id, c.version, ${INSTANT('c.created_at')} as created_at, ${INSTANT('c.updated_at')} as updated_at, c.student_id, c.category_id,
      to_char(c.start_date, 'YYYY-MM-DD') as start_date, to_char(c.end_date, 'YYYY-MM-DD') as end_date, c.register_cost, c.month_cost, c.with_receipt,
      c.notes, c.payer_guardian_id, c.discount_percent,
      case when c.status = 'ACTIVE' and c.end_date < (select centre_today($1)) then 'COMPLETED' else c.status end as status,
      to_char(c.withdrawn_on, 'YYYY-MM-DD') as withdrawn_on, c.withdrawal_reason, c.reminders_enabled, c.total_cost, c.total_paid, c.rest,
      c.extra_total, c.credit, c.is_register_paid,
      array(select m ${DUE_UNPAID} order by m) as unpaid_months,
      (select coalesce(sum(contract_fee(c.month_cost, c.discount_percent) - coalesce((select sum(x.amount) from payments x
          where x.tenant_id = c.tenant_id and x.contract_id = c.id and x.kind = 'MONTHLY' and x.month = m), 0)), 0)::int ${DUE_UNPAID}) as unpaid_amount,
      (select count(*)::int from generate_series(date_trunc('month', c.start_date::timestamp), c.end_date::timestamp, interval '1 month') g
        where to_char(g, 'YYYY-MM') <= least(contract_last_month(c.end_date, c.status, c.withdrawn_on), (select centre_month($1)))) as due_months,
      ${LABEL('c.student_id', 'students', PERSON)} as student,
      ${LABEL('c.category_id', 'contract_categories', 't.name')} as category,
      ${LABEL('c.payer_guardian_id', 'guardians', PERSON)} as payer_guardian
    from contracts c where c.tenant_id = $1 and c.unpaid_months @> array['${MONEY_MONTH}'] and '${MONEY_MONTH}' <= centre_month($1)
    order by c.rest desc, c.id limit 25) p), '[]'),
  'total', s.n, 'totals', json_build_object('total_cost', s.total_cost, 'total_paid', s.total_paid, 'rest', s.rest))::text end as body
  from (select count(*) as n, coalesce(sum(total_cost), 0) as total_cost, coalesce(sum(total_paid), 0) as total_paid, coalesce(sum(rest), 0) as rest
    from contracts where tenant_id = $1 and unpaid_months @> array['${MONEY_MONTH}'] and '${MONEY_MONTH}' <= centre_month($1)) s`;

/**
 * The bench's exams in Physics by title, 25 with their student's name, and the count: the
 * subject and the title read from the records' value index (one row per record and field,
 * texts folded), as a hand-written route over the same tables would.
 */
const BARE_RECORDS = `with e as (select id from custom_entities where tenant_id = $1 and slug = '${RECORDS_SLUG}'),
  physics as (select v.record_id from custom_values v, e where v.tenant_id = $1 and v.entity_id = e.id and v.key = 'subject' and (v.txt collate "C") = '${RECORDS_SUBJECT}')
select case when ${LIVE_SESSION} then json_build_object(
  'data', coalesce((select json_agg(p) from (
    select r.id, r.version, ${INSTANT('r.created_at')} as created_at, ${INSTANT('r.updated_at')} as updated_at,
      r.data->'title' as title, r.data->'grade' as grade, r.data->'held_on' as held_on, r.data->'subject' as subject, r.data->'tags' as tags,
      r.data->'passed' as passed, r.data->'student' as student, ${LABEL("(r.data->>'student')::int", 'students', PERSON)} as student_label,
      r.data->'notes' as notes, r.data->'room' as room, r.data->'hours' as hours
    from (select t.record_id, t.txt from custom_values t, e where t.tenant_id = $1 and t.entity_id = e.id and t.key = 'title'
        and t.record_id in (select record_id from physics) order by (t.txt collate "C"), t.record_id limit 25) k
    join custom_records r on r.tenant_id = $1 and r.id = k.record_id
    order by (k.txt collate "C"), k.record_id) p), '[]'),
  'total', (select count(*) from physics))::text end as body`;

/**
 * The bare routes of these lists on `bare`: each one hand-written statement. The receipts'
 * amount in words is written in Node, as a hand-written route would, since the database has
 * no words for amounts.
 */
export function bareListRoutes(bare: FastifyInstance, run: <T>(text: string) => Promise<T[]>) {
  const passOn = (text: string) => async (_request: unknown, reply: import('fastify').FastifyReply) => {
    const [row] = await run<{ body: string | null }>(text);
    if (!row?.body) return reply.code(401).send();
    return reply.type('application/json; charset=utf-8').send(row.body);
  };
  bare.get('/guardians', passOn(BARE_GUARDIANS));
  bare.get('/attendance', passOn(BARE_ATTENDANCE));
  bare.get('/contracts', passOn(BARE_CONTRACTS));
  bare.get('/records', passOn(BARE_RECORDS));
  bare.get('/receipts', async (_request, reply) => {
    const [row] = await run<{ body: string | null }>(BARE_RECEIPTS);
    if (!row?.body) return reply.code(401).send();
    const page = JSON.parse(row.body) as { data: Array<Record<string, unknown>>; total: number };
    for (const r of page.data) Object.assign(r, { amount_in_words: amountInWords(r.amount as number), vat_exemption: VAT_EXEMPTION_LINE });
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(page));
  });
}
