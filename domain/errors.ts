import type { z } from 'zod';
import type { ImportRowErrorSchema } from './answers/imports';
import { FIELD_CODES, type FieldCode, type FieldErrors } from './field-codes';
import type { LessonConflict } from './lessons';

// Error codes of the HTTP API and the session protocol. The client translates each
// code through i18n (`errors.<code>`); the message is for logs and API users.
export const ERROR_CODES = [
  'missing-headers',
  'tenant-mismatch',
  'tenant-inactive',
  'bad-credentials',
  'rate-limited',
  'unauthorized',
  'session-expired',
  'session-revoked',
  'forbidden',
  'not-found',
  // a known path asked with a method it does not answer (the `Allow` header lists those it does)
  'method-not-allowed',
  'validation',
  'conflict',
  'stale',
  'in-use',
  'too-large',
  'timeout',
  'internal',
  'unavailable',
  // a portal invitation's link: unknown or replaced, past its 7 days, already used
  'invitation-invalid',
  'invitation-expired',
  'invitation-used',
  // an Idempotency-Key: its first request has not answered yet; or it was sent with another request
  'in-progress',
  'idempotency-mismatch',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export { FIELD_CODES, type FieldErrors } from './field-codes';

/**
 * Why, more precisely than the code, for the few codes that have several causes a user should
 * tell apart. The client translates `errors.reasons.<reason>` with the details as parameters.
 */
export const ERROR_REASONS = [
  // validation
  'end-before-start',
  'new-lesson-normal',
  'reference-missing',
  'series-invalid',
  'series-all-skipped',
  'choice-options',
  'role-not-allowed',
  'password-mismatch',
  'wrong-password',
  'rows-invalid',
  'value-invalid',
  // forbidden
  'office-only',
  'teacher-homework-only',
  'author-only',
  'cross-origin',
  // conflict
  'overlap',
  'not-to-be-replaced',
  'status-move',
  'taken',
  'record-deleted',
  'own-role',
  'own-status',
  'teacher-deleted',
  'concurrent-change',
  'contract-not-active',
  'contract-not-withdrawn',
  // unavailable
  'overloaded',
  'draining',
  // in-use
  'used-by',
  'has-replacement',
  'values-held',
  'values-would-not-fit',
  'records-held',
  // conflict: receipts (a payment with a standing receipt; cancelling twice or a credit)
  'receipt-issued-change',
  'receipt-issued-delete',
  'receipt-is-credit',
  'receipt-cancelled',
  // conflict: a refunded payment stays as it was; refunding it twice
  'payment-refunded',
  'payment-refunded-change',
  'payment-refunded-delete',
  // forbidden: a contract's reminders turned on or off by someone other than ADMIN
  'reminders-admin-only',
  // conflict: a guardian's e-mail address is already another account's username
  'email-taken',
  // validation: a contract's payer who is not a guardian of its student
  'payer-not-guardian',
  // validation: a reminder sent now to a guardian without an address or with notices off
  'reminder-unreachable',
  // validation: a reminder sent now to a guardian who owes nothing due on her reminded contracts
  'reminder-nothing-due',
  // conflict: a staff username that is a guardian's e-mail address
  'username-guardian-email',
  // conflict: a long import whose server stopped part-way (what it had made was taken back)
  'import-interrupted',
] as const;
export type ErrorReason = (typeof ERROR_REASONS)[number];

/**
 * What a message says, as data: the client words it in the user's language (with plural
 * forms for counts); `message` stays for logs and API users. Every name is optional and
 * present only where the message carries it.
 */
export interface ErrorDetails {
  reason?: ErrorReason;
  /** in-use: what keeps the record, by resource name (`lessons`, `recurring-lessons`) -> how many rows. */
  uses?: Record<string, number>;
  /** How many rows the message counts: overlapping lessons, students holding a value, invalid import rows. */
  count?: number;
  /** The field a message is about (`taken`: the name already in use; a custom entity's field key). */
  field?: string;
  /** A refused status move of a lesson (`status-move`: from -> to; `not-to-be-replaced`: its status). */
  from?: string;
  to?: string;
  status?: string;
  /** rate-limited, unavailable: seconds until the next try is allowed (also the Retry-After header). */
  retry_after?: number;
  /** conflict `overlap`: the lessons in the way (at most a few; `count` says how many are listed). */
  lessons?: LessonConflict[];
  /** in-use, in words ("347 lessons"): older clients read this list; `uses` says the same as data. */
  used_by?: string[];
  /** conflict of an overpayment: what is still owed, in cents. */
  owed?: number;
  /** conflict of new contract terms: the lines (REGISTER or YYYY-MM) paid beyond them. */
  lines?: string[];
  /** conflict of a payment with a receipt: the receipt's "<series>-<number>". */
  receipt?: string;
  /** too-large of an upload: the largest file accepted, in bytes. */
  max_bytes?: number;
  /** validation of an import (`rows-invalid`): each refused row (0-based) with its field codes. */
  errors?: ImportRowError[];
}

/** One refused row of an import: its place in the rows sent (0-based) and why (answers/imports.ts). */
export type ImportRowError = z.infer<typeof ImportRowErrorSchema>;

/** The one error body: every extra lives in `details`, never beside `code`. */
export interface ApiErrorBody {
  error: { code: ErrorCode; message: string; fields?: FieldErrors; details?: ErrorDetails };
}

/** What an error carries beside code, message and fields. */
export type ErrorExtra = { details?: ErrorDetails };

const DEFAULT_MESSAGES: Record<ErrorCode, string> = {
  'missing-headers': 'The x-client-type and x-tenant-id headers are required.',
  'tenant-mismatch': 'This session belongs to another centre.',
  'tenant-inactive': 'This centre is not active.',
  'bad-credentials': 'Username or Password are incorrect!',
  'rate-limited': 'Too many attempts. Please wait and try again.',
  unauthorized: 'Please sign in.',
  'session-expired': 'Your session has expired. Please sign in again.',
  'session-revoked': 'Your session has ended. Please sign in again.',
  forbidden: 'You are not allowed to do this.',
  'not-found': 'Not found.',
  'method-not-allowed': 'This method is not allowed here.',
  validation: 'Some fields are not valid.',
  conflict: 'This conflicts with existing data.',
  stale: 'Someone else changed this record. Reload it and try again.',
  'in-use': 'This is in use and cannot be changed this way.',
  'too-large': 'The request is too large.',
  timeout: 'The request took too long to arrive.',
  internal: 'Something went wrong on our side.',
  unavailable: 'The service is briefly unavailable. Nothing was saved. Please try again in a few seconds.',
  'invitation-invalid': 'This invitation link is not valid.',
  'invitation-expired': 'This invitation link has expired.',
  'invitation-used': 'This invitation link has already been used.',
  'in-progress': 'This request is still being processed. Please try again in a moment.',
  'idempotency-mismatch': 'This Idempotency-Key was already used for another request.',
};

export const ERROR_STATUS: Record<ErrorCode, number> = {
  'missing-headers': 400,
  'tenant-mismatch': 403,
  'tenant-inactive': 403,
  'bad-credentials': 401,
  'rate-limited': 429,
  unauthorized: 401,
  'session-expired': 401,
  'session-revoked': 401,
  forbidden: 403,
  'not-found': 404,
  'method-not-allowed': 405,
  validation: 400,
  conflict: 409,
  stale: 409,
  'in-use': 409,
  'too-large': 413,
  timeout: 408,
  internal: 500,
  unavailable: 503,
  'invitation-invalid': 404,
  'invitation-expired': 410,
  'invitation-used': 410,
  'in-progress': 409,
  'idempotency-mismatch': 422,
};

/** An expected failure with a code; the server turns it into `{error: {...}}`. */
export class DomainError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly fields?: FieldErrors;
  readonly extra?: ErrorExtra;

  constructor(code: ErrorCode, message?: string, fields?: FieldErrors, extra?: ErrorExtra) {
    super(message ?? DEFAULT_MESSAGES[code]);
    this.code = code;
    this.status = ERROR_STATUS[code];
    // A 400 always says which field: `_` (the whole request) when nothing narrower applies.
    this.fields = code === 'validation' && (!fields || Object.keys(fields).length === 0) ? { _: 'invalid' } : fields;
    this.extra = extra;
  }

  get details(): ErrorDetails | undefined {
    return this.extra?.details;
  }

  toBody(): ApiErrorBody {
    const details = this.extra?.details;
    return { error: { code: this.code, message: this.message, ...(this.fields ? { fields: this.fields } : {}), ...(details ? { details } : {}) } };
  }
}

