/**
 * Delivering messages to families: e-mail through SMTP_URL, SMS through the Messages API at
 * SMS_URL (sms.ts). A message is claimed in a short transaction (FOR UPDATE SKIP LOCKED, its
 * attempt counted, `claimed_at` set and its deliver_after moved past the time a send may take),
 * sent outside any transaction, then marked SENT; so two processes never claim one row.
 *
 * A process that dies mid-send leaves its claim to lapse. An e-mail whose claim lapsed is tried
 * again (a second copy of an e-mail costs nothing). An SMS whose claim lapsed with no outcome
 * recorded may have left, so it is not sent again: it is marked FAILED ("may have been sent")
 * and the centre's ADMIN accounts are told. Likewise an SMS whose request went but got no
 * answer. An SMS the provider refused with a final answer (4xx) fails at once; a refusal worth
 * another try (429, 5xx) or a provider not reached waits longer each time (doubling, capped),
 * as does a failed e-mail; after the last attempt the row is FAILED with its error.
 *
 * A channel without its setting sends nothing: its rows stay QUEUED, shown in the log as not
 * configured (what would be sent).
 */
import { eq, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import { platform, withTenant } from '../../db/doors';
import { queryRows } from '../../db/statements';
import type { Database, Tx } from '../../db/types';
import { tenants } from '../../db/schema/index';
import { notify } from '../notifications/create';
import { mailParts } from '../notifications/letter';
import { senderOf, sendSms, SmsError, type SmsSettings } from './sms';

/** How long a claimed message is kept from other processes while it is being sent. */
const CLAIM_SECONDS = 120;
/** The first retry's delay; each further one doubles, up to the cap. */
const RETRY_BASE_SECONDS = 30;
const RETRY_CAP_SECONDS = 3600;
const BATCH = 20;

/** The error of an SMS whose outcome is unknown: never sent again. */
export const MAYBE_SENT = 'May have been sent (no answer came back): not sent again';

export interface OutboxOptions {
  smtpUrl?: string;
  mailFrom: string;
  sms?: SmsSettings;
  /** The centres' address with `{tenant}` (PUBLIC_URL): delivery reports come back to it. */
  publicUrl?: string;
  /** Attempts before a message is given up. */
  maxAttempts: number;
}

/** The delay before attempt `attempts + 1`. */
export const retryDelaySeconds = (attempts: number) => Math.min(RETRY_CAP_SECONDS, RETRY_BASE_SECONDS * 2 ** Math.max(0, attempts - 1));

/** The SMS settings of a configuration, when all three are set. */
export const smsSettingsOf = (config: { smsUrl?: string; smsAccount?: string; smsToken?: string }): SmsSettings | undefined =>
  config.smsUrl && config.smsAccount && config.smsToken ? { url: config.smsUrl, account: config.smsAccount, token: config.smsToken } : undefined;

/** Where a centre's delivery reports come back (its own host). */
export const reportUrlOf = (publicUrl: string, slug: string) => `${publicUrl.replace('{tenant}', slug).replace(/\/+$/, '')}/api/messages/sms-status/${slug}`;

interface Claimed {
  id: number;
  channel: 'EMAIL' | 'SMS';
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

/** Tells the centre's ADMIN accounts that a message was given up. */
async function tellAdmins(tx: Tx, tenantId: number, message: { id: number; recipient: string; subject: string }, reason: string) {
  await notify(tx, tenantId, [
    {
      kind: 'outbox-failed',
      params: { recipient: message.recipient, subject: message.subject, error: reason.slice(0, 200) },
      link: '/messages/',
      recipients: sql`select id from users where tenant_id = ${tenantId} and status = 'ACTIVE' and role = 'ADMIN'`,
      dedupeKey: `outbox-failed:${message.id}`,
    },
  ]);
}

export function createDeliverer(database: Database, options: OutboxOptions, log?: { warn(obj: unknown, msg?: string): void }): Deliverer | null {
  const channels = [...(options.smtpUrl ? ['EMAIL'] : []), ...(options.sms ? ['SMS'] : [])];
  if (!channels.length) return null;
  const transport: Transporter | null = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;
  const channelList = sql.join(
    channels.map((c) => sql`${c}`),
    sql`, `,
  );

  async function claim(tenantId: number): Promise<Claimed[]> {
    return withTenant(database, tenantId, async (tx) => {
      // An absence is told only while it is still one: a notice whose mark went away in its
      // grace period by another road than undoing it (the lesson deleted, taking its marks,
      // or cancelled) is cancelled here rather than sent.
      await tx.execute(
        sql`update outbox set cancelled_at = now()
            where tenant_id = ${tenantId} and kind = 'absence' and status = 'QUEUED' and sent_at is null and cancelled_at is null
              and claimed_at is null and deliver_after <= now() and not ${ABSENCE_STANDS}`,
      );
      // An SMS claimed by a process that never said how its send went may have left: not again.
      const lapsed = await queryRows<{ id: number; recipient: string; subject: string }>(
        tx,
        sql`update outbox set status = 'FAILED', failed_at = now(), claimed_at = null, last_error = ${MAYBE_SENT}
            where tenant_id = ${tenantId} and channel = 'SMS' and status = 'QUEUED' and claimed_at is not null and deliver_after <= now()
            returning id, recipient, subject`,
      );
      for (const message of lapsed) await tellAdmins(tx, tenantId, message, MAYBE_SENT);
      return queryRows<Claimed>(
        tx,
        sql`update outbox o set attempts = o.attempts + 1, claimed_at = now(), deliver_after = now() + make_interval(secs => ${CLAIM_SECONDS})
            from (select id from outbox
                  where tenant_id = ${tenantId} and status = 'QUEUED' and sent_at is null and cancelled_at is null
                    and channel in (${channelList}) and deliver_after <= now() and attempts < ${options.maxAttempts}
                    and (kind <> 'absence' or ${ABSENCE_STANDS})
                  order by deliver_after, id limit ${BATCH} for update skip locked) c
            where o.tenant_id = ${tenantId} and o.id = c.id
            returning o.id, o.channel, o.recipient, o.subject, o.body, o.attempts`,
      );
    });
  }

  /** The centre's SMS sender name and delivery-report address. */
  async function smsSenderOf(tenantId: number) {
    const [centre] = await withTenant(database, tenantId, (tx) =>
      queryRows<{ name: string; slug: string; sms_sender: string | null }>(
        tx,
        sql`select t.name, t.slug, s.sms_sender from tenants t left join centre_settings s on s.tenant_id = t.id where t.id = ${tenantId}`,
      ),
    );
    return {
      from: senderOf(centre?.sms_sender, centre?.name ?? ''),
      statusCallback: options.publicUrl && centre ? reportUrlOf(options.publicUrl, centre.slug) : undefined,
    };
  }

  async function send(message: Claimed, sender: () => Promise<{ from: string; statusCallback?: string }>): Promise<string | null> {
    if (message.channel === 'EMAIL') {
      await transport!.sendMail({ from: options.mailFrom, to: message.recipient, subject: message.subject, ...mailParts(message.subject, message.body) });
      return null;
    }
    const { from, statusCallback } = await sender();
    return (await sendSms(options.sms!, { to: message.recipient, from, body: message.body, statusCallback })).id;
  }

  async function deliverFor(tenantId: number): Promise<Delivery> {
    const total: Delivery = { sent: 0, failed: 0 };
    let sender: Promise<{ from: string; statusCallback?: string }> | undefined;
    const senderOnce = () => (sender ??= smsSenderOf(tenantId));
    for (;;) {
      const batch = await claim(tenantId);
      for (const message of batch) {
        try {
          const providerId = await send(message, senderOnce);
          await withTenant(database, tenantId, (tx) =>
            tx.execute(sql`update outbox set status = 'SENT', sent_at = now(), claimed_at = null, last_error = null, provider_id = ${providerId}
                where tenant_id = ${tenantId} and id = ${message.id}`),
          );
          total.sent++;
        } catch (error) {
          total.failed++;
          const reason = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
          log?.warn({ err: error, outbox: message.id }, 'message to a family not sent');
          const final = error instanceof SmsError && !error.retry;
          const givenUp = final || message.attempts >= options.maxAttempts;
          const shown = error instanceof SmsError && error.outcome === 'unknown' ? `${MAYBE_SENT}: ${reason}` : reason;
          await withTenant(database, tenantId, async (tx) => {
            await tx.execute(
              givenUp
                ? sql`update outbox set status = 'FAILED', failed_at = now(), claimed_at = null, last_error = ${shown}
                      where tenant_id = ${tenantId} and id = ${message.id}`
                : sql`update outbox set last_error = ${shown}, claimed_at = null,
                        deliver_after = now() + make_interval(secs => ${retryDelaySeconds(message.attempts)})
                      where tenant_id = ${tenantId} and id = ${message.id}`,
            );
            if (givenUp) await tellAdmins(tx, tenantId, message, shown);
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

  return { deliverDue, close: () => transport?.close() };
}
