/**
 * The job that delivers messages to families, by e-mail and SMS (server/modules/messages/deliver.ts):
 * every OUTBOX_SWEEP_SECONDS, and when the notification bus says a centre has news (an absence
 * notice is written beside its staff notification). One run at a time in a process; another
 * process runs its own, and the claims keep them from sending one message twice.
 */
import type { Config } from '../config';
import type { Database } from '../db/types';
import type { NotificationBus } from '../modules/notifications/bus';
import { createDeliverer, smsSettingsOf, type Deliverer } from '../modules/messages/deliver';

export interface OutboxJob {
  /** Sends what is due now (tests call it instead of waiting for the timer). */
  deliverDue: Deliverer['deliverDue'];
  close(): void;
}

export function startOutboxJob(database: Database, config: Config, bus: NotificationBus, log: { warn(obj: unknown, msg?: string): void }): OutboxJob | null {
  const deliverer = createDeliverer(
    database,
    { smtpUrl: config.smtpUrl, mailFrom: config.mailFrom, sms: smsSettingsOf(config), publicUrl: config.publicUrl, maxAttempts: config.outboxMaxAttempts },
    log,
  );
  if (!deliverer) return null;
  let running: Promise<unknown> | null = null;
  let again = false;
  const kick = () => {
    if (running) {
      again = true;
      return;
    }
    running = deliverer
      .deliverDue()
      .catch((error: unknown) => log.warn({ err: error }, 'outbox delivery failed'))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          kick();
        }
      });
  };
  const stopListening = bus.onAny(() => kick());
  const timer = setInterval(kick, config.outboxSweepSeconds * 1000).unref();
  return {
    deliverDue: (tenantId) => deliverer.deliverDue(tenantId),
    close() {
      stopListening();
      clearInterval(timer);
      deliverer.close();
    },
  };
}
