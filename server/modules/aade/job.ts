/**
 * Sending receipts to AADE's myDATA (docs/rules.md, AADE's myDATA). For each centre whose settings
 * turn myDATA on, receipts without a MARK are claimed a few at a time with FOR UPDATE SKIP
 * LOCKED: the claim moves `next_attempt_at` a lease ahead and commits, so another process
 * (or this one's next run) passes them by while the call is under way. Each is sent with the
 * centre's credentials; then, in one short transaction:
 *  - registered: MARK, UID and QR URL stored, status SENT;
 *  - AADE's duplicate answer (the document was registered by an attempt whose answer was
 *    lost): the MARK it names is stored, with the UID AADE derives from the document; the
 *    document is never registered twice;
 *  - refused: status FAILED with AADE's message, and a notification to the centre's ADMINs;
 *  - no answer, a cut connection, 429 or 5xx: tried again after a back-off that doubles from
 *    30 seconds up to an hour (or AADE's Retry-After when longer).
 * A CREDIT receipt waits until the receipt it cancels has its MARK, which it names. Receipts
 * issued before the centre turned myDATA on "from now on" (its `mydata_since`) are never sent.
 */
import { createHash } from 'node:crypto';
import { creditLineText, FEES_LINE_TEXT, paymentLineText } from '../../../domain/receipt-words';
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/types';
import { platform, withTenant } from '../../db/doors';
import { queryRows } from '../../db/statements';
import { tenants } from '../../db/schema/index';
import { notify } from '../notifications/create';
import { type AadeCredentials, lookupQrUrl, sendInvoices, type SendOutcome } from './client';
import { type AadePaymentMethod, buildInvoicesDoc, INVOICE_TYPE, type ReceiptForAade } from './document';

/** How long a claim keeps other processes away: longer than one call may take. */
export const CLAIM_LEASE_SECONDS = 120;
const BATCH = 20;
const FIRST_RETRY_SECONDS = 30;
const LAST_RETRY_SECONDS = 3600;

/** Seconds before attempt `attempts + 1`, after `attempts` failed ones. */
export const backoffSeconds = (attempts: number) => Math.min(LAST_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2 ** Math.max(0, attempts - 1));

/** AADE's UID of a document: SHA-1 of issuer ΑΦΜ, issue date, branch, type, series and number, in upper-case hex. */
export function aadeUid(vat: string, issueDate: string, branch: number | string, invoiceType: string, series: string, aa: string): string {
  return createHash('sha1').update(`${vat}-${issueDate}-${branch}-${invoiceType}-${series}-${aa}`, 'utf8').digest('hex').toUpperCase();
}

interface Claimed {
  id: number;
  kind: 'RECEIPT' | 'CREDIT';
  series: string;
  number: number;
  issued_on: string;
  amount: number;
  method: string;
  lines: { kind?: string; month?: string | null; description?: string | null; amount?: number }[] | null;
  /** The centre's ΑΦΜ as printed on the receipt. */
  issuer_tax_id: string | null;
  attempts: number;
  cancels_mark: string | null;
  cancels_series: string | null;
  cancels_number: number | null;
}

interface Centre {
  taxId: string;
  credentials: AadeCredentials;
}

/**
 * The stored subscription key as AADE wants it. The settings keep it encrypted at rest; the
 * process hands the job the function that opens it (server/jobs/aade.ts).
 */
export type OpenSecret = (stored: string) => string | Promise<string>;

const METHODS: readonly string[] = ['CASH', 'CREDIT_CARD', 'BANK_ACCOUNT'];
const asMethod = (m: string): AadePaymentMethod => (METHODS.includes(m) ? (m as AadePaymentMethod) : 'CASH');

/** The centre's myDATA settings as stored (the key still sealed), when it is on and complete. */
interface StoredCentre {
  taxId: string;
  userId: string;
  sealedKey: string;
}

async function centreOf(tx: Tx, tenantId: number): Promise<StoredCentre | null> {
  const [row] = await queryRows<{ tax_id: string | null; user_id: string | null; key: string | null }>(
    tx,
    sql`select tax_id, mydata_user_id as user_id, mydata_subscription_key as key from centre_settings
        where tenant_id = ${tenantId} and mydata_enabled`,
  );
  if (!row?.tax_id || !row.user_id || !row.key) return null;
  return { taxId: row.tax_id, userId: row.user_id, sealedKey: row.key };
}

