/**
 * The families: guardians (siblings share one, so students and guardians are linked many to
 * many), each student's attendance mark per lesson, and the outbox of messages to families
 * (absence notices, reminders, invitations): written in the same transaction as the fact that
 * causes them, delivered later by a job, at most once per `dedupe_key`.
 */
import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { byCodePoint, instant, linkTable, rowMeta, sortKeyColumn } from './columns';
import { lessons } from './lessons';
import { students } from './people';
import { users } from './users';
import { id, search, tenantId } from './tenant-columns';

export const guardians = pgTable(
  'guardians',
  {
    tenantId: tenantId(),
    id: id(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    relation: text('relation').notNull().default('GUARDIAN'),
    phone: text('phone'),
    email: text('email'),
    address: text('address'),
    city: text('city'),
    postalCode: text('postal_code'),
    taxId: text('tax_id'),
    notify: boolean('notify').notNull().default(true),
    /**
     * How notices reach her: EMAIL, SMS or BOTH. Set on every write the API makes (a new or
     * cleared one takes the default from her contacts: e-mail where known, else SMS); a row
     * written otherwise with none is read as BOTH (every address she has).
     */
    notifyBy: text('notify_by'),
    portal: boolean('portal').notNull().default(false),
    search: search(),
    firstNameSort: sortKeyColumn('first_name'),
    lastNameSort: sortKeyColumn('last_name'),
    emailSort: sortKeyColumn('email'),
    ...rowMeta(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('guardians_name_sort_idx').on(t.tenantId, byCodePoint(t.lastNameSort), byCodePoint(t.firstNameSort)),
  ],
);

/** Both students.guardian_ids and guardians.student_ids: one relation seen from either side. */
export const studentGuardians = linkTable('student_guardians', ['studentId', 'student_id', () => students], ['guardianId', 'guardian_id', () => guardians]);

/** One mark per lesson and student; the lesson's deletion takes its marks with it. */
export const attendance = pgTable(
  'attendance',
  {
    tenantId: tenantId(),
    id: id(),
    lessonId: integer('lesson_id').notNull(),
    studentId: integer('student_id').notNull(),
    status: text('status').notNull(),
    note: text('note'),
    /** The tenant user who marked it last; null for a ROOT. */
    markedBy: integer('marked_by'),
    markedAt: instant('marked_at').notNull().defaultNow(),
    search: search(),
    ...rowMeta(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('attendance_lesson_student_key').on(t.tenantId, t.lessonId, t.studentId),
    index('attendance_student_idx').on(t.tenantId, t.studentId, t.lessonId),
    index('attendance_absent_idx').on(t.tenantId, t.lessonId).where(sql`${t.status} = 'ABSENT'`),
    foreignKey({ columns: [t.tenantId, t.lessonId], foreignColumns: [lessons.tenantId, lessons.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.tenantId, t.studentId], foreignColumns: [students.tenantId, students.id] }),
  ],
);

/**
 * Messages to families, one row per recipient, channel and message (the log ADMIN and
 * SECRETARY read at /api/messages). `dedupe_key` (e.g.
 * `absence:<lesson>:<student>:<guardian>`) makes a message once-only however often, and by
 * however many processes, it is asked for. The delivery job claims due rows (deliver_after
 * passed, not sent, not cancelled) with FOR UPDATE SKIP LOCKED, sends, and sets sent_at; a
 * failure raises attempts and moves deliver_after back by a growing delay. Cancelling (an
 * absence undone within its grace period) sets cancelled_at before delivery.
 */
export const outbox = pgTable(
  'outbox',
  {
    tenantId: tenantId(),
    id: id(),
    kind: text('kind').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    /** EMAIL or SMS. */
    channel: text('channel').notNull().default('EMAIL'),
    /** QUEUED, SENT, DELIVERED or FAILED (docs/rules.md, Messages to families). */
    status: text('status').notNull().default('QUEUED'),
    /** The e-mail address or the mobile (E.164) it goes to. */
    recipient: text('recipient').notNull(),
    /** The guardian it is for, when it is for one (what ADMIN sees was sent to whom). */
    guardianId: integer('guardian_id'),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    deliverAfter: instant('deliver_after').notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: instant('sent_at'),
    /** The delivery report's time: delivered, or failed after it left (or given up here). */
    deliveredAt: instant('delivered_at'),
    failedAt: instant('failed_at'),
    /** When a process took it for sending and has not yet said how it went: an SMS left so is not sent again. */
    claimedAt: instant('claimed_at'),
    /** The provider's id of an SMS (its delivery reports name it). */
    providerId: text('provider_id'),
    cancelledAt: instant('cancelled_at'),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('outbox_dedupe_key').on(t.tenantId, t.dedupeKey),
    index('outbox_due_idx').on(t.tenantId, t.deliverAfter).where(sql`${t.sentAt} is null and ${t.cancelledAt} is null`),
    index('outbox_guardian_idx').on(t.tenantId, t.guardianId, t.createdAt),
    index('outbox_created_idx').on(t.tenantId, t.createdAt),
    uniqueIndex('outbox_provider_key').on(t.tenantId, t.providerId),
    foreignKey({ columns: [t.tenantId, t.guardianId], foreignColumns: [guardians.tenantId, guardians.id] }).onDelete('set null'),
  ],
);

/**
 * A guardian's portal sign-in: the users row (role GUARDIAN, her e-mail address as username)
 * made when she accepts her invitation. One sign-in per guardian and one guardian per sign-in;
 * deleting either takes the link with it.
 */
export const guardianUsers = pgTable(
  'guardian_users',
  {
    tenantId: tenantId(),
    guardianId: integer('guardian_id').notNull(),
    userId: integer('user_id').notNull(),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.guardianId] }),
    uniqueIndex('guardian_users_user_key').on(t.tenantId, t.userId),
    foreignKey({ columns: [t.tenantId, t.guardianId], foreignColumns: [guardians.tenantId, guardians.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete('cascade'),
  ],
);

/**
 * Invitations to the portal: a one-time link, kept only as the SHA-256 hash of its token,
 * valid until `expires_at` (7 days) and spent by `used_at`; a new invitation (or portal off)
 * leaves the older ones unusable (`revoked_at`).
 */
export const portalInvitations = pgTable(
  'portal_invitations',
  {
    tenantId: tenantId(),
    id: id(),
    guardianId: integer('guardian_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The address the link was sent to (and the username it makes). */
    email: text('email').notNull(),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
    revokedAt: instant('revoked_at'),
    /** The tenant user who sent it; null for a ROOT. */
    createdBy: integer('created_by'),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('portal_invitations_token_key').on(t.tokenHash),
    index('portal_invitations_guardian_idx').on(t.tenantId, t.guardianId, t.createdAt),
    foreignKey({ columns: [t.tenantId, t.guardianId], foreignColumns: [guardians.tenantId, guardians.id] }).onDelete('cascade'),
  ],
);
