/**
 * A staff username may not be a guardian's e-mail address: that address is (or will be, once
 * she is invited) her username in the families' portal, and a staff account holding it would
 * lock her out. Compared as usernames are (case and look-alike letters aside), against every
 * guardian of the centre, invited or not (a change of a staff username is rare; a centre's
 * guardians are thousands at most).
 */
import { sql } from 'drizzle-orm';
import { DomainError } from '../../../domain/index';
import type { Tx } from '../../db/types';
import { queryRows } from '../../db/statements';
import { looksAlike } from '../auth/usernames';

export async function refuseGuardianEmail(tx: Tx, tenantId: number, username: string): Promise<void> {
  const name = username.trim().toLowerCase();
  // Only a name with an @ can be an address.
  if (!name.includes('@')) return;
  const rows = await queryRows<{ email: string }>(
    tx,
    sql`select lower(trim(email)) as email from guardians where tenant_id = ${tenantId} and coalesce(trim(email), '') <> ''`,
  );
  if (!rows.some((r) => r.email === name || looksAlike(r.email, name))) return;
  throw new DomainError(
    'conflict',
    "This username is a guardian's e-mail address, her username in the families' portal.",
    { username: 'guardian-email' },
    { details: { reason: 'username-guardian-email', field: 'username' } },
  );
}
