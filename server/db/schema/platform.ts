/**
 * Platform tables: not owned by any tenant, so no row-level security. They are reached only
 * through `platform()` in ../doors.ts, never through withTenant().
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, rowMeta } from './columns';

export const tenants = pgTable(
  'tenants',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    status: text('status').notNull().default('ACTIVE'),
    timeZone: text('time_zone').notNull().default('Europe/Athens'),
    language: text('language').notNull().default('el'),
    /** normalizeSearch(slug + name), so q search ignores case and Greek accents. */
    search: text('search').notNull().default(''),
    ...rowMeta(),
  },
  (t) => [uniqueIndex('tenants_slug_key').on(t.slug)],
);

/** ROOT accounts: platform operators, members of no tenant. */
export const rootUsers = pgTable(
  'root_users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    email: text('email'),
    phone: text('phone'),
    status: text('status').notNull().default('ACTIVE'),
    ...rowMeta(),
  },
  (t) => [uniqueIndex('root_users_username_key').on(sql`lower(${t.username})`)],
);

/**
 * Sign-in attempts, kept in the database so every API process sees the same counts. Each row
 * is written before the password is checked (a reservation) and marked when it succeeds.
 * tenant_id is null for a ROOT name (one budget across all centres) and when the tenant
 * slug was unknown. device is set when the browser showed a valid device cookie for that
 * name: such attempts count only against that device.
 */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id'),
    usernameKey: text('username_key').notNull(),
    address: text('address').notNull(),
    succeeded: boolean('succeeded').notNull(),
    device: text('device'),
    at: instant('at').notNull().defaultNow(),
  },
  (t) => [
    index('login_attempts_user_idx').on(t.tenantId, t.usernameKey, t.at),
    index('login_attempts_address_idx').on(t.address, t.at),
    index('login_attempts_device_idx').on(t.device, t.at),
  ],
);

/** Secrets generated once and shared by every process (e.g. the JWT signing key). */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: instant('created_at').notNull().defaultNow(),
});
