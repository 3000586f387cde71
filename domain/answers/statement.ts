/**
 * A family's statement (GET /api/guardians/<id>/statement): every child of hers, each child's
 * contracts with what they cost, what was paid and what is left, and what of that is already
 * due; totals per child and for the family. Every amount in integer cents.
 */
import { z } from 'zod';
import { CONTRACT_STATUSES, GUARDIAN_RELATIONS } from '../enums';
import { StatusLineSchema } from './money';
import { dataOf, date, int } from './shape';

/** What a contract, a child or the family owes: cost, paid, left, and of the left what is due by today. */
const Figures = { due: int, paid: int, left: int, overdue: int };

export const StatementContractSchema = z.object({
  id: int,
  category: z.string().nullable(),
  start_date: date,
  end_date: date,
  status: z.enum(CONTRACT_STATUSES),
  /** The payer named on it (another guardian of the child, or null: the student pays). */
  payer_guardian_id: int.nullable(),
  ...Figures,
  lines: z.array(StatusLineSchema.extend({ due_now: z.boolean() })),
});

export const StatementChildSchema = z.object({
  id: int,
  first_name: z.string(),
  last_name: z.string(),
  contracts: z.array(StatementContractSchema),
  ...Figures,
});

export const StatementAnswer = dataOf(
  z.object({
    guardian: z.object({
      id: int,
      first_name: z.string(),
      last_name: z.string(),
      relation: z.enum(GUARDIAN_RELATIONS),
      phone: z.string().nullable(),
      email: z.string().nullable(),
    }),
    /** The centre as families know it. */
    centre: z.string(),
    /** The centre's date the figures stand on. */
    as_of: date,
    children: z.array(StatementChildSchema),
    totals: z.object(Figures),
  }),
);

export type Statement = z.infer<typeof StatementAnswer>['data'];

/** What the office's "send her reminder now" answers. */
export const ReminderSentAnswer = dataOf(
  z.object({
    /** The message's id in the outbox. */
    id: int,
    /** False: a reminder was already sent now today; this is that one. */
    created: z.boolean(),
    created_at: z.string(),
    /** What it names, in cents. */
    total: int,
  }),
);
