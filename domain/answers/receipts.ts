/** A receipt as the API answers it (GET /api/receipts, /api/receipts/:id, the credit of a cancel). */
import { z } from 'zod';
import { RECEIPT_KINDS } from '../enums';
import { date, int } from './shape';

export const ReceiptSchema = z.object({
  id: int,
  series: z.string(),
  number: int,
  /** `<series>-<number>`, as printed. */
  bill_number: z.string(),
  issued_on: date,
  kind: z.enum(RECEIPT_KINDS),
  /** The centre as issued: legal name, ΑΦΜ, ΔΟΥ, address. */
  issuer: z.record(z.string(), z.string().nullable()),
  /** The payer as issued: name, address, tax_id (and guardian_id or student_id). */
  payer: z.record(z.string(), z.union([z.string(), z.number()]).nullable()),
  /** What it pays for, one line per payment. */
  lines: z.array(z.looseObject({ description: z.string().optional(), student: z.string().optional(), amount: int.optional() })),
  amount: int,
  /** The amount in Greek words, as printed. */
  amount_in_words: z.string(),
  /** The VAT exemption line every receipt carries. */
  vat_exemption: z.string(),
  method: z.string(),
  status: z.string(),
  mark: z.string().nullable(),
  uid: z.string().nullable(),
  qr_url: z.string().nullable(),
  error: z.string().nullable(),
  cancels_receipt_id: int.nullable(),
  /** A credit receipt names the receipt it cancels: its `<series>-<number>`, date and MARK (null otherwise). */
  cancels_bill_number: z.string().nullable(),
  cancels_issued_on: date.nullable(),
  cancels_mark: z.string().nullable(),
  cancel_reason: z.string().nullable(),
  cancelled_by_receipt_id: int.nullable(),
  payment_ids: z.array(int),
  version: int,
  created_at: z.string(),
});
export type ReceiptAnswer = z.infer<typeof ReceiptSchema>;
