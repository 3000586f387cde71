/**
 * Figures read from the database when /metrics is scraped or /healthz asked: how late each
 * job's queue is, the receipts still without a MARK, and (on a PostgreSQL server) the
 * standbys. One short statement, outside any transaction, so PGlite's one connection is held
 * for a moment only. Totals over every centre: the platform door reads as the connecting role,
 * which sees every centre's rows when it bypasses row-level security (the server's owner role,
 * as the cluster and docs/deploy.md set it up).
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/types';
import { platform } from '../db/doors';
import { queryRows } from '../db/statements';

/** Seconds, or null when the queue holds nothing due. */
export interface Figures {
  /** Receipts waiting for their MARK whose attempt is due: now minus the earliest due moment. */
  aadeQueueAge: number | null;
  /** The oldest receipt still waiting for its MARK (due or backing off): now minus its issue. */
  aadeOldestWaiting: number | null;
  /** Messages to families due and unsent (reminders apart): now minus the earliest due moment. */
  messagesQueueAge: number | null;
  /** Reminders due and unsent, the same way. */
  remindersQueueAge: number | null;
  receiptsWaiting: number;
  receiptsFailed: number;
  replication?: Replication;
}

/** What the primary says of its standbys; absent where it cannot be read (PGlite, a role without pg_read_all_stats). */
export interface Replication {
  /** synchronous_standby_names as set ('' when none is required). */
  syncNames: string;
  standbys: Standby[];
}

export interface Standby {
  name: string;
  state: string;
  syncState: string;
  /** replay_lag in seconds (null when idle or unknown). */
  lagSeconds: number | null;
  /** Bytes of WAL sent but not yet replayed. */
  lagBytes: number | null;
}

/** Receipts still to be registered with myDATA: the job's own conditions (server/modules/aade/job.ts). */
const WAITING_RECEIPTS = sql`r.mark is null and r.status in ('ISSUED', 'CANCELLED') and s.mydata_enabled
  and r.created_at >= coalesce(s.mydata_since, '-infinity')`;

/** Messages the outbox job would send now (server/modules/messages/deliver.ts). */
const DUE_MESSAGES = sql`o.status = 'QUEUED' and o.sent_at is null and o.cancelled_at is null and o.deliver_after <= now()`;

const queues = (maxAttempts: number) => sql`
  (select extract(epoch from now() - min(coalesce(r.next_attempt_at, r.created_at)))::float8
     from receipts r join centre_settings s on s.tenant_id = r.tenant_id
     where ${WAITING_RECEIPTS} and (r.next_attempt_at is null or r.next_attempt_at <= now())) as aade_age,
  (select extract(epoch from now() - min(r.created_at))::float8
     from receipts r join centre_settings s on s.tenant_id = r.tenant_id where ${WAITING_RECEIPTS}) as aade_oldest,
  (select count(*)::int from receipts r join centre_settings s on s.tenant_id = r.tenant_id where ${WAITING_RECEIPTS}) as receipts_waiting,
  (select count(*)::int from receipts r where r.mark is null and r.status = 'FAILED') as receipts_failed,
  (select extract(epoch from now() - min(o.deliver_after))::float8 from outbox o
     where ${DUE_MESSAGES} and o.attempts < ${maxAttempts} and o.kind <> 'reminder') as messages_age,
  (select extract(epoch from now() - min(o.deliver_after))::float8 from outbox o
     where ${DUE_MESSAGES} and o.attempts < ${maxAttempts} and o.kind = 'reminder') as reminders_age`;

/**
 * The standbys as JSON, where this role may read them: pg_stat_replication shows other
 * sessions' state only to a superuser or a member of pg_read_all_stats; elsewhere null.
 */
const REPLICATION = sql`
  case when (select rolsuper from pg_roles where rolname = current_user) or pg_has_role('pg_read_all_stats', 'member')
    then json_build_object(
      'syncNames', current_setting('synchronous_standby_names'),
      'standbys', coalesce((select json_agg(json_build_object(
          'name', application_name, 'state', state, 'syncState', sync_state,
          'lagSeconds', extract(epoch from replay_lag)::float8,
          'lagBytes', pg_wal_lsn_diff(sent_lsn, replay_lsn)::float8)) from pg_stat_replication), '[]'::json))
  end as replication`;

interface Row {
  aade_age: number | null;
  aade_oldest: number | null;
  receipts_waiting: number;
  receipts_failed: number;
  messages_age: number | null;
  reminders_age: number | null;
  replication?: Replication | string | null;
}

const seconds = (v: unknown) => (v === null || v === undefined ? null : Math.max(0, Number(v)));

export async function readFigures(database: Database, maxAttempts: number): Promise<Figures> {
  const statement = database.kind === 'postgres' ? sql`select ${queues(maxAttempts)}, ${REPLICATION}` : sql`select ${queues(maxAttempts)}`;
  const [row] = await queryRows<Row>(platform(database), statement);
  const replication = typeof row?.replication === 'string' ? (JSON.parse(row.replication) as Replication) : (row?.replication ?? undefined);
  return {
    aadeQueueAge: seconds(row?.aade_age),
    aadeOldestWaiting: seconds(row?.aade_oldest),
    messagesQueueAge: seconds(row?.messages_age),
    remindersQueueAge: seconds(row?.reminders_age),
    receiptsWaiting: Number(row?.receipts_waiting ?? 0),
    receiptsFailed: Number(row?.receipts_failed ?? 0),
    ...(replication ? { replication } : {}),
  };
}

/** Why the service is degraded though it serves (`/healthz` still answers 200). */
export type DegradedReason = 'standby-missing' | 'aade-queue-stuck';

/**
 * The synchronous standby is missing when one is required (synchronous_standby_names set) and
 * none is streaming as `sync` or `quorum`: commits then wait, or (with pg_auto_failover having
 * turned it off) are acknowledged on one copy.
 */
export const standbyMissing = (replication: Replication | undefined): boolean =>
  !!replication &&
  replication.syncNames.trim() !== '' &&
  !replication.standbys.some((s) => s.state === 'streaming' && (s.syncState === 'sync' || s.syncState === 'quorum'));

export function degradedReasons(figures: Figures, aadeStuckMinutes: number): DegradedReason[] {
  const reasons: DegradedReason[] = [];
  if (standbyMissing(figures.replication)) reasons.push('standby-missing');
  if (figures.aadeOldestWaiting !== null && figures.aadeOldestWaiting > aadeStuckMinutes * 60) reasons.push('aade-queue-stuck');
  return reasons;
}
