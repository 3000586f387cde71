/**
 * Writing a message to a family into the outbox, inside the transaction of the fact that
 * causes it (a mark, a due month, an invitation), so the message exists exactly when the fact
 * does. Delivery is a job's work (it claims due rows and sends them); here nothing is sent.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/types';
import { queryRows } from '../../db/statements';

export interface OutboxMessage {
  tenantId: number;
  /** What it is: `absence`, `reminder`, `invitation`. */
  kind: string;
  /** Once per key: a second enqueue of the same key (another process, a retry) adds nothing. */
  dedupeKey: string;
  /** E-mail address. */
  recipient: string;
  guardianId?: number | null;
  subject: string;
  body: string;
  params?: Record<string, unknown>;
  /** Not delivered before this instant (a grace period); now by default. */
  deliverAfter?: Date;
}

/** Adds the message unless its key is already there; answers whether it was added. */
export async function enqueueMessage(tx: Tx, message: OutboxMessage): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`
    insert into outbox (tenant_id, kind, dedupe_key, recipient, guardian_id, subject, body, params, deliver_after)
    values (${message.tenantId}, ${message.kind}, ${message.dedupeKey}, ${message.recipient}, ${message.guardianId ?? null},
            ${message.subject}, ${message.body}, ${JSON.stringify(message.params ?? {})}::jsonb, ${(message.deliverAfter ?? new Date()).toISOString()}::timestamptz)
    on conflict (tenant_id, dedupe_key) do nothing
    returning id`,
  );
  return rows.length > 0;
}
