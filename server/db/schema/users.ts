import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, primaryKey, text, uniqueIndex, index } from 'drizzle-orm/pg-core';
import { rowMeta } from './columns';
import { tenants } from './platform';

/** Staff of one tenant (ADMIN, SECRETARY, TEACHER). ROOT lives in root_users. */
export const users = pgTable(
  'users',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    id: integer('id').notNull().generatedAlwaysAsIdentity(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    email: text('email'),
    phone: text('phone'),
    status: text('status').notNull().default('ACTIVE'),
    /** The user's choice in My data: an e-mail copy of each notification (when the server can send mail). */
    emailNotifications: boolean('email_notifications').notNull().default(false),
    /** normalizeSearch(username, names, email): accent- and case-insensitive q search. */
    search: text('search').notNull().default(''),
    ...rowMeta(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('users_username_key').on(t.tenantId, sql`lower(${t.username})`),
    index('users_role_idx').on(t.tenantId, t.role),
  ],
);
