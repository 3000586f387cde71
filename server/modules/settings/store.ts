/**
 * The centre's settings row: created with its defaults on first read, answered without the
 * subscription key (only whether one is set), which is decrypted solely for myDATA.
 */
import { eq } from 'drizzle-orm';
import type { SettingsAnswer } from '../../../domain/answers/settings';
import type { Tx } from '../../db/client';
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

export function answerOf(row: SettingsRow): SettingsAnswer {
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
    reminder_day: row.reminderDay,
    reminder_repeat_days: row.reminderRepeatDays,
    version: row.version,
    updated_at: row.updatedAt.toISOString(),
  };
}
