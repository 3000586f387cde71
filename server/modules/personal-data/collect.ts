/**
 * Everything the centre holds about one person (a student or a guardian), as one document:
 * the row with its custom values, what it is linked to, every row that points at her by its
 * declaration (holders.ts: contracts, notes, attendance marks, and any resource declared with
 * a REFERENCE to her, each under its own name), the money of her contracts (payments, months,
 * the receipts of those payments), records of custom entities that point at her, the history
 * of all those rows and the messages to her family. Read in one tenant transaction, so the
 * document is one consistent picture.
 */
import { sql } from 'drizzle-orm';
import { DomainError } from '../../../domain/index';
import type { Tx } from '../../db/types';
import { queryRows } from '../../db/statements';
import type { Registry } from '../../engine/registry';
import { holdersOf, pointsAt, rowsWhere } from './holders';

export type PersonKind = 'students' | 'guardians';
type Row = Record<string, unknown>;

/** A stored row as a reader sees it: no tenant, search text or sort keys (they repeat the row). */
export function plainRow(row: Row): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(row)) {
    if (key === 'tenant_id' || key === 'search' || key.endsWith('_sort')) continue;
    out[key] = value;
  }
  return out;
}

/** Whole rows of a query as jsonb, cleaned. */
async function rows(tx: Tx, query: ReturnType<typeof sql>): Promise<Row[]> {
  const found = await queryRows<{ r: Row }>(tx, query);
  return found.map((f) => plainRow(f.r));
}

/** Records of custom entities whose REFERENCE fields point at the student. */
async function customRecordsOf(tx: Tx, tenantId: number, studentId: number): Promise<Row[]> {
  return rows(
    tx,
    sql`select jsonb_build_object('entity', e.slug, 'entity_name', e.name_el) || to_jsonb(r) as r
      from custom_records r join custom_entities e on e.tenant_id = r.tenant_id and e.id = r.entity_id
      where r.tenant_id = ${tenantId} and exists (
        select 1 from jsonb_array_elements(e.fields) f
        where f->>'type' = 'REFERENCE' and f->>'target' = 'students' and r.data->>(f->>'key') = ${String(studentId)})
      order by r.id`,
  );
}

async function historyOf(tx: Tx, tenantId: number, entity: string, ids: readonly number[]): Promise<Row[]> {
  if (!ids.length) return [];
  return rows(
    tx,
    sql`select to_jsonb(h) as r from history h where h.tenant_id = ${tenantId} and h.entity = ${entity}
      and h.entity_id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}) order by h.at, h.id`,
  );
}

