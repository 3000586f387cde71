/**
 * The time-based notifications, computed from the data each run (so a restart or a day of
 * downtime is caught up at the next run, and nothing depends on a timer surviving):
 *  - a month still unpaid after the 10th (of the centre's time zone) by some contracts: once
 *    per month and office user, naming how many contracts owe it and how much;
 *  - a lesson still waiting for a replacement when its day is near or past: once per lesson
 *    and office user.
 * Several processes may run it at once on one database: each notification carries a
 * `dedupe_key`, and the unique index turns a second insert into nothing (ON CONFLICT DO
 * NOTHING), whoever commits first. It looks back CATCH_UP_MONTHS at most.
 */
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { CATCH_UP_MONTHS, displayDate, STILL_WAITING_DAYS, UNPAID_AFTER_DAY, unpaidListLink } from '../../domain/index';
import { formatMoney } from '../../domain/money-format';
import type { Database, Tx } from '../db/types';
import { platform, withTenant } from '../db/doors';
import { queryRows } from '../db/statements';
import { tenants } from '../db/schema/index';
import { notify, officeStaff, wake } from '../modules/notifications/create';

const FIRST_RUN_MS = 5_000;

const officeJoin = sql`join users u on u.tenant_id = x.tenant_id and u.status = 'ACTIVE' and u.role in ('ADMIN', 'SECRETARY')`;
const mailWanted = sql`u.email_notifications and coalesce(u.email, '') <> ''`;

/**
 * One notification per overdue month for the whole centre, not one per contract: how many
 * contracts still owe that month and how much, opening the list of those contracts. Per-contract
 * ones written before are folded into it (read), so the office starts with a handful, not dozens.
 */
async function unpaidMonths(tx: Tx, tenantId: number, today: string): Promise<number[]> {
  const months = await queryRows<{ month: string; count: number; owed: number | string }>(
    tx,
    sql`select x.month, count(*)::int as count,
               sum(contract_fee(x.month_cost, x.discount_percent)
                   - coalesce((select sum(p.amount) from payments p
                               where p.tenant_id = x.tenant_id and p.contract_id = x.id and p.kind = 'MONTHLY' and p.month = x.month and p.refunded_on is null), 0))::bigint as owed
        from (select c.tenant_id, c.id, c.month_cost, c.discount_percent, m as month from contracts c cross join lateral unnest(c.unpaid_months) m
              where c.tenant_id = ${tenantId}
                and to_date(m, 'YYYY-MM') + ${UNPAID_AFTER_DAY - 1}::int < ${today}::date
                and to_date(m, 'YYYY-MM') >= date_trunc('month', ${today}::date - interval '${sql.raw(String(CATCH_UP_MONTHS))} months')) x
        group by x.month
        order by x.month`,
  );
  const reached = await notify(
    tx,
    tenantId,
    months.map(({ month, count, owed }) => ({
      kind: 'months-unpaid' as const,
      params: { month: displayDate(month), count: Number(count), total: formatMoney(Number(owed)) },
      link: unpaidListLink(month),
      recipients: officeStaff(tenantId),
      dedupeKey: `months-unpaid:${month}`,
    })),
  );
  if (months.length) {
    const folded = await queryRows<{ user_id: number }>(
      tx,
      sql`update notifications set read_at = now()
          where tenant_id = ${tenantId} and kind = 'month-unpaid' and read_at is null
            and split_part(dedupe_key, ':', 3) in (${sql.join(
              months.map((m) => sql`${m.month}`),
              sql`, `,
            )})
          returning user_id`,
    );
    // their unread counts fell: the bells update (notify already woke the new ones' readers)
    if (folded.length)
      await wake(
        tx,
        tenantId,
        folded.map((r) => Number(r.user_id)),
      );
  }
  return reached;
}

async function stillWaiting(tx: Tx, tenantId: number, today: string): Promise<number[]> {
  const rows = await queryRows<{ user_id: number }>(
    tx,
    sql`insert into notifications (tenant_id, user_id, kind, params, link, dedupe_key, mail_pending)
        select x.tenant_id, u.id, 'lesson-still-waiting',
               jsonb_build_object('subject', coalesce(sb.name, cl.name, '—'),
                                  'teacher', coalesce(nullif(trim(t.first_name || ' ' || t.last_name), ''), '—'),
                                  'date', to_char(x.date, 'DD/MM/YYYY'), 'start', to_char(x.start_time, 'HH24:MI'), 'end', to_char(x.end_time, 'HH24:MI')),
               '/?mode=view&lesson=' || x.id, 'lesson-still-waiting:' || x.id, ${mailWanted}
        from lessons x
        left join subjects sb on sb.tenant_id = x.tenant_id and sb.id = x.subject_id
        left join classes cl on cl.tenant_id = x.tenant_id and cl.id = x.class_id
        left join teachers t on t.tenant_id = x.tenant_id and t.id = x.teacher_id
        ${officeJoin}
        where x.tenant_id = ${tenantId} and x.status = 'TO_BE_REPLACED'
          and x.date <= ${today}::date + ${STILL_WAITING_DAYS}::int
          and x.date >= ${today}::date - interval '${sql.raw(String(CATCH_UP_MONTHS))} months'
        on conflict (tenant_id, user_id, dedupe_key) do nothing
        returning user_id`,
  );
  return rows.map((r) => Number(r.user_id));
}

/**
 * One run over every active centre; answers how many notifications it created. `today`
 * (YYYY-MM-DD) replaces the centre's own date, for tests.
 */
export async function runNotificationJob(database: Database, opts: { today?: string } = {}): Promise<number> {
  const centres = await platform(database).select({ id: tenants.id, timeZone: tenants.timeZone }).from(tenants).where(eq(tenants.status, 'ACTIVE'));
  let created = 0;
  for (const centre of centres) {
    created += await withTenant(database, centre.id, async (tx) => {
      const today =
        opts.today ??
        (await queryRows<{ today: string }>(tx, sql`select to_char((now() at time zone ${centre.timeZone})::date, 'YYYY-MM-DD') as today`))[0]!.today;
      const unpaid = await unpaidMonths(tx, centre.id, today);
      const waiting = await stillWaiting(tx, centre.id, today);
      if (waiting.length) await wake(tx, centre.id, waiting);
      return unpaid.length + waiting.length;
    });
  }
  return created;
}

export function scheduleNotifications(database: Database, log: FastifyBaseLogger, everyMs = 10 * 60_000): () => void {
  const run = () => {
    runNotificationJob(database).catch((error: unknown) => log.error({ err: error }, 'notification job failed'));
  };
  const first = setTimeout(run, FIRST_RUN_MS).unref();
  const timer = setInterval(run, everyMs).unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
