/**
 * The centre's settings row: created with its defaults on first read, answered without the
 * subscription key (only whether one is set), which is decrypted solely for myDATA.
 */
import { eq, sql } from 'drizzle-orm';
import type { SettingsAnswer } from '../../../domain/answers/settings';
import type { Tx } from '../../db/types';
import { queryRows } from '../../db/statements';
import { centreSettings } from '../../db/schema/index';

export type SettingsRow = typeof centreSettings.$inferSelect;

/** The row of the centre, created with its defaults the first time it is asked for. */
export async function loadSettings(tx: Tx, tenantId: number, lock = false): Promise<SettingsRow> {
  const read = async () => {
    const query = tx.select().from(centreSettings).where(eq(centreSettings.tenantId, tenantId));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  };
  const found = await read();
  if (found) return found;
  await tx.insert(centreSettings).values({ tenantId }).onConflictDoNothing();
  const row = await read();
  if (!row) throw new Error(`settings of tenant ${tenantId} missing after insert`);
  return row;
}

/** How many of the centre's receipts have no MARK yet and were not refused by AADE. */
export async function unsentReceipts(tx: Tx, tenantId: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from receipts where tenant_id = ${tenantId} and mark is null and status in ('ISSUED', 'CANCELLED')`,
  );
  return Number(row?.n ?? 0);
}

/** The answer of the settings; `unsent` from unsentReceipts(). */
export function answerOf(row: SettingsRow, unsent: number): SettingsAnswer {
  return {
    legal_name: row.legalName,
    tax_id: row.taxId,
    tax_office: row.taxOffice,
    address: row.address,
    city: row.city,
    postal_code: row.postalCode,
    phone: row.phone,
    email: row.email,
    receipt_series: row.receiptSeries,
    mydata_enabled: row.mydataEnabled,
    mydata_user_id: row.mydataUserId,
    mydata_subscription_key_set: Boolean(row.mydataSubscriptionKey),
    mydata_since: row.mydataSince?.toISOString() ?? null,
    mydata_unsent: unsent,
    reminder_day: row.reminderDay,
    reminder_repeat_days: row.reminderRepeatDays,
    sms_sender: row.smsSender,
    version: row.version,
    updated_at: row.updatedAt.toISOString(),
  };
}
