// The enumerations shared by server and client.
export const ROLES = ['ROOT', 'ADMIN', 'SECRETARY', 'TEACHER'] as const;
export type Role = (typeof ROLES)[number];

export const ACTIVE_STATES = ['ACTIVE', 'INACTIVE'] as const;
export type ActiveState = (typeof ACTIVE_STATES)[number];

export const GENDERS = ['MALE', 'FEMALE'] as const;
export type Gender = (typeof GENDERS)[number];

export const PAYMENT_KINDS = ['REGISTER', 'MONTHLY', 'EXTRA'] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];

export const PAYMENT_METHODS = ['CASH', 'CREDIT_CARD', 'BANK_ACCOUNT'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const LESSON_STATUSES = ['NORMAL', 'TO_BE_REPLACED', 'REPLACED', 'CANCELED'] as const;
export type LessonStatus = (typeof LESSON_STATUSES)[number];

/** Numeric lesson kind: 1 Normal, 2 Replacement, 3 Replaced. */
export const LESSON_KINDS = { 1: 'NORMAL', 2: 'REPLACEMENT', 3: 'REPLACED' } as const;
export type LessonKind = keyof typeof LESSON_KINDS;

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
