/**
 * What a start without a setting leaves off, said at start (a warning in the log). Messages to
 * families go by e-mail (SMTP_URL) and SMS (SMS_URL with SMS_ACCOUNT and SMS_TOKEN): with
 * neither set nothing leaves (portal invitations, absence notices, reminders, notification
 * copies); with one set, what goes by the other stays in the message log, not sent.
 */
import type { Config } from './config';

export type StartNote = 'no-channel' | 'no-mail' | 'no-sms';

type ChannelSettings = Pick<Config, 'smtpUrl' | 'smsUrl' | 'smsAccount' | 'smsToken'>;

const hasSms = (config: ChannelSettings) => Boolean(config.smsUrl && config.smsAccount && config.smsToken);

export function startNotes(config: ChannelSettings): StartNote[] {
  if (!config.smtpUrl && !hasSms(config)) return ['no-channel'];
  if (!config.smtpUrl) return ['no-mail'];
  return hasSms(config) ? [] : ['no-sms'];
}

export const START_WARNINGS: Record<StartNote, string> = {
  'no-channel':
    'No channel to families: neither SMTP_URL nor SMS_URL (with SMS_ACCOUNT and SMS_TOKEN) is set, so no e-mail or SMS is sent: portal invitations, absence notices and reminders stay in the message log, unsent. Set either to send them.',
  'no-mail': 'No mail setting: SMTP_URL unset, so no e-mail is sent: portal invitations and e-mail notices stay in the message log, unsent.',
  'no-sms': 'No SMS setting: SMS_URL, SMS_ACCOUNT or SMS_TOKEN unset, so SMS to families stay in the message log (what would be sent), unsent.',
};

/** The start's warnings, one line each. */
export const startWarnings = (config: ChannelSettings): string[] => startNotes(config).map((note) => START_WARNINGS[note]);
