/**
 * Reminders of unpaid months to families (docs/rules.md, Reminders): after the centre's
 * reminder_day of the month, each ACTIVE contract (not withdrawn, not past its end) with
 * reminders on and a due month unpaid writes one e-mail to its payer guardian, when her notices
 * are on and an address is known, into the outbox (delivered by the outbox job); again every
 * reminder_repeat_days until paid. At most once a day: the message's dedupe_key holds the
 * contract and the day, and the outbox's unique index makes a second process's insert nothing.
 * Computed from the data each run, so a day missed is caught up at the next run.
 */
import { eq, sql } from 'drizzle-orm';
import { monthGenitive } from '../../domain/receipt-words';
import type { FastifyBaseLogger } from 'fastify';
import { formatMoney } from '../../domain/money-format';
import { platform, queryRows, withTenant, type Database, type Tx } from '../db/client';
import { tenants } from '../db/schema/index';
import { enqueueMessage } from '../modules/messages/enqueue';
import { guardianAccounts, notify } from '../modules/notifications/create';
import { displayDate, portalContractsLink } from '../../domain/notifications';

const RUN_EVERY_MS = 60 * 60_000;
const FIRST_RUN_MS = 20_000;

/** The outbox kind of a reminder. */
export const REMINDER_KIND = 'reminder';

/** "α", "α και β", "α, β και γ". */
const listGreek = (items: string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} και ${items.at(-1)}`);

interface Due {
  contract_id: number;
  student_id: number;
  guardian_id: number;
  email: string;
  guardian_name: string;
  student_name: string;
  centre: string;
  months: string[];
  amounts: number[];
}

/** The contracts to remind today: what each owes for its due unpaid months, and its payer. */
async function dueReminders(tx: Tx, tenantId: number, today: string): Promise<Due[]> {
  return queryRows<Due>(
    tx,
    sql`
with settings as (
  select coalesce(max(cs.reminder_day), 10) as day, coalesce(max(cs.reminder_repeat_days), 7) as repeat, max(cs.legal_name) as legal_name
  from centre_settings cs where cs.tenant_id = ${tenantId}
),
candidates as (
  select c.id, c.payer_guardian_id, c.student_id, contract_fee(c.month_cost, c.discount_percent) as fee,
    array(select m from unnest(c.unpaid_months) m where m <= to_char(${today}::date, 'YYYY-MM') order by m) as months
  from contracts c, settings s
  where c.tenant_id = ${tenantId} and c.status = 'ACTIVE' and c.end_date >= ${today}::date and c.reminders_enabled
    and extract(day from ${today}::date) > s.day
    and c.payer_guardian_id is not null
    and exists (select 1 from unnest(c.unpaid_months) m where m <= to_char(${today}::date, 'YYYY-MM'))
    -- every reminder_repeat_days: none sent (or waiting) for this contract in the last ones
    and not exists (
      select 1 from outbox o
      where o.tenant_id = ${tenantId} and o.kind = ${REMINDER_KIND} and o.cancelled_at is null
        and o.params->>'contract_id' = c.id::text
        and (o.params->>'day')::date > ${today}::date - s.repeat
    )
)
select x.id as contract_id, x.student_id, g.id as guardian_id, g.email,
  trim(g.first_name || ' ' || g.last_name) as guardian_name,
  trim(st.first_name || ' ' || st.last_name) as student_name,
  coalesce(nullif(trim((select legal_name from settings)), ''), t.name) as centre,
  x.months,
  array(select x.fee - coalesce((select sum(p.amount) from payments p
                                  where p.tenant_id = ${tenantId} and p.contract_id = x.id and p.kind = 'MONTHLY' and p.month = m and p.refunded_on is null), 0)
        from unnest(x.months) m order by m) as amounts
from candidates x
join guardians g on g.tenant_id = ${tenantId} and g.id = x.payer_guardian_id and g.notify and coalesce(trim(g.email), '') <> ''
join students st on st.tenant_id = ${tenantId} and st.id = x.student_id
join tenants t on t.id = ${tenantId}
order by x.id`,
  );
}

/** The e-mail of one reminder, in Greek. */
export function reminderText(due: Pick<Due, 'guardian_name' | 'student_name' | 'centre' | 'months'>, amount: number) {
  const months = listGreek(due.months.map(monthGenitive));
  const subject = `Υπενθύμιση διδάκτρων · ${due.centre}`;
  const body = [
    `Αγαπητέ/ή ${due.guardian_name},`,
    '',
    `σας υπενθυμίζουμε ότι για τα δίδακτρα του/της ${due.student_name} εκκρεμεί η πληρωμή ${due.months.length === 1 ? 'του μήνα' : 'των μηνών'} ${months}, συνολικά ${formatMoney(amount)}.`,
    'Αν έχετε ήδη πληρώσει, αγνοήστε αυτό το μήνυμα.',
    '',
    'Με εκτίμηση,',
    due.centre,
  ].join('\n');
  return { subject, body };
}

/** One centre's reminders of `today` (YYYY-MM-DD); answers how many were written. */
export async function remindCentre(tx: Tx, tenantId: number, today: string): Promise<number> {
  let written = 0;
  for (const due of await dueReminders(tx, tenantId, today)) {
    const amounts = due.amounts.map(Number);
    const amount = amounts.reduce((a, b) => a + b, 0);
    const { subject, body } = reminderText(due, amount);
    const added = await enqueueMessage(tx, {
      tenantId,
      kind: REMINDER_KIND,
      dedupeKey: `${REMINDER_KIND}:${due.contract_id}:${today}`,
      recipient: due.email.trim(),
      guardianId: due.guardian_id,
      subject,
      body,
      params: { contract_id: due.contract_id, day: today, months: due.months, amount },
    });
    if (!added) continue;
    written++;
    // Her portal's bell rings too, when she has a sign-in.
    await notify(tx, tenantId, [
      {
        kind: 'fees-due',
        params: { student: due.student_name, months: due.months.map(displayDate).join(', '), amount: formatMoney(amount) },
        link: portalContractsLink(Number(due.student_id)),
        recipients: guardianAccounts(tenantId, [due.guardian_id]),
        dedupeKey: `fees-due:${due.contract_id}:${today}`,
      },
    ]);
  }
  return written;
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
