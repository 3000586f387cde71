import { index, integer, jsonb, pgTable, primaryKey, text, boolean } from 'drizzle-orm/pg-core';
import { instant } from './columns';
import { tenants } from './platform';

/** A change to one field: secrets are stored as the string '[redacted]'. */
export type FieldChange = { old: unknown; new: unknown };

/**
 * Who changed what, written in the same transaction as the change itself. user_id is not a
 * foreign key: the actor may be a ROOT (root_users) and history outlives deactivated users;
 * user_name keeps the name as it was at the time.
 */
export const history = pgTable(
  'history',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    id: integer('id').notNull().generatedAlwaysAsIdentity(),
    entity: text('entity').notNull(),
    entityId: integer('entity_id').notNull(),
    action: text('action').$type<'create' | 'update' | 'delete'>().notNull(),
    changes: jsonb('changes').$type<Record<string, FieldChange>>().notNull(),
    userId: integer('user_id'),
    userIsRoot: boolean('user_is_root').notNull().default(false),
    userName: text('user_name').notNull().default(''),
    at: instant('at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('history_entity_idx').on(t.tenantId, t.entity, t.entityId, t.at)],
);