/** Payments, months and receipts of these contracts. */
async function moneyOf(tx: Tx, tenantId: number, contractIds: readonly number[]) {
  if (!contractIds.length) return { payments: [], contract_months: [], receipts: [] };
  const list = sql.join(
    contractIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const payments = await rows(tx, sql`select to_jsonb(p) as r from payments p where p.tenant_id = ${tenantId} and p.contract_id in (${list}) order by p.id`);
  const months = await rows(
    tx,
    sql`select to_jsonb(m) as r from contract_months m where m.tenant_id = ${tenantId} and m.contract_id in (${list}) order by m.contract_id, m.month`,
  );
  const receipts = await rows(
    tx,
    sql`select to_jsonb(r) || jsonb_build_object('payment_ids', (select jsonb_agg(rp2.payment_id order by rp2.payment_id) from receipt_payments rp2
        where rp2.tenant_id = r.tenant_id and rp2.receipt_id = r.id)) as r
      from receipts r where r.tenant_id = ${tenantId} and r.id in (
        select rp.receipt_id from receipt_payments rp join payments p on p.tenant_id = rp.tenant_id and p.id = rp.payment_id
        where rp.tenant_id = ${tenantId} and p.contract_id in (${list}))
      order by r.id`,
  );
  return { payments, contract_months: months, receipts };
}

const idsOf = (list: readonly Row[]) => list.map((r) => Number(r.id));

/** Every row pointing at the person, by entity name, and the history of those rows. */
async function heldRows(tx: Tx, registry: Registry, tenantId: number, kind: PersonKind, id: number) {
  const held: Record<string, Row[]> = {};
  for (const { holder, field } of await holdersOf(tx, registry, kind)) {
    const found = (await rowsWhere(tx, tenantId, holder, pointsAt(field, id))).map(plainRow);
    const known = new Set(idsOf(held[holder.entity] ?? []));
    held[holder.entity] = [...(held[holder.entity] ?? []), ...found.filter((r) => !known.has(Number(r.id)))];
  }
  const history: Row[] = [];
  for (const [entity, list] of Object.entries(held)) history.push(...(await historyOf(tx, tenantId, entity, idsOf(list))));
  return { held, history };
}

export async function collectStudent(tx: Tx, registry: Registry, tenantId: number, id: number): Promise<Row> {
  const [person] = await rows(tx, sql`select to_jsonb(s) as r from students s where s.tenant_id = ${tenantId} and s.id = ${id}`);
  if (!person) throw new DomainError('not-found');
  const guardians = await rows(
    tx,
    sql`select to_jsonb(g) as r from guardians g join student_guardians sg on sg.tenant_id = g.tenant_id and sg.guardian_id = g.id
      where sg.tenant_id = ${tenantId} and sg.student_id = ${id} order by g.id`,
  );
  const classes = await rows(
    tx,
    sql`select jsonb_build_object('id', c.id, 'name', c.name) as r from classes c join class_students cs on cs.tenant_id = c.tenant_id and cs.class_id = c.id
      where cs.tenant_id = ${tenantId} and cs.student_id = ${id} order by c.id`,
  );
  const subjects = await rows(
    tx,
    sql`select jsonb_build_object('id', s.id, 'name', s.name) as r from subjects s join student_subjects ss on ss.tenant_id = s.tenant_id and ss.subject_id = s.id
      where ss.tenant_id = ${tenantId} and ss.student_id = ${id} order by s.id`,
  );
  const { held, history } = await heldRows(tx, registry, tenantId, 'students', id);
  const contracts = held.contracts ?? [];
  const money = await moneyOf(tx, tenantId, idsOf(contracts));
  // a mark is read with its lesson's day
  const days = new Map(
    (
      await queryRows<{ id: number; day: string }>(
        tx,
        sql`select a.id, to_char(l.date, 'YYYY-MM-DD') as day from attendance a join lessons l on l.tenant_id = a.tenant_id and l.id = a.lesson_id
          where a.tenant_id = ${tenantId} and a.student_id = ${id}`,
      )
    ).map((r) => [Number(r.id), r.day]),
  );
  const attendance = (held.attendance ?? []).map((a) => ({ ...a, lesson_date: days.get(Number(a.id)) ?? null }));
  const outbox = await rows(
    tx,
    sql`select to_jsonb(o) as r from outbox o where o.tenant_id = ${tenantId}
      and (o.params->>'student_id' = ${String(id)} or o.dedupe_key like ${`%:student:${id}:%`}) order by o.id`,
  );
  return {
    kind: 'student',
    generated_at: new Date().toISOString(),
    person,
    guardians,
    classes,
    subjects,
    contracts,
    ...money,
    notes: [],
    ...held,
    attendance,
    custom_records: await customRecordsOf(tx, tenantId, id),
    history: [...(await historyOf(tx, tenantId, 'students', [id])), ...history, ...(await historyOf(tx, tenantId, 'payments', idsOf(money.payments)))],
    messages: outbox,
  };
}

export async function collectGuardian(tx: Tx, registry: Registry, tenantId: number, id: number): Promise<Row> {
  const [person] = await rows(tx, sql`select to_jsonb(g) as r from guardians g where g.tenant_id = ${tenantId} and g.id = ${id}`);
  if (!person) throw new DomainError('not-found');
  const students = await rows(
    tx,
    sql`select jsonb_build_object('id', s.id, 'first_name', s.first_name, 'last_name', s.last_name) as r from students s
      join student_guardians sg on sg.tenant_id = s.tenant_id and sg.student_id = s.id
      where sg.tenant_id = ${tenantId} and sg.guardian_id = ${id} order by s.id`,
  );
  const { held, history } = await heldRows(tx, registry, tenantId, 'guardians', id);
  const contracts = held.contracts ?? [];
  const money = await moneyOf(tx, tenantId, idsOf(contracts));
  // Receipts naming the guardian as payer, also those of contracts paid by someone else since.
  const named = await rows(
    tx,
    sql`select to_jsonb(r) as r from receipts r where r.tenant_id = ${tenantId} and r.payer->>'guardian_id' = ${String(id)} order by r.id`,
  );
  const receiptIds = new Set(idsOf(money.receipts));
  const receipts = [...money.receipts, ...named.filter((r) => !receiptIds.has(Number(r.id)))];
  const messages = await rows(tx, sql`select to_jsonb(o) as r from outbox o where o.tenant_id = ${tenantId} and o.guardian_id = ${id} order by o.id`);
  // her portal sign-in and invitations, without their secrets (password hash, token hash)
  const portal = await rows(
    tx,
    sql`select to_jsonb(u) - 'password_hash' as r from users u join guardian_users gu on gu.tenant_id = u.tenant_id and gu.user_id = u.id
      where gu.tenant_id = ${tenantId} and gu.guardian_id = ${id} order by u.id`,
  );
  const invitations = await rows(
    tx,
    sql`select to_jsonb(i) - 'token_hash' as r from portal_invitations i where i.tenant_id = ${tenantId} and i.guardian_id = ${id} order by i.id`,
  );
  return {
    kind: 'guardian',
    generated_at: new Date().toISOString(),
    person,
    students,
    ...held,
    contracts,
    payments: money.payments,
    contract_months: money.contract_months,
    receipts,
    portal_account: portal[0] ?? null,
    portal_invitations: invitations,
    history: [
      ...(await historyOf(tx, tenantId, 'guardians', [id])),
      ...(await historyOf(tx, tenantId, 'users', idsOf(portal))),
      ...(await historyOf(tx, tenantId, 'portal-invitations', [id])),
      ...history,
      ...(await historyOf(tx, tenantId, 'payments', idsOf(money.payments))),
    ],
    messages,
  };
}
