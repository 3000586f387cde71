/**
 * Reminders of unpaid months to families (docs/rules.md, Reminders): once a day per payer,
 * not per contract. After the centre's reminder_day of the month, a payer guardian (notices
 * on, an address known) with due months unpaid on any of her ACTIVE contracts (not withdrawn,
 * not past their end, reminders on) gets ONE e-mail naming every child, month and amount and
 * the total, written into the outbox (delivered by the outbox job); again every
 * reminder_repeat_days until paid. At most once a day: the message's dedupe_key holds the payer
 * and the day, and the outbox's unique index makes a second process's insert nothing.
 * Computed from the data each run, so a day missed is caught up at the next run.
 *
 * The office may send her reminder now (remindNow): once more on a day the job already wrote
 * one, never a third time (its own key per payer and day: a second click answers the message
 * the first one wrote).
 */
import { eq, sql } from 'drizzle-orm';
import { monthGenitive } from '../../domain/receipt-words';
import type { FastifyBaseLogger } from 'fastify';
import { formatMoney } from '../../domain/money-format';
import type { Database, Tx } from '../db/types';
import { platform, withTenant } from '../db/doors';
import { queryRows } from '../db/statements';
import { tenants } from '../db/schema/index';
import { enqueueMessage, smsKey } from '../modules/messages/enqueue';
import { addressesOf } from '../../domain/reach';
import { guardianAccounts, notify } from '../modules/notifications/create';
import { displayDate, portalContractsLink } from '../../domain/notifications';
import { DomainError } from '../../domain/index';
import { greeting, signature } from '../modules/notifications/letter';

const RUN_EVERY_MS = 60 * 60_000;
const FIRST_RUN_MS = 20_000;

/** The outbox kind of a reminder. */
export const REMINDER_KIND = 'reminder';

/** One due month of one contract, as the reminder names it. */
interface OwedRow {
  contract_id: number;
  student_id: number;
  student_name: string;
  guardian_id: number;
  email: string | null;
  phone: string | null;
  notify_by: string | null;
  last_name: string;
  relation: string;
  centre: string;
  months: string[];
  amounts: (number | string)[];
}

export interface FamilyDue {
  guardian_id: number;
  last_name: string;
  relation: string;
  centre: string;
  children: { student_id: number; name: string; lines: { contract_id: number; month: string; amount: number }[] }[];
  /** In cents. */
  total: number;
}

/**
 * What each payer owes today (due months unpaid on her reminded contracts), a family per
 * payer. `scheduled`: only after the reminder day, and only payers not reminded in the last
 * reminder_repeat_days; else (sent now) one payer, whatever the day.
 */
async function familiesDue(tx: Tx, tenantId: number, today: string, which: { scheduled: true } | { guardianId: number }): Promise<FamilyDue[]> {
  const scheduled = 'scheduled' in which;
  const rows = await queryRows<OwedRow>(
    tx,
    sql`
with settings as (
  select coalesce(max(cs.reminder_day), 10) as day, coalesce(max(cs.reminder_repeat_days), 7) as repeat
  from centre_settings cs where cs.tenant_id = ${tenantId}
),
owed as (
  select c.id, c.payer_guardian_id, c.student_id, contract_fee(c.month_cost, c.discount_percent) as fee,
    array(select m from unnest(c.unpaid_months) m where m <= to_char(${today}::date, 'YYYY-MM') order by m) as months
  from contracts c
  where c.tenant_id = ${tenantId} and c.status = 'ACTIVE' and c.end_date >= ${today}::date and c.reminders_enabled
    and c.payer_guardian_id is not null
    and exists (select 1 from unnest(c.unpaid_months) m where m <= to_char(${today}::date, 'YYYY-MM'))
    ${scheduled ? sql`` : sql`and c.payer_guardian_id = ${which.guardianId}`}
)
select x.id as contract_id, x.student_id, g.id as guardian_id, g.email, g.phone, g.notify_by, g.last_name, g.relation,
  trim(st.first_name || ' ' || st.last_name) as student_name, t.name as centre, x.months,
  array(select x.fee - coalesce((select sum(p.amount) from payments p
                                  where p.tenant_id = ${tenantId} and p.contract_id = x.id and p.kind = 'MONTHLY' and p.month = m and p.refunded_on is null), 0)
        from unnest(x.months) m order by m) as amounts
from owed x
join guardians g on g.tenant_id = ${tenantId} and g.id = x.payer_guardian_id and g.notify
join students st on st.tenant_id = ${tenantId} and st.id = x.student_id
join tenants t on t.id = ${tenantId}
cross join settings s
where ${
      scheduled
        ? sql`extract(day from ${today}::date) > s.day
    -- every reminder_repeat_days: none written (sent or waiting) to her in the last ones
    and not exists (
      select 1 from outbox o
      where o.tenant_id = ${tenantId} and o.kind = ${REMINDER_KIND} and o.cancelled_at is null and o.guardian_id = g.id
        and (o.params->>'day')::date > ${today}::date - s.repeat
    )`
        : sql`true`
    }
order by g.id, st.last_name, st.first_name, st.id, x.id`,
  );
  const families = new Map<number, FamilyDue>();
  for (const row of rows) {
    const guardianId = Number(row.guardian_id);
    let family = families.get(guardianId);
    // A payer no channel of hers reaches is left out (her screen says she can't be reached).
    if (!family && !reachable(row)) continue;
    if (!family) {
      family = {
        guardian_id: guardianId,
        last_name: row.last_name,
        relation: row.relation,
        centre: row.centre,
        children: [],
        total: 0,
      };
      families.set(guardianId, family);
    }
    const studentId = Number(row.student_id);
    let child = family.children.find((c) => c.student_id === studentId);
    if (!child) {
      child = { student_id: studentId, name: row.student_name, lines: [] };
      family.children.push(child);
    }
    row.months.forEach((month, i) => {
      const amount = Number(row.amounts[i]);
      child.lines.push({ contract_id: Number(row.contract_id), month, amount });
      family.total += amount;
    });
  }
  for (const family of families.values())
    for (const child of family.children) child.lines.sort((a, b) => a.month.localeCompare(b.month) || a.contract_id - b.contract_id);
  return [...families.values()];
}

