/**
 * The printed receipt: an A5 PDF in Greek (a fiscal document is written in Greek whatever the
 * reader's language) with the issuer block, series and number, date, payer, lines, the amount
 * in figures and in words, the VAT exemption line, and the MARK with the QR code when myDATA
 * registered it, else that it is not registered yet (or AADE's error). DejaVu Sans carries the
 * Greek glyphs; it comes from an npm package, not from the system.
 */
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { formatMoney } from '../../../domain/money-format';
import { amountInWords, VAT_EXEMPTION_LINE } from '../../../domain/receipt-words';
import type { ReceiptAnswer } from '../../../domain/answers/receipts';

const require = createRequire(import.meta.url);
export const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
export const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

const METHODS: Record<string, string> = { CASH: 'Μετρητά', CREDIT_CARD: 'Κάρτα', BANK_ACCOUNT: 'Τραπεζικός λογαριασμός' };

/** "2026-10-05" -> "05/10/2026". */
const greekDate = (iso: string) => iso.split('-').reverse().join('/');

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** A credit receipt's line naming the receipt it cancels: number, date and MARK when it has one. */
function cancelsLine(r: ReceiptAnswer): string | null {
  if (r.kind !== 'CREDIT' || !r.cancels_bill_number) return null;
  const on = r.cancels_issued_on ? ` της ${greekDate(r.cancels_issued_on)}` : '';
  return `Ακυρώνει την απόδειξη ${r.cancels_bill_number}${on}${r.cancels_mark ? ` (ΜΑΡΚ ${r.cancels_mark})` : ''}`;
}

/** The lines the receipt prints, top to bottom (also what tests read back). */
export function receiptText(r: ReceiptAnswer): {
  title: string;
  /** A credit receipt: the receipt it cancels. */
  cancels: string | null;
  issuer: string[];
  payer: string[];
  lines: string[];
  amount: string;
  words: string;
  state: string[];
} {
  const i = r.issuer;
  const issuer = [
    str(i.legal_name) ?? 'Τα στοιχεία του κέντρου δεν έχουν συμπληρωθεί',
    [str(i.tax_id) && `ΑΦΜ: ${str(i.tax_id)}`, str(i.tax_office) && `ΔΟΥ: ${str(i.tax_office)}`].filter(Boolean).join(' · '),
    [str(i.address), [str(i.postal_code), str(i.city)].filter(Boolean).join(' ')].filter(Boolean).join(', '),
    [str(i.phone) && `Τηλ.: ${str(i.phone)}`, str(i.email)].filter(Boolean).join(' · '),
  ].filter(Boolean);
  const p = r.payer;
  const payer = [`Πελάτης: ${str(p.name) ?? ''}`, str(p.address) ? `Διεύθυνση: ${str(p.address)}` : '', str(p.tax_id) ? `ΑΦΜ: ${str(p.tax_id)}` : ''].filter(
    Boolean,
  );
  const lines = r.lines.map((l) => {
    const student = p.guardian_id ? str(l.student) : null;
    return `${String(l.description ?? '')}${student ? ` (${student})` : ''}: ${formatMoney(Number(l.amount))}`;
  });
  const title = r.kind === 'CREDIT' ? 'Πιστωτικό Στοιχείο Λιανικής' : 'Απόδειξη Παροχής Υπηρεσιών';
  const state: string[] = [];
  if (r.status === 'CANCELLED') state.push('ΑΚΥΡΩΘΗΚΕ με πιστωτικό στοιχείο');
  if (r.kind === 'CREDIT' && r.cancel_reason) state.push(`Αιτία: ${r.cancel_reason}`);
  const cancels = cancelsLine(r);
  if (r.mark) state.push(`ΜΑΡΚ: ${r.mark}`);
  else if (r.error) state.push(`Σφάλμα myDATA: ${r.error}`);
  else state.push('Δεν έχει καταχωριστεί ακόμη στο myDATA');
  return { title, cancels, issuer, payer, lines, amount: `Σύνολο: ${formatMoney(r.amount)}`, words: `Ολογράφως: ${amountInWords(r.amount)}`, state };
}

export async function receiptPdf(r: ReceiptAnswer): Promise<Buffer> {
  const text = receiptText(r);
  const qr = r.qr_url ? await QRCode.toBuffer(r.qr_url, { type: 'png', margin: 1, width: 240 }) : null;
  // The receipt a credit cancels is also in the document's subject, where a reader (or a test) finds it as text.
  const doc = new PDFDocument({
    size: 'A5',
    margin: 36,
    info: { Title: `${text.title} ${r.bill_number}`, ...(text.cancels ? { Subject: text.cancels } : {}) },
  });
  doc.registerFont('body', FONT);
  doc.registerFont('bold', FONT_BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('bold').fontSize(12).text(text.issuer[0]!);
  doc.font('body').fontSize(9);
  for (const line of text.issuer.slice(1)) doc.text(line);
  doc.moveDown();
  doc.font('bold').fontSize(13).text(text.title, { align: 'center' });
  doc
    .font('body')
    .fontSize(10)
    .text(`Σειρά ${r.series} · Αριθμός ${r.number} · Ημερομηνία ${greekDate(r.issued_on)}`, { align: 'center' });
  if (text.cancels) doc.font('bold').fontSize(10).text(text.cancels, { align: 'center' }).font('body');
  doc.moveDown();
  doc.fontSize(10);
  for (const line of text.payer) doc.text(line);
  doc.moveDown();
  for (const line of text.lines) doc.text(line);
  doc.moveDown(0.5);
  doc.font('bold').text(text.amount);
  doc.font('body').text(text.words);
  doc.text(`Τρόπος πληρωμής: ${METHODS[r.method] ?? r.method}`);
  doc.moveDown(0.5);
  doc.fontSize(9).text(VAT_EXEMPTION_LINE);
  doc.moveDown();
  for (const line of text.state) doc.text(line);
  if (r.uid) doc.text(`UID: ${r.uid}`);
  if (qr) {
    doc.moveDown(0.5);
    doc.image(qr, { width: 90 });
  }
  doc.end();
  return done;
}