/** Maps zod issues to one code per field (the first issue of a field wins). */
export function zodIssuesToFields(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  // No prototype and own properties only: a field named `constructor` or `__proto__` is just a name.
  const fields: FieldErrors = Object.create(null);
  const first = (name: string, code: FieldCode) => {
    if (!Object.hasOwn(fields, name)) fields[name] = code;
  };
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) first([...issue.path, key].join('.'), 'unknown-field');
      continue;
    }
    first(issue.path.length ? issue.path.join('.') : '_', fieldCodeOf(issue));
  }
  return fields;
}

// Needs issues parsed with `reportInput: true` (parseBody does): zod leaves the input out otherwise.
function fieldCodeOf(issue: z.core.$ZodIssue): FieldCode {
  if ('input' in issue && issue.input === undefined) return 'required';
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'required' : 'invalid-type';
    case 'too_small':
      return issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set'
        ? issue.minimum === 1 && issue.origin === 'string'
          ? 'required'
          : 'too-short'
        : 'too-small';
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set' ? 'too-long' : 'too-large';
    case 'invalid_format':
      return 'invalid-format';
    case 'invalid_value':
      return 'invalid-option';
    case 'custom': {
      const code = (issue.params as { code?: FieldCode } | undefined)?.code;
      return code && (FIELD_CODES as readonly string[]).includes(code) ? code : 'invalid';
    }
    default:
      return 'invalid';
  }
}
