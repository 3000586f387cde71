/**
 * The family statement, printable: an A4 PDF in Greek with the receipts' setup (pdfkit, DejaVu
 * Sans for the Greek glyphs): the centre, the guardian, each child's contracts with every
 * line (the registration, each month in the genitive as receipts name it) and what it cost,
 * what was paid and what is left, then the family's totals. Her name is also the document's
 * title, where a reader (or a test) finds it as text.
 */
import PDFDocument from 'pdfkit';
import type { Statement } from '../../../domain/answers/statement';
import { formatMoney } from '../../../domain/money-format';
import { paymentLineText } from '../../../domain/receipt-words';
import { FONT, FONT_BOLD } from '../receipts/pdf';

const STATUS: Record<string, string> = { ACTIVE: 'Ενεργό', WITHDRAWN: 'Διακόπηκε', COMPLETED: 'Ολοκληρώθηκε' };

/** "2026-10-05" -> "05/10/2026". */
const greekDate = (iso: string) => iso.split('-').reverse().join('/');

const figures = (f: { due: number; paid: number; left: number; overdue: number }) =>
  `Χρέωση ${formatMoney(f.due)} · Πληρωμένα ${formatMoney(f.paid)} · Υπόλοιπο ${formatMoney(f.left)} (ληξιπρόθεσμα ${formatMoney(f.overdue)})`;

/** The statement's title: what it is and whose. */
export const statementTitle = (s: Statement) => `Καρτέλα οικογένειας · ${`${s.guardian.first_name} ${s.guardian.last_name}`.trim()}`;

export async function statementPdf(s: Statement): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 48, info: { Title: statementTitle(s), Author: s.centre } });
  doc.registerFont('body', FONT);
  doc.registerFont('bold', FONT_BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('bold').fontSize(13).text(s.centre);
  doc.moveDown(0.5);
  doc.fontSize(15).text('Καρτέλα οικογένειας', { align: 'center' });
  doc
    .font('body')
    .fontSize(10)
    .text(`Ημερομηνία ${greekDate(s.as_of)}`, { align: 'center' });
  doc.moveDown();
  doc.fontSize(11).text(`${s.guardian.first_name} ${s.guardian.last_name}`.trim());
  const contact = [s.guardian.phone && `Τηλ.: ${s.guardian.phone}`, s.guardian.email].filter(Boolean).join(' · ');
  if (contact) doc.fontSize(9).text(contact);
  for (const child of s.children) {
    doc.moveDown();
    doc.font('bold').fontSize(12).text(`${child.first_name} ${child.last_name}`.trim());
    doc.font('body').fontSize(10);
    if (!child.contracts.length) doc.text('Χωρίς συμβόλαια.');
    for (const k of child.contracts) {
      doc.moveDown(0.4);
      const name = k.category ? `${k.category}, ` : '';
      doc.font('bold').text(`${name}${greekDate(k.start_date)} – ${greekDate(k.end_date)} · ${STATUS[k.status] ?? k.status}`);
      doc.font('body').fontSize(9);
      for (const line of k.lines) {
        if (line.owed === 0 && line.paid === 0) continue;
        const what = paymentLineText(line.kind, line.month);
        // A line's payment reference (ISO 11649) goes here, when contracts have them.
        doc.text(`${what}: ${formatMoney(line.owed)} · πληρωμένα ${formatMoney(line.paid)} · υπόλοιπο ${formatMoney(line.left)}`, { indent: 12 });
      }
      doc.fontSize(10).text(figures(k));
    }
    if (child.contracts.length > 1)
      doc
        .font('bold')
        .text(`Σύνολο: ${figures(child)}`)
        .font('body');
  }
  doc.moveDown();
  doc
    .font('bold')
    .fontSize(11)
    .text(`Σύνολο οικογένειας: ${figures(s.totals)}`);
  doc.end();
  return done;
}
