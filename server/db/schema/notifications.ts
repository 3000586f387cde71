/**
 * In-app notifications, one row per recipient. The text is not stored: `kind` and `params`
 * are, and each reader gets them in their own language (server/modules/notifications/text.ts
 * and the client's locale files). `dedupe_key` makes the scheduled ones idempotent: a second
 * run, or a second process, inserting the same (recipient, key) finds it there and adds nothing.
 * `mail_pending` marks an e-mail copy still to be sent (claimed with SKIP LOCKED by one process).
 */
import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, rowMeta } from './columns';
import { tenants } from './platform';
import { users } from './users';

export const notifications = pgTable(
  'notifications',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    id: integer('id').notNull().generatedAlwaysAsIdentity(),
    userId: integer('user_id').notNull(),
    kind: text('kind').notNull(),
    params: jsonb('params').$type<Record<string, string | number>>().notNull().default({}),
    link: text('link').notNull(),
    readAt: instant('read_at'),
    dedupeKey: text('dedupe_key'),
    mailPending: boolean('mail_pending').notNull().default(false),
    ...rowMeta(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('notifications_user_idx').on(t.tenantId, t.userId, t.id),
    index('notifications_unread_idx').on(t.tenantId, t.userId).where(sql`${t.readAt} is null`),
    index('notifications_mail_idx').on(t.tenantId, t.id).where(sql`${t.mailPending}`),
    // NULL keys never collide: only the scheduled kinds carry one.
    uniqueIndex('notifications_dedupe_key').on(t.tenantId, t.userId, t.dedupeKey),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete('cascade'),
  ],
);
