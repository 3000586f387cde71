/**
 * The answer of GET/PATCH /api/settings: the centre's issuer details, its myDATA switch and
 * user, its reminders' schedule. The subscription key is never answered, only whether it is set.
 */
export interface SettingsAnswer {
  legal_name: string | null;
  tax_id: string | null;
  tax_office: string | null;
  address: string | null;
  city: string | null;
  postal_code: string | null;
  phone: string | null;
  email: string | null;
  receipt_series: string;
  mydata_enabled: boolean;
  mydata_user_id: string | null;
  mydata_subscription_key_set: boolean;
  /** Receipts issued before this instant are not sent to myDATA (null: every receipt is). */
  mydata_since: string | null;
  /** Receipts not yet registered with myDATA and not refused (sent, or to be sent, while it is on). */
  mydata_unsent: number;
  reminder_day: number;
  reminder_repeat_days: number;
  /** The name the centre's SMS come from (null: its name in Latin letters, cut to 11). */
  sms_sender: string | null;
  version: number;
  updated_at: string;
}
