/**
 * Sign-in sessions. A session is one refresh-token family: every refresh token descended
 * from one sign-in points at it, and revoking the session ends them all at once. The access
 * JWT names the session, and each authenticated request checks that it is still live.
 */
import { sql } from 'drizzle-orm';
import { check, foreignKey, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant } from './columns';
import { rootUsers, tenants } from './platform';
import { users } from './users';

export const sessions = pgTable(
  'sessions',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    id: integer('id').notNull().generatedAlwaysAsIdentity(),
    /** Random, shown to web clients as `token`; not a credential. */
    publicId: text('public_id').notNull(),
    /** Exactly one of userId / rootUserId is set (check below). */
    userId: integer('user_id'),
    rootUserId: integer('root_user_id').references(() => rootUsers.id),
    createdAt: instant('created_at').notNull().defaultNow(),
    lastSeenAt: instant('last_seen_at').notNull().defaultNow(),
    revokedAt: instant('revoked_at'),
    revokedReason: text('revoked_reason'),
    userAgent: text('user_agent'),
    address: text('address'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('sessions_public_id_key').on(t.tenantId, t.publicId),
    index('sessions_user_idx').on(t.tenantId, t.userId),
    index('sessions_root_user_idx').on(t.tenantId, t.rootUserId),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete('cascade'),
    check('sessions_one_owner', sql`(${t.userId} is null) <> (${t.rootUserId} is null)`),
  ],
);

/** Refresh tokens: only the SHA-256 of the secret is stored; a used token is kept to detect reuse. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    id: integer('id').notNull().generatedAlwaysAsIdentity(),
    sessionId: integer('session_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: instant('created_at').notNull().defaultNow(),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('refresh_tokens_hash_key').on(t.tenantId, t.tokenHash),
    index('refresh_tokens_session_idx').on(t.tenantId, t.sessionId),
    index('refresh_tokens_expires_idx').on(t.expiresAt),
    foreignKey({ columns: [t.tenantId, t.sessionId], foreignColumns: [sessions.tenantId, sessions.id] }).onDelete('cascade'),
  ],
);
