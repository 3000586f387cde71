/**
 * Writes one history entry: what changed, field by field, and who did it. Called inside the
 * transaction of the change itself, so a change without its history cannot be committed.
 */
import type { Actor } from '../context';
import type { Tx } from '../db/types';
import { history, type FieldChange } from '../db/schema/index';

export const REDACTED = '[redacted]';
/** Bookkeeping columns whose changes say nothing to a reader of the history. */
const SKIPPED = new Set(['id', 'tenant_id', 'version', 'created_at', 'updated_at', 'search', 'password_hash']);

type Row = Record<string, unknown>;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const plain = (v: unknown) => (v instanceof Date ? v.toISOString() : (v ?? null));

/** Field-by-field difference; secret fields only say that they changed. */
export function diff(before: Row | null, after: Row | null, secrets: readonly string[] = []): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    if (SKIPPED.has(key)) continue;
    const oldValue = plain(before?.[key]);
    const newValue = plain(after?.[key]);
    if (secrets.includes(key)) {
      if (after && key in after && after[key] !== undefined) changes[key] = { old: before ? REDACTED : null, new: REDACTED };
      continue;
    }
    if (after && !(key in after) && before) continue; // untouched by a partial update
    if (!same(oldValue, newValue)) changes[key] = { old: oldValue, new: newValue };
  }
  return changes;
}

export interface HistoryEntry {
  entity: string;
  entityId: number;
  action: 'create' | 'update' | 'delete';
  before?: Row | null;
  after?: Row | null;
  secrets?: readonly string[];
}

const who = (actor: Actor | null) => ({
  userId: actor?.id ?? null,
  userIsRoot: actor?.kind === 'root',
  // No name for the system itself: readers see it in their own language (history routes).
  userName: actor ? [actor.firstName, actor.lastName].filter(Boolean).join(' ') || actor.username : '',
});

/** actor null = the system itself (bootstrap, jobs). Returns false when nothing changed. */
export async function recordHistory(tx: Tx, tenantId: number, actor: Actor | null, entry: HistoryEntry): Promise<boolean> {
  return (await recordHistoryMany(tx, tenantId, actor, [entry])) > 0;
}

/** Many entries in one statement (imports); updates that change nothing are left out. Returns how many were written. */
export async function recordHistoryMany(tx: Tx, tenantId: number, actor: Actor | null, entries: readonly HistoryEntry[]): Promise<number> {
  const rows = entries
    .map((entry) => ({ entry, changes: diff(entry.before ?? null, entry.after ?? null, entry.secrets) }))
    .filter(({ entry, changes }) => entry.action !== 'update' || Object.keys(changes).length > 0)
    .map(({ entry, changes }) => ({ tenantId, entity: entry.entity, entityId: entry.entityId, action: entry.action, changes, ...who(actor) }));
  if (rows.length) await tx.insert(history).values(rows);
  return rows.length;
}
