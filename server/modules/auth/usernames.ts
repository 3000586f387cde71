/**
 * Usernames that look alike are one name: a Cyrillic `аdmin` beside `admin` would let
 * someone pass for another user in every list, history entry and sign-in. Names are compared
 * by Unicode TR39's skeleton (NFD, each character replaced by its prototype in Unicode's
 * confusables.txt, NFD again), in lower and in upper case (usernames are case-insensitive). The table is the unhomoglyph package's (generated from
 * confusables.txt by its authors), kept on the server: the client never needs it.
 */
import { and, eq, ne, type SQL } from 'drizzle-orm';
import unhomoglyph from 'unhomoglyph';
import { DomainError } from '../../../domain/index';
import type { Tx } from '../../db/types';
import { users } from '../../db/schema/index';

/** TR39's skeleton of one string. */
const skeleton = (value: string) => unhomoglyph(value.normalize('NFKC').normalize('NFD')).normalize('NFD');

/**
 * A username's skeletons in lower and in upper case: the confusables table is case-sensitive
 * (Greek `Μ` is Latin `M`, but `μ` is no `m`), so two names look alike when either agrees.
 */
export function usernameSkeletons(username: string): readonly [string, string] {
  return [skeleton(username.toLowerCase()), skeleton(username.toUpperCase())];
}

export function looksAlike(a: string, b: string): boolean {
  const [al, au] = usernameSkeletons(a);
  const [bl, bu] = usernameSkeletons(b);
  return al === bl || au === bu;
}

/**
 * Refuses (409 conflict, username taken) a username that looks like another of the centre's.
 * A centre has hundreds of accounts at most, so they are compared here rather than through a
 * stored column (which would need a migration and a backfill).
 */
export async function refuseLookAlikeUsername(tx: Tx, tenantId: number, username: string, exceptUserId?: number): Promise<void> {
  const conditions: SQL[] = [eq(users.tenantId, tenantId)];
  if (exceptUserId) conditions.push(ne(users.id, exceptUserId));
  const others = await tx
    .select({ username: users.username })
    .from(users)
    .where(and(...conditions));
  if (others.some((o) => looksAlike(o.username, username))) {
    throw new DomainError(
      'conflict',
      'This username is taken, or looks like one that is.',
      { username: 'taken' },
      { details: { reason: 'taken', field: 'username' } },
    );
  }
}
