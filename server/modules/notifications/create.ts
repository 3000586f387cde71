/**
 * Creating notifications, always inside the transaction of the write that caused them, so
 * they exist exactly when that write does. One statement per batch: the recipients are chosen
 * in SQL (a lesson's teacher, the centre's active ADMIN and SECRETARY accounts), a
 * `dedupe_key` makes a repeat a no-op, and pg_notify tells every process (delivered at commit,
 * never for a rolled-back write) whose streams to wake.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { NotificationKind, NotificationParams } from '../../../domain/index';
import type { Queryable } from '../../db/types';
import { queryRows } from '../../db/statements';

export const NOTIFY_CHANNEL = 'frontis_notifications';

/** One notification for every user `recipients` selects (a query answering `id`s of users). */
export interface NewNotification {
  kind: NotificationKind;
  params: NotificationParams;
  link: string;
  recipients: SQL;
  /** Set for the scheduled kinds: each (recipient, key) is created once. */
  dedupeKey?: string;
}

/** The centre's active office staff, but `except` (who caused the event knows of it). */
export const officeStaff = (tenantId: number, except?: number | null): SQL =>
  sql`select id from users where tenant_id = ${tenantId} and status = 'ACTIVE' and role in ('ADMIN', 'SECRETARY')${except ? sql` and id <> ${except}` : sql``}`;

/** The sign-in of a teacher (none for a lesson without one). */
export const teacherAccount = (tenantId: number, teacherId: number | null | undefined): SQL =>
  sql`select t.user_id as id from teachers t join users u on u.tenant_id = t.tenant_id and u.id = t.user_id
      where t.tenant_id = ${tenantId} and t.id = ${teacherId ?? 0} and t.deleted_at is null and u.status = 'ACTIVE'`;

/** The active portal sign-ins of these guardians (none for a guardian without one). */
export const guardianAccounts = (tenantId: number, guardianIds: readonly number[]): SQL =>
  sql`select gu.user_id as id from guardian_users gu join users u on u.tenant_id = gu.tenant_id and u.id = gu.user_id
      where gu.tenant_id = ${tenantId} and u.status = 'ACTIVE' and gu.guardian_id in (${sql.join(
        (guardianIds.length ? guardianIds : [0]).map((id) => sql`${id}`),
        sql`, `,
      )})`;

/**
 * What the streams listen for, in one centre: users with news (a new notification, or a count
 * that changed), sessions that ended, accounts whose role or status changed.
 */
export interface Wake {
  t: number;
  u?: number[];
  /** Sessions revoked (sign-out, revocation, password change, deactivation): their streams end. */
  s?: number[];
  /** Accounts whose role or status changed: their streams end and reconnect as what they now are. */
  a?: number[];
}

/** Sends one wake per slice: a NOTIFY payload holds under 8,000 bytes. */
export async function announce(q: Queryable, tenantId: number, field: 'u' | 's' | 'a', ids: number[]): Promise<void> {
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 500) {
    const payload: Wake = { t: tenantId, [field]: unique.slice(i, i + 500) };
    await q.execute(sql`select pg_notify(${NOTIFY_CHANNEL}, ${JSON.stringify(payload)})`);
  }
}

/** Tells every process's streams that these users' notifications changed (at commit). */
export async function wake(q: Queryable, tenantId: number, userIds: number[]): Promise<void> {
  await announce(q, tenantId, 'u', userIds);
}

/** Inserts the notifications; answers the recipients that got a new one. */
export async function notify(q: Queryable, tenantId: number, items: NewNotification[]): Promise<number[]> {
  const reached: number[] = [];
  for (const item of items) {
    const rows = await queryRows<{ user_id: number }>(
      q,
      sql`insert into notifications (tenant_id, user_id, kind, params, link, dedupe_key, mail_pending)
          select ${tenantId}, u.id, ${item.kind}, ${JSON.stringify(item.params)}::jsonb, ${item.link}, ${item.dedupeKey ?? null},
                 u.email_notifications and coalesce(u.email, '') <> ''
          from users u where u.tenant_id = ${tenantId} and u.id in (${item.recipients})
          on conflict (tenant_id, user_id, dedupe_key) do nothing
          returning user_id`,
    );
    reached.push(...rows.map((r) => Number(r.user_id)));
  }
  if (reached.length) await wake(q, tenantId, reached);
  return reached;
}
