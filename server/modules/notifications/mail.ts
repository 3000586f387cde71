/**
 * E-mail copies of notifications, when SMTP_URL is set, for users who chose them in My data
 * (and gave an address). A notification created for such a user carries `mail_pending`; every
 * process sends pending ones when woken (LISTEN/NOTIFY) and once a minute (what a failure or
 * a restart left), claiming them with FOR UPDATE SKIP LOCKED, so each is sent by one process
 * once. A failed send is put back for the next sweep. The text is in the centre's language.
 */
import { eq, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Config } from '../../config';
import type { Database } from '../../db/types';
import { platform, withTenant } from '../../db/doors';
import { queryRows } from '../../db/statements';
import { tenants } from '../../db/schema/index';
import type { NotificationParams } from '../../../domain/index';
import type { NotificationBus } from './bus';
import { mailParts } from './letter';
import { asLanguage, emailFooter, renderNotification } from './text';

const SWEEP_MS = 60_000;
const BATCH = 50;

interface Pending {
  id: number;
  kind: string;
  params: NotificationParams;
  link: string;
  email: string;
}

export interface Mailer {
  /** Sends what is pending for one centre (all centres without one); answers how many were sent. */
  sendPending(tenantId?: number): Promise<number>;
  close(): void;
}

export function startMailer(database: Database, config: Config, bus: NotificationBus, log: { warn(obj: unknown, msg?: string): void }): Mailer | null {
  if (!config.smtpUrl) return null;
  const transport = nodemailer.createTransport(config.smtpUrl);

  async function sendFor(tenantId: number): Promise<number> {
    const [centre] = await platform(database).select({ slug: tenants.slug, language: tenants.language }).from(tenants).where(eq(tenants.id, tenantId));
    if (!centre) return 0;
    const language = asLanguage(centre.language);
    let sent = 0;
    for (;;) {
      const batch = await withTenant(database, tenantId, (tx) =>
        queryRows<Pending>(
          tx,
          sql`update notifications n set mail_pending = false
              from (select id from notifications where tenant_id = ${tenantId} and mail_pending order by id limit ${BATCH} for update skip locked) c,
                   users u
              where n.tenant_id = ${tenantId} and n.id = c.id and u.tenant_id = n.tenant_id and u.id = n.user_id
              returning n.id, n.kind, n.params, n.link, u.email`,
        ),
      );
      if (!batch.length) return sent;
      for (const item of batch) {
        const { title, body } = renderNotification(item.kind, item.params, language);
        const url = config.publicUrl ? `${config.publicUrl.replace('{tenant}', centre.slug).replace(/\/+$/, '')}${item.link}` : undefined;
        try {
          await transport.sendMail({
            from: config.mailFrom,
            to: item.email,
            subject: title,
            ...mailParts(title, url ? `${body}\n\n${emailFooter(language, url)}\n` : `${body}\n`, language),
          });
          sent++;
        } catch (error) {
          log.warn({ err: error }, 'notification e-mail not sent; retried at the next sweep');
          await withTenant(database, tenantId, (tx) =>
            tx.execute(sql`update notifications set mail_pending = true where tenant_id = ${tenantId} and id = ${item.id}`),
          );
        }
      }
      if (batch.length < BATCH) return sent;
    }
  }

  async function sendPending(tenantId?: number): Promise<number> {
    if (tenantId !== undefined) return sendFor(tenantId);
    let sent = 0;
    for (const { id } of await platform(database).select({ id: tenants.id }).from(tenants)) sent += await sendFor(id);
    return sent;
  }

  // One run at a time per centre in this process; a wake during a run asks for one more.
  const running = new Map<number, Promise<unknown>>();
  const again = new Set<number>();
  const kick = (tenantId: number) => {
    if (running.has(tenantId)) {
      again.add(tenantId);
      return;
    }
    const run = sendFor(tenantId)
      .catch((error: unknown) => log.warn({ err: error }, 'notification e-mails failed'))
      .finally(() => {
        running.delete(tenantId);
        if (again.delete(tenantId)) kick(tenantId);
      });
    running.set(tenantId, run);
  };
  const stopListening = bus.onAny(kick);
  const sweep = setInterval(() => {
    sendPending().catch((error: unknown) => log.warn({ err: error }, 'notification e-mail sweep failed'));
  }, SWEEP_MS).unref();

  return {
    sendPending,
    close() {
      stopListening();
      clearInterval(sweep);
      transport.close();
    },
  };
}
