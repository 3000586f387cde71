/**
 * How a notice reaches a guardian (docs/rules.md, Messages to families): by e-mail, by SMS to a
 * mobile, or both, as her `notify_by` says; by default e-mail where an address is known, else
 * SMS. A guardian whose channel has no address (EMAIL without an e-mail, SMS without a mobile,
 * BOTH with neither) can't be reached, and her screen and lists say so.
 */
import type { NotifyBy } from './enums';

/**
 * A phone number as E.164, or null when it is no mobile an SMS can reach: Greek mobiles
 * (69xxxxxxxx, with or without +30/0030, spaces, dots or dashes) become +3069xxxxxxxx; a foreign
 * number in international form (+ or 00) is kept; Greek landlines are not mobiles.
 */
export function mobileE164(phone: string | null | undefined): string | null {
  if (!phone) return null;
  const digits = phone.trim().replace(/[\s().-]/g, '');
  const international = digits.startsWith('+') ? digits.slice(1) : digits.startsWith('00') ? digits.slice(2) : null;
  if (international !== null) {
    if (!/^[1-9]\d{7,14}$/.test(international)) return null;
    if (international.startsWith('30')) return /^3069\d{8}$/.test(international) ? `+${international}` : null;
    return `+${international}`;
  }
  return /^69\d{8}$/.test(digits) ? `+30${digits}` : null;
}

const hasEmail = (email: string | null | undefined) => Boolean(email?.trim());

/** A new guardian's channel: e-mail where an address is known, else SMS (to a mobile, when one comes). */
export const defaultNotifyBy = (email: string | null | undefined): NotifyBy => (hasEmail(email) ? 'EMAIL' : 'SMS');

/** Where her notices go: the e-mail address and the mobile her channel uses and she has. */
export function addressesOf(g: { notify_by: NotifyBy | string; email?: string | null; phone?: string | null }): {
  email: string | null;
  mobile: string | null;
} {
  const email = g.notify_by !== 'SMS' && hasEmail(g.email) ? g.email!.trim() : null;
  const mobile = g.notify_by !== 'EMAIL' ? mobileE164(g.phone) : null;
  return { email, mobile };
}

/** Whether no notice can reach her (her channel has no address). */
export function unreachable(g: { notify_by: NotifyBy | string; email?: string | null; phone?: string | null }): boolean {
  const { email, mobile } = addressesOf(g);
  return !email && !mobile;
}
