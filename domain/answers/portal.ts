/**
 * The families' portal (/api/portal, role GUARDIAN): what a guardian reads of her own children
 * and writes of herself. Every answer is read in the database as her (row-level security keyed
 * on her guardian id), so a child of another family is never in one: asking for one is a 404.
 * Names only where staff rows are named (teacher, subject, class, room), never their contacts.
 */
import { z } from 'zod';
import { ATTENDANCE_STATUSES, CONTRACT_STATUSES, GUARDIAN_RELATIONS, LESSON_STATUSES, NOTIFY_BY, RECEIPT_KINDS } from '../enums';
import { StatusLineSchema } from './money';
import { dataOf, date, int } from './shape';

/** HH:mm */
const time = z.string().describe('HH:mm');

/** One of her children, as the child switcher names her. */
export const PortalChildSchema = z.object({ id: int, first_name: z.string(), last_name: z.string(), class_names: z.array(z.string()) });

/** The guardian herself: what the portal shows and what she may change (phone, address, city, postal code, notify). */
export const PortalGuardianSchema = z.object({
  id: int,
  version: int,
  first_name: z.string(),
  last_name: z.string(),
  relation: z.enum(GUARDIAN_RELATIONS),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  postal_code: z.string().nullable(),
  notify: z.boolean(),
  /** How her notices reach her (EMAIL, SMS, BOTH), and whether her channel has no address. */
  notify_by: z.enum(NOTIFY_BY),
  unreachable: z.boolean(),
});

/** GET /api/portal/me (and the answer of PATCH /api/portal/me): herself and her children. */
export const PortalMeAnswer = dataOf(z.object({ guardian: PortalGuardianSchema, children: z.array(PortalChildSchema) }));

/**
 * PATCH /api/portal/me: her own contact details and notice preference, with the version she
 * read (409 `stale` when it changed since). Any other key is a 400; her name, e-mail address
 * (her sign-in) and ΑΦΜ are changed by the centre.
 */
export const PortalMeUpdate = z
  .object({
    version: int,
    phone: z.string().nullable().optional(),
    address: z.string().nullable().optional(),
    city: z.string().nullable().optional(),
    postal_code: z.string().nullable().optional(),
    notify: z.boolean().optional(),
    notify_by: z.enum(NOTIFY_BY).optional(),
  })
  .strict();

/** A lesson of a child's timetable, with its homework. */
export const PortalLessonSchema = z.object({
  id: int,
  date,
  start_time: time,
  end_time: time,
  status: z.enum(LESSON_STATUSES),
  subject: z.string().nullable(),
  class_name: z.string().nullable(),
  teacher: z.string().nullable(),
  room: z.string().nullable(),
  homework: z.string().nullable(),
});

/** GET /api/portal/children/:id/lessons?from=YYYY-MM-DD&to=YYYY-MM-DD (at most 62 days): the child's lessons, by date and time. */
export const PortalLessonsAnswer = dataOf(z.array(PortalLessonSchema));

/** GET /api/portal/home: for each child, her next lessons (up to 5, from now) and latest homework (up to 5, newest first). */
export const PortalHomeAnswer = dataOf(
  z.array(z.object({ child: PortalChildSchema, next_lessons: z.array(PortalLessonSchema), homework: z.array(PortalLessonSchema) })),
);

/** A child's mark on one lesson. */
export const PortalMarkSchema = z.object({
  lesson_id: int,
  date,
  start_time: time,
  end_time: time,
  subject: z.string().nullable(),
  status: z.enum(ATTENDANCE_STATUSES),
});

/** GET /api/portal/children/:id/attendance?from&to: the marks (newest first), the counts per status and the rate (present or late over all; null with no marks). */
export const PortalAttendanceAnswer = dataOf(
  z.object({
    marks: z.array(PortalMarkSchema),
    counts: z.object({ PRESENT: int, ABSENT: int, LATE: int, EXCUSED: int }),
    rate: z.number().nullable(),
  }),
);

/** One of a child's contracts month by month: what is due, paid and left. */
export const PortalContractSchema = z.object({
  id: int,
  category: z.string().nullable(),
  start_date: date,
  end_date: date,
  status: z.enum(CONTRACT_STATUSES),
  register_cost: int,
  month_cost: int,
  discount_percent: int,
  lines: z.array(StatusLineSchema),
  total_cost: int,
  /** What her payments pay (refunded ones left out), credit to refund included. */
  total_paid: int,
  /** total_cost - (total_paid - credit). */
  rest: int,
  /** Payments for months after a withdrawal: money the centre owes her back. */
  credit: int,
  /** Payments given back to her (a credit receipt, or a refund without receipt). */
  refunded: int,
});

/** GET /api/portal/children/:id/contracts */
export const PortalContractsAnswer = dataOf(z.array(PortalContractSchema));

/** A receipt of one of her children's payments (printable at GET /api/portal/receipts/:id/pdf). */
export const PortalReceiptSchema = z.object({
  id: int,
  student_id: int,
  series: z.string(),
  number: int,
  issued_on: date,
  kind: z.enum(RECEIPT_KINDS),
  /** ISSUED, SENT, FAILED or CANCELLED (a credit receipt cancelled it). */
  status: z.string(),
  /** Positive, as printed: a CREDIT receipt gives the amount back. */
  amount: int,
  /** A credit receipt: the `<series>-<number>` of the receipt it cancels. */
  cancels_bill_number: z.string().nullable(),
  /** What it pays for, as printed (e.g. "Δίδακτρα Οκτωβρίου 2026"). */
  description: z.string(),
  mark: z.string().nullable(),
});

/** GET /api/portal/receipts?student_id=: her children's receipts (or one child's), newest first. */
export const PortalReceiptsAnswer = dataOf(z.array(PortalReceiptSchema));

/** GET /api/guardians/:id/portal (staff): whether she has been invited, has signed up, and when she last signed in. */
export const GuardianPortalStateAnswer = dataOf(
  z.object({
    portal: z.boolean(),
    invited_at: z.string().nullable(),
    invitation_expires_at: z.string().nullable(),
    signed_up_at: z.string().nullable(),
    last_sign_in_at: z.string().nullable(),
    /** Whether e-mail can be sent at all (SMTP_URL set); without it the invitation waits unsent. */
    mail: z.boolean(),
    /** Without mail, to staff who may send it again: her pending invitation's link, to hand her another way. */
    invitation_link: z.string().nullable(),
  }),
);

/** A fresh one-time invitation link the office hands her (POST /api/guardians/<id>/invitation-link). */
export const InvitationLinkAnswer = dataOf(z.object({ link: z.string(), expires_at: z.string() }));