/** What a document is built from, for each receipt `r`. */
const DOCUMENT_COLUMNS = sql`r.id, r.kind, r.series, r.number, to_char(r.issued_on, 'YYYY-MM-DD') as issued_on, r.amount, r.method, r.lines,
  r.issuer->>'tax_id' as issuer_tax_id, r.attempts,
  (select o.mark from receipts o where o.tenant_id = r.tenant_id and o.id = r.cancels_receipt_id) as cancels_mark,
  (select o.series from receipts o where o.tenant_id = r.tenant_id and o.id = r.cancels_receipt_id) as cancels_series,
  (select o.number from receipts o where o.tenant_id = r.tenant_id and o.id = r.cancels_receipt_id) as cancels_number`;

/** The myDATA document of one receipt as it stands (null when there is no such receipt). */
export async function receiptDocument(tx: Tx, tenantId: number, receiptId: number): Promise<string | null> {
  const [row] = await queryRows<Claimed & { settings_tax_id: string | null }>(
    tx,
    sql`select ${DOCUMENT_COLUMNS}, (select s.tax_id from centre_settings s where s.tenant_id = r.tenant_id) as settings_tax_id
        from receipts r where r.tenant_id = ${tenantId} and r.id = ${receiptId}`,
  );
  if (!row) return null;
  return buildInvoicesDoc(documentOf(row), { taxId: row.issuer_tax_id || row.settings_tax_id || '' });
}

/** Claims up to BATCH receipts of one centre that are due to be sent. */
async function claim(tx: Tx, tenantId: number): Promise<Claimed[]> {
  return queryRows<Claimed>(
    tx,
    sql`update receipts r set attempts = r.attempts + 1, next_attempt_at = now() + make_interval(secs => ${CLAIM_LEASE_SECONDS})
        from (select x.id from receipts x
              where x.tenant_id = ${tenantId} and x.mark is null and x.status in ('ISSUED', 'CANCELLED')
                and (x.next_attempt_at is null or x.next_attempt_at <= now())
                -- issued before myDATA was turned on "from now on": filed another way, never sent
                and x.created_at >= coalesce((select s.mydata_since from centre_settings s where s.tenant_id = x.tenant_id), '-infinity')
                and not exists (select 1 from receipts o where o.tenant_id = x.tenant_id and o.id = x.cancels_receipt_id
                                and o.mark is null and o.status in ('ISSUED', 'CANCELLED'))
              order by x.id limit ${BATCH} for update of x skip locked) c
        where r.tenant_id = ${tenantId} and r.id = c.id
        returning ${DOCUMENT_COLUMNS}`,
  );
}

/** The document of a claimed receipt, from its lines (AADE's 11.4 carries positive amounts). */
export function documentOf(receipt: Claimed): ReceiptForAade {
  const amount = Math.abs(Number(receipt.amount));
  const given = (receipt.lines ?? [])
    .map((l) => ({
      description: l.description?.trim() || paymentLineText(l.kind ?? '', l.month ?? null),
      amount: Math.abs(Number(l.amount ?? 0)),
    }))
    .filter((l) => l.amount > 0);
  const lines =
    given.length && given.reduce((s, l) => s + l.amount, 0) === amount
      ? given
      : [
          {
            description:
              receipt.kind === 'CREDIT'
                ? creditLineText(`${receipt.cancels_series ?? ''}-${receipt.cancels_number ?? ''}`)
                : (given[0]?.description ?? FEES_LINE_TEXT),
            amount,
          },
        ];
  return {
    kind: receipt.kind,
    series: receipt.series,
    number: receipt.number,
    issuedOn: receipt.issued_on,
    lines,
    payments: [{ method: asMethod(receipt.method), amount }],
    cancelsMark: receipt.cancels_mark,
  };
}

