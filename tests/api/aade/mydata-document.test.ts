// The myDATA document of a receipt, as AADE receives it: every generated receipt (any series,
// number, date, lines, Greek or hostile text, methods) validates against AADE's
// InvoicesDoc-v2.0.1.xsd (xmllint), is a 11.2 or a 11.4 naming the MARK it cancels, VAT-exempt
// (7/7), classified category1_3 / E3_561_003, with the payment method's code and totals equal
// to its lines.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildInvoicesDoc, type ReceiptForAade } from '../../../server/modules/aade/document';
import { RESPONSE_XSD, startAadeStandIn, validateXml } from '../support/aade-stand-in';

const day = fc
  .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const text = fc.oneof(fc.string({ maxLength: 400 }), fc.constantFrom('Δίδακτρα Οκτωβρίου 2026', 'Εγγραφή', 'Φυσική & Χημεία <Β΄ Λυκείου>', '"ΑΠΥ" \'Α\''));
const method = fc.constantFrom('CASH' as const, 'CREDIT_CARD' as const, 'BANK_ACCOUNT' as const);
const receipt: fc.Arbitrary<ReceiptForAade> = fc
  .record({
    kind: fc.constantFrom('RECEIPT' as const, 'CREDIT' as const),
    series: fc.oneof(fc.constantFrom('Α', 'ΑΠΥ', 'B-2026'), fc.string({ minLength: 1, maxLength: 60 })),
    number: fc.integer({ min: 1, max: 9_999_999 }),
    issuedOn: day,
    lines: fc.array(fc.record({ description: text, amount: fc.integer({ min: 1, max: 5_000_000 }) }), { minLength: 1, maxLength: 4 }),
    method,
    cancelsMark: fc.option(fc.bigInt({ min: 1n, max: 999_999_999_999_999n }).map(String)),
  })
  .map(({ method: m, ...r }) => ({ ...r, payments: [{ method: m, amount: r.lines.reduce((s, l) => s + l.amount, 0) }] }));

describe('the myDATA document of a receipt', () => {
  it('validates against AADE’s InvoicesDoc schema for every generated receipt', async () => {
    await fc.assert(
      fc.asyncProperty(receipt, fc.stringMatching(/^\d{9}$/), async (r, taxId) => {
        const xml = buildInvoicesDoc(r, { taxId });
        expect(await validateXml(xml)).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it('says what AADE needs: type, exemption, classification, method code, totals, the cancelled MARK', () => {
    const credit = buildInvoicesDoc(
      {
        kind: 'CREDIT',
        series: 'Α',
        number: 7,
        issuedOn: '2026-11-03',
        lines: [
          { description: 'Δίδακτρα Οκτωβρίου', amount: 12_000 },
          { description: 'Εγγραφή', amount: 5_050 },
        ],
        payments: [{ method: 'CREDIT_CARD', amount: 17_050 }],
        cancelsMark: '400001000000123',
      },
      { taxId: '094014201' },
    );
    expect(credit).toContain('<invoiceType>11.4</invoiceType>');
    expect(credit).toContain('<correlatedInvoices>400001000000123</correlatedInvoices>');
    expect(credit).toContain('<vatNumber>094014201</vatNumber><country>GR</country><branch>0</branch>');
    expect(credit).not.toContain('<counterpart>');
    expect(credit.match(/<vatCategory>7<\/vatCategory><vatAmount>0.00<\/vatAmount><vatExemptionCategory>7<\/vatExemptionCategory>/g)).toHaveLength(2);
    expect(credit).toContain('<paymentMethodDetails><type>7</type><amount>170.50</amount></paymentMethodDetails>');
    expect(credit).toContain('<totalGrossValue>170.50</totalGrossValue>');
    expect(
      credit.match(/<icls:classificationType>E3_561_003<\/icls:classificationType><icls:classificationCategory>category1_3<\/icls:classificationCategory>/g),
    ).toHaveLength(3);

    const receipt = buildInvoicesDoc(
      { kind: 'RECEIPT', series: 'Α', number: 8, issuedOn: '2026-11-03', lines: [{ description: 'x', amount: 1 }], payments: [{ method: 'CASH', amount: 1 }] },
      { taxId: '094014201' },
    );
    expect(receipt).toContain('<invoiceType>11.2</invoiceType>');
    expect(receipt).not.toContain('correlatedInvoices');
    expect(receipt).toContain('<type>3</type><amount>0.01</amount>');
    const bank = buildInvoicesDoc(
      {
        kind: 'RECEIPT',
        series: 'Α',
        number: 9,
        issuedOn: '2026-11-03',
        lines: [{ description: 'x', amount: 100 }],
        payments: [{ method: 'BANK_ACCOUNT', amount: 100 }],
      },
      { taxId: '094014201' },
    );
    expect(bank).toContain('<type>1</type>');
  });

  it('the stand-in answers AADE’s ResponseDoc: a MARK, then the duplicate error, and refuses a document that breaks the schema', async () => {
    const aade = await startAadeStandIn({ user: 'key' });
    try {
      const xml = buildInvoicesDoc(
        {
          kind: 'RECEIPT',
          series: 'Α',
          number: 1,
          issuedOn: '2026-11-03',
          lines: [{ description: 'Εγγραφή', amount: 5000 }],
          payments: [{ method: 'CASH', amount: 5000 }],
        },
        { taxId: '094014201' },
      );
      const post = (body: string, headers: Record<string, string> = { 'aade-user-id': 'user', 'ocp-apim-subscription-key': 'key' }) =>
        fetch(`${aade.url}/SendInvoices`, { method: 'POST', headers: { 'content-type': 'application/xml', ...headers }, body });
      const first = await (await post(xml)).text();
      expect(await validateXml(first, RESPONSE_XSD)).toEqual([]);
      expect(first).toMatch(/<invoiceMark>\d+<\/invoiceMark>.*<statusCode>Success<\/statusCode>/);
      const again = await (await post(xml)).text();
      expect(await validateXml(again, RESPONSE_XSD)).toEqual([]);
      expect(again).toContain('<code>228</code>');
      expect(again).toContain(`MARK:${aade.registered[0]!.mark}`);
      const broken = await (await post(xml.replace('<invoiceType>11.2</invoiceType>', '<invoiceType>99</invoiceType>'))).text();
      expect(broken).toContain('<statusCode>XMLSyntaxError</statusCode>');
      expect((await post(xml, { 'aade-user-id': 'user', 'ocp-apim-subscription-key': 'wrong' })).status).toBe(401);
      expect(aade.registered).toHaveLength(1);
    } finally {
      await aade.close();
    }
  });
});
