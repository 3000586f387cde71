/**
 * Delivering the outbox of messages to families by e-mail (SMTP_URL, as the notifications'
 * copies). A message is claimed in a short transaction (FOR UPDATE SKIP LOCKED, its attempt
 * counted and its deliver_after moved past the time a send may take), sent outside any
 * transaction, then marked sent; so two processes never claim one row, and one that dies mid
 * send leaves the row to be tried again after the claim lapses. A failed send waits longer
 * each time (doubling, capped); after the last attempt the row stays unsent with its error,
 * and the centre's ADMIN accounts are told in the app.
 */
import { eq, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Database } from '../../db/types';
import { platform, withTenant } from '../../db/doors';
import { queryRows } from '../../db/statements';
import { tenants } from '../../db/schema/index';
import { notify } from '../notifications/create';
import { mailParts } from '../notifications/letter';

/** How long a claimed message is kept from other processes while it is being sent. */
const CLAIM_SECONDS = 120;
/** The first retry's delay; each further one doubles, up to the cap. */
const RETRY_BASE_SECONDS = 30;
const RETRY_CAP_SECONDS = 3600;
const BATCH = 20;

export interface OutboxOptions {
  smtpUrl?: string;
  mailFrom: string;
  /** Attempts before a message is given up. */
  maxAttempts: number;
}

/** The delay before attempt `attempts + 1`. */
export const retryDelaySeconds = (attempts: number) => Math.min(RETRY_CAP_SECONDS, RETRY_BASE_SECONDS * 2 ** Math.max(0, attempts - 1));

interface Claimed {
  id: number;
  recipient: string;
  subject: string;
  body: string;
  attempts: number;
}

export interface Delivery {
  sent: number;
  failed: number;
}

export interface Deliverer {
  /** Sends every due message of one centre (of all centres without one). */
  deliverDue(tenantId?: number): Promise<Delivery>;
  close(): void;
}

/**
 * An absence message's absence still stands: its mark is ABSENT on a lesson not cancelled (a
 * deleted lesson takes its marks with it). Checked by the claim itself, so a message is never
 * taken for sending after its absence went away.
 */
const ABSENCE_STANDS = sql`exists (select 1 from attendance a
  join lessons l on l.tenant_id = a.tenant_id and l.id = a.lesson_id
  where a.tenant_id = outbox.tenant_id and a.lesson_id = (outbox.params->>'lesson_id')::int
    and a.student_id = (outbox.params->>'student_id')::int
    and a.status = 'ABSENT' and l.status <> 'CANCELED')`;

export function createDeliverer(database: Database, options: OutboxOptions, log?: { warn(obj: unknown, msg?: string): void }): Deliverer | null {
  if (!options.smtpUrl) return null;
  const transport: Transporter = nodemailer.createTransport(options.smtpUrl);

  async function claim(tenantId: number): Promise<Claimed[]> {
    return withTenant(database, tenantId, async (tx) => {
      // An absence is told only while it is still one: a notice whose mark went away in its
      // grace period by another road than undoing it (the lesson deleted, taking its marks,
      // or cancelled) is cancelled here rather than sent.
      await tx.execute(
        sql`update outbox set cancelled_at = now()
            where tenant_id = ${tenantId} and kind = 'absence' and sent_at is null and cancelled_at is null
              and deliver_after <= now() and not ${ABSENCE_STANDS}`,
      );
      return queryRows<Claimed>(
        tx,
        sql`update outbox o set attempts = o.attempts + 1, deliver_after = now() + make_interval(secs => ${CLAIM_SECONDS})
            from (select id from outbox
                  where tenant_id = ${tenantId} and sent_at is null and cancelled_at is null
                    and deliver_after <= now() and attempts < ${options.maxAttempts}
                    and (kind <> 'absence' or ${ABSENCE_STANDS})
                  order by deliver_after, id limit ${BATCH} for update skip locked) c
            where o.tenant_id = ${tenantId} and o.id = c.id
            returning o.id, o.recipient, o.subject, o.body, o.attempts`,
      );
    });
  }

  async function deliverFor(tenantId: number): Promise<Delivery> {
    const total: Delivery = { sent: 0, failed: 0 };
    for (;;) {
      const batch = await claim(tenantId);
      for (const message of batch) {
        try {
          await transport.sendMail({ from: options.mailFrom, to: message.recipient, subject: message.subject, ...mailParts(message.subject, message.body) });
          await withTenant(database, tenantId, (tx) =>
            tx.execute(sql`update outbox set sent_at = now(), last_error = null where tenant_id = ${tenantId} and id = ${message.id}`),
          );
          total.sent++;
        } catch (error) {
          total.failed++;
          const reason = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
          log?.warn({ err: error, outbox: message.id }, 'message to a family not sent');
          const givenUp = message.attempts >= options.maxAttempts;
          await withTenant(database, tenantId, async (tx) => {
            await tx.execute(
              sql`update outbox set last_error = ${reason},
                    deliver_after = now() + make_interval(secs => ${retryDelaySeconds(message.attempts)})
                  where tenant_id = ${tenantId} and id = ${message.id}`,
            );
            if (givenUp) {
              await notify(tx, tenantId, [
                {
                  kind: 'outbox-failed',
                  params: { recipient: message.recipient, subject: message.subject, error: reason.slice(0, 200) },
                  link: '/notifications/',
                  recipients: sql`select id from users where tenant_id = ${tenantId} and status = 'ACTIVE' and role = 'ADMIN'`,
                  dedupeKey: `outbox-failed:${message.id}`,
                },
              ]);
            }
          });
        }
      }
      if (batch.length < BATCH) return total;
    }
  }

  async function deliverDue(tenantId?: number): Promise<Delivery> {
    if (tenantId !== undefined) return deliverFor(tenantId);
    const total: Delivery = { sent: 0, failed: 0 };
    const centres = await platform(database).select({ id: tenants.id }).from(tenants).where(eq(tenants.status, 'ACTIVE'));
    for (const { id } of centres) {
      const one = await deliverFor(id);
      total.sent += one.sent;
      total.failed += one.failed;
    }
    return total;
  }

  return { deliverDue, close: () => transport.close() };
}
