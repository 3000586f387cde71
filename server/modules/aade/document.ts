/**
 * The myDATA document of one receipt: AADE's InvoicesDoc (v2.0.1) with one invoice, as
 * `SendInvoices` takes it. Pure: the receipt and the centre's tax number in, XML out.
 *
 * What a tutoring centre issues (docs/rules.md, AADE's myDATA):
 *  - a RECEIPT is a retail service receipt, invoiceType 11.2, without a counterpart block;
 *  - a CREDIT receipt is a retail credit document, 11.4, naming the MARK of the receipt it
 *    cancels in `correlatedInvoices` (when that one was registered);
 *  - tutoring is exempt from VAT: vatCategory 7 with vatExemptionCategory 7;
 *  - income classification category1_3 / E3_561_003 on every line and in the summary;
 *  - payment methods: cash 3, card (POS) 7, bank account 1.
 * The issuer is named by ΑΦΜ, country and branch only: AADE refuses a Greek issuer's name
 * and address in the document (it knows them from the ΑΦΜ).
 */

export type AadePaymentMethod = 'CASH' | 'CREDIT_CARD' | 'BANK_ACCOUNT';

/** AADE's payment method codes for ours. */
export const AADE_PAYMENT_METHOD: Record<AadePaymentMethod, number> = { CASH: 3, CREDIT_CARD: 7, BANK_ACCOUNT: 1 };

export interface ReceiptLine {
  /** What the line pays for, as printed (cut to AADE's 300 characters). */
  description: string;
  /** Cents, > 0. */
  amount: number;
}

export interface ReceiptForAade {
  kind: 'RECEIPT' | 'CREDIT';
  series: string;
  number: number | string;
  /** YYYY-MM-DD */
  issuedOn: string;
  lines: ReceiptLine[];
  /** How it was paid: one entry per method (cents); their sum is the receipt's amount. */
  payments: { method: AadePaymentMethod; amount: number }[];
  /** For a CREDIT receipt: the MARK of the receipt it cancels, when that one was registered. */
  cancelsMark?: string | number | null;
}

export interface IssuerForAade {
  /** The centre's ΑΦΜ (nine digits). */
  taxId: string;
  /** The centre's branch at AADE (0 = the main seat). */
  branch?: number;
}

export const INVOICE_NAMESPACE = 'http://www.aade.gr/myDATA/invoice/v1.0';
const ICLS_NAMESPACE = 'https://www.aade.gr/myDATA/incomeClassificaton/v1.0';

export const INVOICE_TYPE = { RECEIPT: '11.2', CREDIT: '11.4' } as const;

export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}

/** Cents as AADE's amount: a decimal with two places ("12.30"). */
export function aadeAmount(cents: number): string {
  const whole = Math.trunc(cents / 100);
  const rest = Math.abs(cents % 100);
  return `${whole}.${String(rest).padStart(2, '0')}`;
}

/** Drops what XML 1.0 cannot carry (control characters) and cuts to `max` characters. */
function clean(value: string, max: number): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const text = value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '').trim();
  return [...text].slice(0, max).join('');
}

function classification(cents: number): string {
  return (
    `<incomeClassification><icls:classificationType>E3_561_003</icls:classificationType>` +
    `<icls:classificationCategory>category1_3</icls:classificationCategory>` +
    `<icls:amount>${aadeAmount(cents)}</icls:amount></incomeClassification>`
  );
}

/** The InvoicesDoc of one receipt. */
export function buildInvoicesDoc(receipt: ReceiptForAade, issuer: IssuerForAade): string {
  const total = receipt.lines.reduce((sum, line) => sum + line.amount, 0);
  const correlated =
    receipt.kind === 'CREDIT' && receipt.cancelsMark != null && String(receipt.cancelsMark) !== ''
      ? `<correlatedInvoices>${String(receipt.cancelsMark)}</correlatedInvoices>`
      : '';
  const header =
    `<invoiceHeader><series>${escapeXml(clean(receipt.series, 50))}</series><aa>${escapeXml(clean(String(receipt.number), 50))}</aa>` +
    `<issueDate>${receipt.issuedOn}</issueDate><invoiceType>${INVOICE_TYPE[receipt.kind]}</invoiceType><currency>EUR</currency>${correlated}</invoiceHeader>`;
  const payments = receipt.payments.length
    ? `<paymentMethods>${receipt.payments
        .map((p) => `<paymentMethodDetails><type>${AADE_PAYMENT_METHOD[p.method]}</type><amount>${aadeAmount(p.amount)}</amount></paymentMethodDetails>`)
        .join('')}</paymentMethods>`
    : '';
  const lines = receipt.lines
    .map((line, i) => {
      const description = clean(line.description, 300);
      return (
        `<invoiceDetails><lineNumber>${i + 1}</lineNumber>${description ? `<itemDescr>${escapeXml(description)}</itemDescr>` : ''}` +
        `<netValue>${aadeAmount(line.amount)}</netValue><vatCategory>7</vatCategory><vatAmount>0.00</vatAmount>` +
        `<vatExemptionCategory>7</vatExemptionCategory>${classification(line.amount)}</invoiceDetails>`
      );
    })
    .join('');
  const summary =
    `<invoiceSummary><totalNetValue>${aadeAmount(total)}</totalNetValue><totalVatAmount>0.00</totalVatAmount>` +
    `<totalWithheldAmount>0.00</totalWithheldAmount><totalFeesAmount>0.00</totalFeesAmount><totalStampDutyAmount>0.00</totalStampDutyAmount>` +
    `<totalOtherTaxesAmount>0.00</totalOtherTaxesAmount><totalDeductionsAmount>0.00</totalDeductionsAmount>` +
    `<totalGrossValue>${aadeAmount(total)}</totalGrossValue>${classification(total)}</invoiceSummary>`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<InvoicesDoc xmlns="${INVOICE_NAMESPACE}" xmlns:icls="${ICLS_NAMESPACE}">` +
    `<invoice><issuer><vatNumber>${escapeXml(clean(issuer.taxId, 30))}</vatNumber><country>GR</country><branch>${issuer.branch ?? 0}</branch></issuer>` +
    `${header}${payments}${lines}${summary}</invoice></InvoicesDoc>\n`
  );
}
