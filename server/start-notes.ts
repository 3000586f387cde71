/**
 * What a start without a setting leaves off, said at start (a warning in the log). Without SMTP_URL no e-mail
 * leaves: invitations to the families' portal, absence notices, reminders, notification
 * copies. There is no SMS channel yet, so SMS_URL is named only to say neither is set.
 */
import type { Config } from './config';

export type StartNote = 'no-mail';

export const startNotes = (config: Pick<Config, 'smtpUrl'>): StartNote[] => (config.smtpUrl ? [] : ['no-mail']);

export const NO_MAIL_WARNING =
  'No mail setting: SMTP_URL (and SMS_URL) unset, so no e-mail or SMS is sent: portal invitations, absence notices and reminders to families stay unsent. Set SMTP_URL to send them.';

/** The start's warnings, one line each. */
export const startWarnings = (config: Pick<Config, 'smtpUrl'>): string[] => startNotes(config).map(() => NO_MAIL_WARNING);