/**
 * The e-mail of one family's reminder, in Greek: every child, each due month (in the genitive,
 * as receipts name it) with what it still owes, and the total.
 */
export function reminderText(family: Pick<FamilyDue, 'last_name' | 'relation' | 'centre' | 'children' | 'total'>) {
  const subject = `Υπενθύμιση διδάκτρων · ${family.centre}`;
  const body = [
    greeting(family, 'el'),
    '',
    `σας υπενθυμίζουμε ότι εκκρεμεί η πληρωμή των παρακάτω διδάκτρων${family.children.length > 1 ? ' των παιδιών σας' : ''}:`,
    '',
    ...family.children.flatMap((child) => [
      `${child.name}:`,
      // A month's payment reference (ISO 11649) goes at the end of its line, when contracts have them.
      ...child.lines.map((line) => `– ${monthGenitive(line.month)}: ${formatMoney(line.amount)}`),
      '',
    ]),
    `Σύνολο: ${formatMoney(family.total)}`,
    '',
    'Αν έχετε ήδη πληρώσει, αγνοήστε αυτό το μήνυμα.',
    '',
    ...signature(family.centre, 'el'),
  ].join('\n');
  return { subject, body };
}

/** Whether her channel (e-mail, SMS or both) has an address to reach her by. */
const reachable = (g: { notify_by: string | null; email: string | null; phone: string | null }) => {
  const { email, mobile } = addressesOf({ ...g, notify_by: g.notify_by ?? 'BOTH' });
  return Boolean(email || mobile);
};

/**
 * The SMS of one family's reminder, short enough for two segments of Greek: the centre, the
 * total first (it survives a cut), then each child with what she owes and for how many months.
 */
export function reminderSms(family: Pick<FamilyDue, 'centre' | 'children' | 'total'>) {
  const owed = family.children
    .map((child) => {
      const amount = child.lines.reduce((sum, line) => sum + line.amount, 0);
      const months = new Set(child.lines.map((line) => line.month)).size;
      return `${child.name} ${formatMoney(amount)} (${months} ${months === 1 ? 'μήνας' : 'μήνες'})`;
    })
    .join(', ');
  return `${family.centre}: εκκρεμούν δίδακτρα ${formatMoney(family.total)}: ${owed}.`;
}

