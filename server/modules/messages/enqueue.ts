/**
 * Writing a message to a family, inside the transaction of the fact that causes it (a mark, a
 * due month, an invitation), so the message exists exactly when the fact does. A message to a
 * guardian goes by her `notify_by`: one row per channel she can be reached by (e-mail to her
 * address, SMS to her mobile); an invitation goes to an e-mail address only. Delivery is a
 * job's work (deliver.ts); here nothing is sent.
 */
import { sql } from 'drizzle-orm';
import { addressesOf } from '../../../domain/reach';
import { queryRows } from '../../db/statements';
import type { Tx } from '../../db/types';
import { fitSms } from './segments';

/** A notice by SMS takes at most this many segments (a link carries the rest). */
export const NOTICE_SEGMENTS = 2;

export interface OutboxMessage {
  tenantId: number;
  /** What it is: `absence`, `reminder`, `invitation`. */
  kind: string;
  /** Once per key: a second enqueue of the same key (another process, a retry) adds nothing. The SMS row's key adds `:sms`. */
  dedupeKey: string;
  /** An e-mail address for a message that goes by e-mail only (an invitation); without it, the guardian's channels. */
  recipient?: string;
  guardianId?: number | null;
  subject: string;
  body: string;
  /** The SMS text (the subject when not given), cut to NOTICE_SEGMENTS with `link` kept at its end. */
  sms?: string;
  /** Where the whole message is read (the portal), carried by an SMS cut short. */
  link?: string;
  params?: Record<string, unknown>;
  /** Not delivered before this instant; now by default. */
  deliverAfter?: Date;
  /** Or not before this many seconds from the database's now (a grace period). */
  delaySeconds?: number;
}

/** One row to write: the channel, its address and its text. */
interface Route {
  channel: 'EMAIL' | 'SMS';
  recipient: string;
  key: string;
  body: string;
}

const dueOf = (message: OutboxMessage) =>
  message.deliverAfter ? sql`${message.deliverAfter.toISOString()}::timestamptz` : sql`now() + make_interval(secs => ${message.delaySeconds ?? 0})`;

/** The SMS row's key beside the e-mail's. */
export const smsKey = (dedupeKey: string) => `${dedupeKey}:sms`;

/** The rows a message becomes: one per channel of its guardian's that has an address. */
export async function routesOf(tx: Tx, message: OutboxMessage): Promise<Route[]> {
  if (message.recipient !== undefined || !message.guardianId)
    return message.recipient ? [{ channel: 'EMAIL', recipient: message.recipient, key: message.dedupeKey, body: message.body }] : [];
  const [guardian] = await queryRows<{ notify_by: string; email: string | null; phone: string | null }>(
    tx,
    sql`select notify_by, email, phone from guardians where tenant_id = ${message.tenantId} and id = ${message.guardianId}`,
  );
  if (!guardian) return [];
  const { email, mobile } = addressesOf(guardian);
  const routes: Route[] = [];
  if (email) routes.push({ channel: 'EMAIL', recipient: email, key: message.dedupeKey, body: message.body });
  if (mobile)
    routes.push({
      channel: 'SMS',
      recipient: mobile,
      key: smsKey(message.dedupeKey),
      body: fitSms(message.sms ?? message.subject, NOTICE_SEGMENTS, message.link),
    });
  return routes;
}

/** Adds the message's rows unless their keys are already there; answers whether any was added. */
export async function enqueueMessage(tx: Tx, message: OutboxMessage): Promise<boolean> {
  let added = false;
  for (const route of await routesOf(tx, message)) {
    const rows = await queryRows<{ id: number }>(
      tx,
      sql`
      insert into outbox (tenant_id, kind, dedupe_key, channel, recipient, guardian_id, subject, body, params, deliver_after)
      values (${message.tenantId}, ${message.kind}, ${route.key}, ${route.channel}, ${route.recipient}, ${message.guardianId ?? null},
              ${message.subject}, ${route.body}, ${JSON.stringify(message.params ?? {})}::jsonb, ${dueOf(message)})
      on conflict (tenant_id, dedupe_key) do nothing
      returning id`,
    );
    added ||= rows.length > 0;
  }
  return added;
}

/**
 * Writes the message's rows, or arms again those of its keys not yet sent (cancelled, or
 * waiting): an absence marked again after being undone. A row already sent stays as it was.
 * Answers how many channels the message goes by.
 */
export async function armMessage(tx: Tx, message: OutboxMessage): Promise<number> {
  const routes = await routesOf(tx, message);
  for (const route of routes) {
    await tx.execute(
      sql`
      insert into outbox (tenant_id, kind, dedupe_key, channel, recipient, guardian_id, subject, body, params, deliver_after)
      values (${message.tenantId}, ${message.kind}, ${route.key}, ${route.channel}, ${route.recipient}, ${message.guardianId ?? null},
              ${message.subject}, ${route.body}, ${JSON.stringify(message.params ?? {})}::jsonb, ${dueOf(message)})
      on conflict (tenant_id, dedupe_key) do update
        set cancelled_at = null, deliver_after = excluded.deliver_after, recipient = excluded.recipient,
            subject = excluded.subject, body = excluded.body, params = excluded.params
        where outbox.sent_at is null and outbox.claimed_at is null and outbox.status = 'QUEUED'`,
    );
  }
  return routes.length;
}
