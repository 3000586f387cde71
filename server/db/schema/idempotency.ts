import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { instant } from './columns';
import { tenants } from './platform';

/**
 * Idempotency-Key of a write (docs/rules.md, "Exactly once"): reserved inside the write's own
 * transaction (so a write that rolled back leaves no key), the answer filled in once known.
 * A key belongs to one account (`actor`: "user:<id>" or "root:<id>") in one centre, for 24 hours.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    actor: text('actor').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of method, path and body: the same key for another request is refused. */
    requestHash: text('request_hash').notNull(),
    /** The answer; null while the write that reserved the key has not answered yet. */
    status: smallint('status'),
    contentType: text('content_type'),
    body: text('body'),
    createdAt: instant('created_at').notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.actor, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);
