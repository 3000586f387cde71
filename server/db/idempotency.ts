/**
 * Exactly once (docs/rules.md, "Exactly once"): a write sent with an Idempotency-Key reserves
 * the key inside its own transaction, through the door it opens (withTenant, withFamily in
 * doors.ts), so a write that committed has its key and one that rolled back has none. The request's key travels to the door in an AsyncLocalStorage set around the
 * handler (plugins/idempotency.ts), which fills in the answer when it is known.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'drizzle-orm';
import { DomainError } from '../../domain/index';
import { queryRows } from './statements';
import type { Tx } from './types';

/** The key of one request, as the doors see it. */
export interface KeyedRequest {
  tenantId: number;
  actor: string;
  key: string;
  requestHash: string;
  /** A door is reserving the key now (a second door of the same request leaves it alone). */
  reserving: boolean;
  /** The key was reserved by a transaction that committed: the answer is to be remembered. */
  reserved: boolean;
  /** The request has answered: a door opened later (work left running) reserves nothing. */
  done: boolean;
  /** A door found the key taken by a write that has not answered yet (409 in-progress, unless its answer comes soon). */
  answerPending?: boolean;
}

export interface RememberedAnswer {
  requestHash: string;
  status: number | null;
  contentType: string | null;
  body: string | null;
}

const current = new AsyncLocalStorage<KeyedRequest>();

/** Runs fn (the rest of the request) with its key known to the doors. */
export const runKeyed = (keyed: KeyedRequest, fn: () => void) => current.run(keyed, fn);

/** An answer given before, to be given again as it was. */
export class ReplayedAnswer extends Error {
  constructor(readonly answer: RememberedAnswer) {
    super('answered before under this Idempotency-Key');
    this.name = 'ReplayedAnswer';
  }
}

/** What a key already taken means for this request: its answer again, 422, or 409 while unanswered. */
export function judgeTaken(keyed: Pick<KeyedRequest, 'requestHash'>, found: RememberedAnswer): Error {
  if (found.requestHash !== keyed.requestHash) {
    return new DomainError('idempotency-mismatch', 'This Idempotency-Key was used for another request.', { 'idempotency-key': 'mismatch' });
  }
  if (found.status === null) return new DomainError('in-progress');
  return new ReplayedAnswer(found);
}

/** judgeTaken, noting a first request that has not answered yet (the plugin waits for its answer once this transaction ended). */
function takenBy(keyed: KeyedRequest, found: RememberedAnswer): Error {
  if (found.status === null && found.requestHash === keyed.requestHash) keyed.answerPending = true;
  return judgeTaken(keyed, found);
}

export const answerColumns = sql`request_hash as "requestHash", status, content_type as "contentType", body`;

/**
 * Wraps a door's fn so that a keyed request's first transaction that writes reserves its key,
 * as its last statement before COMMIT (a transaction that only read reserves nothing, so a
 * handler that reads before it writes keeps the key for its write). Before fn, the key's
 * transaction lock waits for another request under the same key, in any process; a key found
 * taken then rolls this one back with that one's answer (ReplayedAnswer), 422 or 409 in-progress.
 */
export function keyedDoor<T>(tenantId: number, fn: (tx: Tx) => Promise<T>): { fn: (tx: Tx) => Promise<T>; ended: (committed: boolean) => void } | null {
  const keyed = current.getStore();
  if (!keyed || keyed.done || keyed.reserved || keyed.reserving || tenantId !== keyed.tenantId) return null;
  keyed.reserving = true;
  let reserved = false;
  return {
    fn: async (tx) => {
      // One request under this key at a time, whichever process: a second waits here for the
      // first's transaction to end (the lock is the transaction's), then sees what it left.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`idempotency ${keyed.tenantId} ${keyed.actor} ${keyed.key}`}, 0))`);
      const [before] = await queryRows<RememberedAnswer>(
        tx,
        sql`select ${answerColumns} from idempotency_keys where tenant_id = ${keyed.tenantId} and actor = ${keyed.actor} and key = ${keyed.key}`,
      );
      if (before) throw takenBy(keyed, before);
      const result = await fn(tx);
      const [outcome] = await queryRows<{ wrote: boolean; reserved: number }>(
        tx,
        sql`with w as (select txid_current_if_assigned() is not null as wrote),
                   ins as (insert into idempotency_keys (tenant_id, actor, key, request_hash)
                           select ${keyed.tenantId}, ${keyed.actor}, ${keyed.key}, ${keyed.requestHash} from w where w.wrote
                           on conflict do nothing returning 1)
              select (select wrote from w) as wrote, (select count(*) from ins)::int as reserved`,
      );
      if (!outcome?.wrote) return result;
      if (Number(outcome.reserved) === 1) {
        reserved = true;
        return result;
      }
      const [found] = await queryRows<RememberedAnswer>(
        tx,
        sql`select ${answerColumns} from idempotency_keys where tenant_id = ${keyed.tenantId} and actor = ${keyed.actor} and key = ${keyed.key}`,
      );
      throw takenBy(keyed, found ?? { requestHash: keyed.requestHash, status: null, contentType: null, body: null });
    },
    ended: (committed) => {
      keyed.reserving = false;
      if (committed && reserved) keyed.reserved = true;
    },
  };
}

/** Runs a door with the request's key reserved in its transaction (see keyedDoor). */
export async function throughKeyedDoor<T>(tenantId: number, fn: (tx: Tx) => Promise<T>, open: (fn: (tx: Tx) => Promise<T>) => Promise<T>): Promise<T> {
  const door = keyedDoor(tenantId, fn);
  if (!door) return open(fn);
  try {
    const result = await open(door.fn);
    door.ended(true);
    return result;
  } catch (error) {
    door.ended(false);
    throw error;
  }
}
