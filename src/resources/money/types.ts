import type { PaymentKind } from '../../../domain/enums';
import type { RowOf } from '../../../domain/fields';
import type { CONTRACTS, PAYMENTS } from '../../../domain/resources/money';
import type { z } from 'zod';
import type { ContractStatusAnswer } from '../../../domain/answers/money';

/** A contract as the API sends it: its declared fields and labels, and the due months the server adds (contracts' spec, `shown`). */
export type Contract = RowOf<typeof CONTRACTS> & {
  unpaid_months: string[];
  /** What the due unpaid months still owe, in cents. */
  unpaid_amount: number;
  [key: string]: unknown;
};

/** A payment as the API sends it: its declared fields and labels, and the receipt standing for it (payments' spec, `shown`). */
export type Payment = RowOf<typeof PAYMENTS> & {
  receipt_id?: number | null;
  [key: string]: unknown;
};

/** GET /api/contracts/:id/status (domain/answers/money.ts), its contract typed as the contract rows are. */
export type ContractStatus = Omit<z.infer<typeof ContractStatusAnswer>['data'], 'contract'> & { contract: Contract };

/** Address parameters of /contracts/?mode=create that start the form with a student and her payer. */
export const NEW_CONTRACT_STUDENT = 'student_id';
export const NEW_CONTRACT_PAYER = 'payer_guardian_id';

/** What the payment form starts with: a line of the status ("record payment") or nothing. */
export interface PaymentDraft {
  contract_id: number;
  kind?: PaymentKind;
  month?: string | null;
  amount?: number;
}

const MONTH_FORMATS = new Map<string, Intl.DateTimeFormat>();
/** One format per locale, made once (a list of payments names a month on every row). */
const monthFormat = (locale: string) => {
  let format = MONTH_FORMATS.get(locale);
  if (!format) MONTH_FORMATS.set(locale, (format = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' })));
  return format;
};

/** "2026-11" -> "Νοέμβριος 2026" in the user's language. */
export function monthLabel(month: string | null | undefined, language: string): string {
  if (!month) return '';
  const [y, m] = month.split('-').map(Number);
  const text = monthFormat(language === 'el' ? 'el-GR' : 'en-GB').format(new Date(Date.UTC(y!, m! - 1, 1)));
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "2026-10" -> "Οκτ 2026": a short name that reads the same in a list ("Οκτ 2026, Νοε 2026"), never a genitive. */
export function monthShort(t: (key: string) => string, month: string): string {
  const [year, m] = month.split('-');
  return `${t(`money.monthsShort.${m}`)} ${year}`;
}