async function record(database: Database, tenantId: number, receipt: Claimed, outcome: SendOutcome, uid: string, foundQrUrl: string | null): Promise<void> {
  await withTenant(database, tenantId, async (tx) => {
    switch (outcome.kind) {
      case 'registered':
      case 'duplicate': {
        const qrUrl = outcome.kind === 'registered' ? outcome.qrUrl : foundQrUrl;
        const got = outcome.kind === 'registered' ? (outcome.uid ?? uid) : uid;
        await tx.execute(sql`update receipts set mark = ${outcome.mark}, uid = ${got}, qr_url = coalesce(${qrUrl}, qr_url), error = null, next_attempt_at = null, sent_at = now(),
                                status = case when status = 'ISSUED' then 'SENT' else status end
                             where tenant_id = ${tenantId} and id = ${receipt.id} and mark is null`);
        return;
      }
      case 'refused': {
        const message = `${outcome.message} (${outcome.code})`;
        const changed = await queryRows<{ id: number }>(
          tx,
          sql`update receipts set status = 'FAILED', error = ${message}, next_attempt_at = null
              where tenant_id = ${tenantId} and id = ${receipt.id} and mark is null returning id`,
        );
        if (changed.length)
          await notify(tx, tenantId, [
            {
              kind: 'receipt-refused',
              params: { receipt: `${receipt.series}-${receipt.number}`, message },
              link: `/receipts/?mode=view&receipt=${receipt.id}`,
              recipients: sql`select id from users where tenant_id = ${tenantId} and status = 'ACTIVE' and role = 'ADMIN'`,
              dedupeKey: `receipt-refused:${receipt.id}:${receipt.attempts}`,
            },
          ]);
        return;
      }
      case 'retry': {
        const wait = Math.max(backoffSeconds(receipt.attempts), outcome.retryAfterSeconds ?? 0);
        await tx.execute(sql`update receipts set next_attempt_at = now() + make_interval(secs => ${wait})
                             where tenant_id = ${tenantId} and id = ${receipt.id} and mark is null`);
        return;
      }
    }
  });
}

export interface AadeRunResult {
  sent: number;
  refused: number;
  retried: number;
}

/** Sends what is due for one centre. */
export async function sendDueReceipts(database: Database, tenantId: number, aadeUrl: string, open: OpenSecret): Promise<AadeRunResult> {
  const result: AadeRunResult = { sent: 0, refused: 0, retried: 0 };
  for (;;) {
    const stored = await withTenant(database, tenantId, async (tx) => {
      const centre = await centreOf(tx, tenantId);
      return centre ? { centre, claimed: await claim(tx, tenantId) } : null;
    });
    if (!stored?.claimed.length) return result;
    // Opened once the claim has committed: opening may read the sealing key through the
    // database, which on PGlite's one connection must not wait inside a transaction.
    const batch = {
      claimed: stored.claimed,
      centre: {
        taxId: stored.centre.taxId,
        credentials: { userId: stored.centre.userId, subscriptionKey: await open(stored.centre.sealedKey) },
      } satisfies Centre,
    };
    for (const receipt of batch.claimed) {
      const doc = documentOf(receipt);
      // The ΑΦΜ the receipt was issued under (the settings' when it was issued without one).
      const taxId = receipt.issuer_tax_id || batch.centre.taxId;
      const xml = buildInvoicesDoc(doc, { taxId });
      const outcome = await sendInvoices(aadeUrl, batch.centre.credentials, xml);
      const uid = aadeUid(taxId, doc.issuedOn, 0, INVOICE_TYPE[doc.kind], doc.series, String(doc.number));
      const qrUrl = outcome.kind === 'duplicate' ? await lookupQrUrl(aadeUrl, batch.centre.credentials, outcome.mark) : null;
      await record(database, tenantId, receipt, outcome, uid, qrUrl);
      if (outcome.kind === 'registered' || outcome.kind === 'duplicate') result.sent++;
      else if (outcome.kind === 'refused') result.refused++;
      else result.retried++;
    }
    // Again until nothing is due: a credit receipt becomes due once the receipt it cancels
    // has its MARK; what was tried waits for its back-off, so this ends.
  }
}

/** One run over every active centre; a centre that fails (its key cannot be opened, the database went away) does not stop the others. */
export async function runAadeJob(
  database: Database,
  aadeUrl: string,
  open: OpenSecret,
  log?: { error(obj: unknown, msg?: string): void },
): Promise<AadeRunResult> {
  const total: AadeRunResult = { sent: 0, refused: 0, retried: 0 };
  const centres = await platform(database).select({ id: tenants.id }).from(tenants).where(sql`${tenants.status} = 'ACTIVE'`);
  for (const { id } of centres) {
    try {
      const r = await sendDueReceipts(database, id, aadeUrl, open);
      total.sent += r.sent;
      total.refused += r.refused;
      total.retried += r.retried;
    } catch (error) {
      log?.error({ err: error, tenantId: id }, 'myDATA: sending a centre’s receipts failed');
    }
  }
  return total;
}