/** Writes one family's reminder under `dedupeKey`; answers whether it was new. */
async function writeReminder(tx: Tx, tenantId: number, family: FamilyDue, today: string, dedupeKey: string, by: 'schedule' | 'office'): Promise<boolean> {
  const { subject, body } = reminderText(family);
  const months = [...new Set(family.children.flatMap((c) => c.lines.map((l) => l.month)))].sort();
  const added = await enqueueMessage(tx, {
    tenantId,
    kind: REMINDER_KIND,
    dedupeKey,
    guardianId: family.guardian_id,
    subject,
    body,
    sms: reminderSms(family),
    params: {
      guardian_id: family.guardian_id,
      day: today,
      by,
      months,
      amount: family.total,
      contracts: family.children.flatMap((child) => {
        const ids = [...new Set(child.lines.map((l) => l.contract_id))];
        return ids.map((id) => {
          const lines = child.lines.filter((l) => l.contract_id === id);
          return { contract_id: id, student_id: child.student_id, months: lines.map((l) => l.month), amount: lines.reduce((a, l) => a + l.amount, 0) };
        });
      }),
    },
  });
  if (!added) return false;
  // Her portal's bell rings too, when she has a sign-in.
  await notify(tx, tenantId, [
    {
      kind: 'fees-due',
      params: { student: family.children.map((c) => c.name).join(', '), months: months.map(displayDate).join(', '), amount: formatMoney(family.total) },
      link: portalContractsLink(family.children[0]!.student_id),
      recipients: guardianAccounts(tenantId, [family.guardian_id]),
      dedupeKey: `fees-due:${dedupeKey}`,
    },
  ]);
  return true;
}

/** One centre's reminders of `today` (YYYY-MM-DD); answers how many were written. */
export async function remindCentre(tx: Tx, tenantId: number, today: string): Promise<number> {
  let written = 0;
  for (const family of await familiesDue(tx, tenantId, today, { scheduled: true })) {
    if (await writeReminder(tx, tenantId, family, today, `${REMINDER_KIND}:${family.guardian_id}:${today}`, 'schedule')) written++;
  }
  return written;
}

/**
 * Her reminder now, from the office: what she owes on her reminded contracts, whatever the
 * day of the month. Refused (400) when there is nothing to remind her of or no way to reach her.
 * Once a day from the office: a second send the same day answers the first one's message.
 */
export async function remindNow(
  tx: Tx,
  tenantId: number,
  guardianId: number,
  today: string,
): Promise<{ id: number; created: boolean; created_at: string; total: number }> {
  const [guardian] = await queryRows<{ id: number; email: string | null; phone: string | null; notify_by: string; notify: boolean }>(
    tx,
    sql`select id, email, phone, notify_by, notify from guardians where tenant_id = ${tenantId} and id = ${guardianId} for update`,
  );
  if (!guardian) throw new DomainError('not-found');
  if (!guardian.notify || !reachable(guardian))
    throw new DomainError('validation', 'No channel of hers has an address, or her notices are off.', undefined, {
      details: { reason: 'reminder-unreachable' },
    });
  const dedupeKey = `${REMINDER_KIND}:${guardianId}:${today}:now`;
  const [family] = await familiesDue(tx, tenantId, today, { guardianId });
  const created = family ? await writeReminder(tx, tenantId, family, today, dedupeKey, 'office') : false;
  const [row] = await queryRows<{ id: number; created_at: string; amount: number | string }>(
    tx,
    sql`select id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at, coalesce((params->>'amount')::bigint, 0) as amount
        from outbox where tenant_id = ${tenantId} and dedupe_key in (${dedupeKey}, ${smsKey(dedupeKey)}) order by id limit 1`,
  );
  if (!row) throw new DomainError('validation', 'Nothing is due on her reminded contracts.', undefined, { details: { reason: 'reminder-nothing-due' } });
  return { id: Number(row.id), created, created_at: row.created_at, total: Number(row.amount) };
}

/**
 * One run over every active centre; answers how many reminders it wrote. `today`
 * (YYYY-MM-DD) replaces each centre's own date (tests).
 */
export async function runReminderJob(database: Database, opts: { today?: string } = {}): Promise<number> {
  const centres = await platform(database).select({ id: tenants.id }).from(tenants).where(eq(tenants.status, 'ACTIVE'));
  let written = 0;
  for (const centre of centres) {
    written += await withTenant(database, centre.id, async (tx) => {
      const today = opts.today ?? (await queryRows<{ today: string }>(tx, sql`select to_char(centre_today(${centre.id}), 'YYYY-MM-DD') as today`))[0]!.today;
      return remindCentre(tx, centre.id, today);
    });
  }
  return written;
}

export function scheduleReminders(database: Database, log: FastifyBaseLogger): () => void {
  const run = () => {
    runReminderJob(database).catch((error: unknown) => log.error({ err: error }, 'reminder job failed'));
  };
  const first = setTimeout(run, FIRST_RUN_MS).unref();
  const timer = setInterval(run, RUN_EVERY_MS).unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
