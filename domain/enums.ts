// The enumerations shared by server and client.
/** GUARDIAN is a family's sign-in to the portal (her own children only), never a staff user. */
export const ROLES = ['ROOT', 'ADMIN', 'SECRETARY', 'TEACHER', 'GUARDIAN'] as const;
export type Role = (typeof ROLES)[number];
/** The roles that work in the centre (every role but GUARDIAN). */
export const STAFF_ROLES = ['ROOT', 'ADMIN', 'SECRETARY', 'TEACHER'] as const satisfies readonly Role[];

export const ACTIVE_STATES = ['ACTIVE', 'INACTIVE'] as const;

export const GENDERS = ['MALE', 'FEMALE'] as const;

export const PAYMENT_KINDS = ['REGISTER', 'MONTHLY', 'EXTRA'] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];

export const PAYMENT_METHODS = ['CASH', 'CREDIT_CARD', 'BANK_ACCOUNT'] as const;

export const LESSON_STATUSES = ['NORMAL', 'TO_BE_REPLACED', 'REPLACED', 'CANCELED'] as const;
export type LessonStatus = (typeof LESSON_STATUSES)[number];

export const LESSON_TYPE_VALUES = ['NORMAL', 'REPLACEMENT'] as const;

export const CUSTOM_FIELD_TYPES = ['TEXT', 'NUMBER', 'DATE', 'SINGLE_CHOICE', 'MULTIPLE_CHOICE'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

export const RECURRENCES = ['DAILY', 'WEEKLY', 'CUSTOM'] as const;
export type Recurrence = (typeof RECURRENCES)[number];

export const RECURRENCE_ENDS = ['ON_DATE', 'AFTER'] as const;
export type RecurrenceEnd = (typeof RECURRENCE_ENDS)[number];

export const LANGUAGES = ['el', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'el';

export const DEFAULT_TIME_ZONE = 'Europe/Athens';

/** Who a guardian is to the student. */
export const GUARDIAN_RELATIONS = ['MOTHER', 'FATHER', 'GUARDIAN', 'OTHER'] as const;
/** How notices reach a guardian (docs/rules.md, Messages to families). */
export const NOTIFY_BY = ['EMAIL', 'SMS', 'BOTH'] as const;
export type NotifyBy = (typeof NOTIFY_BY)[number];
/** The channels a message to a family goes by, and the states of one in the log. */
export const MESSAGE_CHANNELS = ['EMAIL', 'SMS'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];
export const MESSAGE_STATUSES = ['QUEUED', 'SENT', 'DELIVERED', 'FAILED'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
/** What a message is about. */
export const MESSAGE_KINDS = ['absence', 'reminder', 'portal-invitation'] as const;

/** A student's mark for one lesson. */
export const ATTENDANCE_STATUSES = ['PRESENT', 'ABSENT', 'LATE', 'EXCUSED'] as const;
export type AttendanceStatus = (typeof ATTENDANCE_STATUSES)[number];

/** The attendance rate: present or late over all marks; null with none. */
export function attendanceRate(counts: Record<AttendanceStatus, number>): number | null {
  const total = counts.PRESENT + counts.ABSENT + counts.LATE + counts.EXCUSED;
  return total ? (counts.PRESENT + counts.LATE) / total : null;
}

/** A contract runs (ACTIVE) until its end (COMPLETED) or until the student leaves (WITHDRAWN). */
export const CONTRACT_STATUSES = ['ACTIVE', 'WITHDRAWN', 'COMPLETED'] as const;

/** A receipt (ΑΠΥ, myDATA 11.2) or the credit receipt that cancels one (11.4). */
export const RECEIPT_KINDS = ['RECEIPT', 'CREDIT'] as const;

/** Issued; registered with myDATA (SENT) or refused by it (FAILED); cancelled by a credit receipt. */
export const RECEIPT_STATUSES = ['ISSUED', 'SENT', 'FAILED', 'CANCELLED'] as const;
