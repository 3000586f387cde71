// Sending receipts to myDATA, against a local AADE stand-in (tests/api/support/aade-stand-in.ts) that
// checks the credentials, validates every document against AADE's schema and registers it
// under AADE's UID: a registered receipt keeps its MARK, UID and QR URL; a refused one shows
// AADE's message on the receipt and to ADMIN; 429, 5xx and a cut connection (before or after
// AADE registered it) are tried again later without a second registration; a credit receipt
// is sent as 11.4 naming the cancelled receipt's MARK; with myDATA off nothing is sent; two
// database clients (as two server processes) sending at once send each receipt once.
// Receipts are written as the issuing transaction leaves them (rows in receipts).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { subscriptionKeyOpener } from '../../../server/modules/aade/credentials';
import { runAadeJob } from '../../../server/modules/aade/job';
import { expectError, json } from '../support/api-helpers';
import { type AadeStandIn, startAadeStandIn, validateXml } from '../support/aade-stand-in';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { makeMoneyWorld, type MoneyWorld, type Row } from '../support/money-helpers';
import type { Database } from '../../../server/db/types';
import { openDatabase } from '../../../server/db/open';
import { platform, withTenant } from '../../../server/db/doors';
import { queryRows } from '../../../server/db/statements';

const USER = 'frontis-demo';
const KEY = 'subscription-key-1';
const TAX_ID = '094014201';
const plain = (stored: string) => stored;

interface Receipt {
  id: number;
  series: string;
  number: number;
  status: string;
  mark: string | null;
  uid: string | null;
  qr_url: string | null;
  error: string | null;
  attempts: number;
  sent_at: string | null;
}

describe.each(DATABASE_KINDS)('sending receipts to myDATA on %s', (kind) => {
  let aade: AadeStandIn;
  let t: TestApp;
  let w: MoneyWorld;
  let tenantId: number;
  let series = 0;

  const run = (database: Database = t.database) => runAadeJob(database, aade.url, plain);
  const tx = <T>(fn: (q: Parameters<Parameters<typeof withTenant>[2]>[0]) => Promise<T>) => withTenant(t.database, tenantId, fn);

  async function settings(values: { enabled: boolean; user?: string; key?: string }) {
    await tx((q) =>
      q.execute(sql`insert into centre_settings (tenant_id, legal_name, tax_id, tax_office, address, city, postal_code, mydata_enabled, mydata_user_id, mydata_subscription_key)
                    values (${tenantId}, 'Φροντιστήριο Δοκιμής Ε.Ε.', ${TAX_ID}, 'Α΄ Αθηνών', 'Πανεπιστημίου 10', 'Αθήνα', '10671', ${values.enabled}, ${values.user ?? USER}, ${values.key ?? KEY})
                    on conflict (tenant_id) do update set mydata_enabled = excluded.mydata_enabled, mydata_user_id = excluded.mydata_user_id,
                      mydata_subscription_key = excluded.mydata_subscription_key, mydata_since = null`),
    );
  }

  /** A receipt as the issuing transaction writes it, in a series of its own per test. */
  async function issue(over: { kind?: 'RECEIPT' | 'CREDIT'; amount?: number; method?: string; cancels?: number; seriesName?: string; number?: number } = {}) {
    const amount = over.amount ?? 12_050;
    const lines = [{ kind: 'MONTHLY', month: '2026-10', description: 'Δίδακτρα Οκτωβρίου 2026', amount }];
    const [row] = await tx((q) =>
      queryRows<Receipt>(
        q,
        sql`insert into receipts (tenant_id, series, number, issued_on, kind, issuer, payer, lines, amount, method, cancels_receipt_id)
            values (${tenantId}, ${over.seriesName ?? `Τ${series}`}, ${over.number ?? 1}, '2026-10-05', ${over.kind ?? 'RECEIPT'},
                    ${JSON.stringify({ legal_name: 'Φροντιστήριο Δοκιμής Ε.Ε.', tax_id: TAX_ID })}::jsonb,
                    ${JSON.stringify({ name: 'Ελένη Παπαδοπούλου', tax_id: null })}::jsonb, ${JSON.stringify(lines)}::jsonb, ${amount}, ${over.method ?? 'CASH'}, ${over.cancels ?? null})
            returning id, series, number, status, mark, uid, qr_url, error, attempts, sent_at`,
      ),
    );
    return row!;
  }

  const receipt = async (id: number) =>
    (
      await tx((q) =>
        queryRows<Receipt>(
          q,
          sql`select id, series, number, status, mark, uid, qr_url, error, attempts, sent_at, next_attempt_at > now() as waiting from receipts where tenant_id = ${tenantId} and id = ${id}`,
        ),
      )
    )[0] as Receipt & { waiting: boolean };
  /** The back-off has passed (instead of waiting for it). */
  const due = () => tx((q) => q.execute(sql`update receipts set next_attempt_at = now() - interval '1 second' where tenant_id = ${tenantId} and mark is null`));
  const registeredAs = (r: Receipt) => aade.registered.filter((x) => x.series === r.series && x.aa === String(r.number));

  beforeAll(async () => {
    aade = await startAadeStandIn({ [USER]: KEY });
    t = await startApp(kind, { aadeUrl: aade.url });
    w = await makeMoneyWorld(t, 1);
    const [demo] = await queryRows<{ id: number }>(platform(t.database), sql`select id from tenants where slug = 'demo'`);
    tenantId = Number(demo!.id);
    await settings({ enabled: true });
  });
  afterAll(async () => {
    await t?.close();
    await aade?.close();
  });
  beforeEach(async () => {
    series++;
    // Whatever an earlier test left unsent stays out of this one's way.
    await tx((q) =>
      q.execute(sql`update receipts set status = 'FAILED', error = coalesce(error, 'left by an earlier test') where tenant_id = ${tenantId} and mark is null`),
    );
  });

  it('a registered receipt keeps AADE’s MARK, UID and QR URL (SENT), sent as 11.2 with the centre’s credentials', async () => {
    const r = await issue({ method: 'CREDIT_CARD' });
    expect(await run()).toEqual({ sent: 1, refused: 0, retried: 0 });
    const [doc] = registeredAs(r);
    expect(doc).toBeDefined();
    expect(doc!.userId).toBe(USER);
    expect(doc!.invoiceType).toBe('11.2');
    expect(doc!.xml).toContain('<paymentMethodDetails><type>7</type><amount>120.50</amount>');
    expect(doc!.xml).toContain('<itemDescr>Δίδακτρα Οκτωβρίου 2026</itemDescr>');
    const after = await receipt(r.id);
    expect(after).toMatchObject({ status: 'SENT', mark: doc!.mark, uid: doc!.uid, qr_url: doc!.qrUrl, error: null });
    expect(after.sent_at).not.toBeNull();
    // Sent once: a later run has nothing to send.
    expect(await run()).toEqual({ sent: 0, refused: 0, retried: 0 });
    expect(registeredAs(r)).toHaveLength(1);
  });

  it('a refused receipt shows AADE’s message (FAILED) and tells the centre’s ADMIN, not the SECRETARY', async () => {
    const r = await issue();
    aade.next({ kind: 'refuse', code: '203', message: 'Το ΑΦΜ του εκδότη δεν ανήκει στον χρήστη' });
    expect(await run()).toEqual({ sent: 0, refused: 1, retried: 0 });
    const after = await receipt(r.id);
    expect(after.status).toBe('FAILED');
    expect(after.mark).toBeNull();
    expect(after.error).toBe('Το ΑΦΜ του εκδότη δεν ανήκει στον χρήστη (203)');
    const inbox = json(await t.request({ url: '/api/notifications', token: w.token.ADMIN }));
    const note = (inbox.data as Row[]).find((n) => n.kind === 'receipt-refused');
    expect(note, JSON.stringify(inbox)).toBeDefined();
    expect(note!.title).toBe('Η ΑΑΔΕ απέρριψε απόδειξη');
    expect(note!.body).toBe(`Η απόδειξη ${r.series}-${r.number} δεν καταχωρίστηκε στο myDATA: Το ΑΦΜ του εκδότη δεν ανήκει στον χρήστη (203)`);
    const secretary = json(await t.request({ url: '/api/notifications', token: w.token.SECRETARY }));
    expect((secretary.data as Row[]).some((n) => n.kind === 'receipt-refused')).toBe(false);
    // Not sent again by itself.
    await due();
    expect(await run()).toEqual({ sent: 0, refused: 0, retried: 0 });
  });

  it.each([
    ['429', { kind: 'status', status: 429 }],
    ['500', { kind: 'status', status: 500 }],
    ['503', { kind: 'status', status: 503 }],
    ['a connection cut before AADE registered it', { kind: 'drop' }],
    ['a connection cut after AADE registered it (the answer lost)', { kind: 'drop-after-register' }],
  ] as const)('after %s the receipt is tried again later and registered once', async (_name, behaviour) => {
    const r = await issue();
    aade.next(behaviour, behaviour);
    expect(await run()).toEqual({ sent: 0, refused: 0, retried: 1 });
    const waiting = await receipt(r.id);
    expect(waiting).toMatchObject({ status: 'ISSUED', mark: null, attempts: 1, waiting: true });
    // Not before its back-off.
    expect(await run()).toEqual({ sent: 0, refused: 0, retried: 0 });
    await due();
    expect(await run()).toEqual({ sent: 0, refused: 0, retried: 1 });
    await due();
    expect(await run()).toEqual({ sent: 1, refused: 0, retried: 0 });
    const registered = registeredAs(r);
    expect(registered).toHaveLength(1);
    // After a lost answer the QR URL comes from AADE's record of the document.
    expect(await receipt(r.id)).toMatchObject({
      status: 'SENT',
      mark: registered[0]!.mark,
      uid: registered[0]!.uid,
      qr_url: registered[0]!.qrUrl,
      attempts: 3,
    });
  });

  it('a credit receipt waits for the MARK of the receipt it cancels and is sent as 11.4 naming it', async () => {
    const original = await issue({ number: 1 });
    await tx((q) => q.execute(sql`update receipts set status = 'CANCELLED' where tenant_id = ${tenantId} and id = ${original.id}`));
    const credit = await issue({ kind: 'CREDIT', number: 2, cancels: original.id });
    aade.next({ kind: 'status', status: 500 });
    // The original fails this time: the credit receipt is not sent before it.
    expect(await run()).toEqual({ sent: 0, refused: 0, retried: 1 });
    expect(registeredAs(credit)).toHaveLength(0);
    await due();
    expect(await run()).toEqual({ sent: 2, refused: 0, retried: 0 });
    const [first] = registeredAs(original);
    const [second] = registeredAs(credit);
    expect(second!.invoiceType).toBe('11.4');
    expect(second!.correlated).toEqual([first!.mark]);
    expect(await receipt(original.id)).toMatchObject({ status: 'CANCELLED', mark: first!.mark });
    expect(await receipt(credit.id)).toMatchObject({ status: 'SENT', mark: second!.mark });
  });

  it('GET /api/receipts/<id>/mydata.xml answers the document as sent, valid against AADE’s schema; office staff only', async () => {
    const original = await issue({ number: 1, method: 'BANK_ACCOUNT' });
    expect(await run()).toMatchObject({ sent: 1 });
    const credit = await issue({ kind: 'CREDIT', number: 2, cancels: original.id });
    for (const [r, type] of [
      [original, '11.2'],
      [credit, '11.4'],
    ] as const) {
      const res = await t.request({ url: `/api/receipts/${r.id}/mydata.xml`, token: w.token.SECRETARY });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toContain('application/xml');
      expect(await validateXml(res.body)).toEqual([]);
      expect(res.body).toContain(`<invoiceType>${type}</invoiceType>`);
      expect(res.body).toContain(`<vatNumber>${TAX_ID}</vatNumber>`);
    }
    const creditDoc = (await t.request({ url: `/api/receipts/${credit.id}/mydata.xml`, token: w.token.ADMIN })).body;
    expect(creditDoc).toContain(`<correlatedInvoices>${(await receipt(original.id)).mark}</correlatedInvoices>`);
    // What the job sent for the original is what the route shows.
    expect((await t.request({ url: `/api/receipts/${original.id}/mydata.xml`, token: w.token.ADMIN })).body).toContain(registeredAs(original)[0]!.xml);
    expectError(await t.request({ url: '/api/receipts/999999/mydata.xml', token: w.token.ADMIN }), 404, 'not-found');
    expectError(await t.request({ url: '/api/receipts/abc/mydata.xml', token: w.token.ADMIN }), 404, 'not-found');
    expectError(await t.request({ url: `/api/receipts/${original.id}/mydata.xml` }), 401, 'unauthorized');
    const other = await t.createTenant(`mydata${kind === 'pglite' ? 'a' : 'b'}`);
    expectError(
      await t.request({ url: `/api/receipts/${original.id}/mydata.xml`, token: other.admin.token, tenant: `mydata${kind === 'pglite' ? 'a' : 'b'}` }),
      404,
      'not-found',
    );
  });

  it('with myDATA off nothing is sent; wrong credentials are AADE’s refusal', async () => {
    await settings({ enabled: false });
    try {
      const r = await issue();
      const before = aade.requests.length;
      expect(await run()).toEqual({ sent: 0, refused: 0, retried: 0 });
      expect(aade.requests.length).toBe(before);
      expect(await receipt(r.id)).toMatchObject({ status: 'ISSUED', attempts: 0 });
      await settings({ enabled: true, key: 'wrong-key' });
      expect(await run()).toEqual({ sent: 0, refused: 1, retried: 0 });
      expect((await receipt(r.id)).error).toContain('Access denied');
    } finally {
      await settings({ enabled: true });
    }
  });

  it('turning myDATA on with receipts already issued asks whether to send them; "from now on" sends only the later ones', async () => {
    const admin = (method: 'GET' | 'PATCH', body?: unknown) => t.request({ method, url: '/api/settings', token: w.token.ADMIN, body });
    // As the server runs it: the key stored sealed by the settings, opened by the job.
    const sealedRun = () => runAadeJob(t.database, aade.url, subscriptionKeyOpener(t.database));
    try {
      await settings({ enabled: false });
      const earlier = [await issue({ number: 1 }), await issue({ number: 2 })];
      const off = json(await admin('GET')).data;
      expect(off).toMatchObject({ mydata_enabled: false, mydata_unsent: 2, mydata_since: null });

      // No choice made: refused, nothing changes.
      const on = { version: off.version, mydata_enabled: true, mydata_user_id: USER, mydata_subscription_key: KEY };
      expectError(await admin('PATCH', on), 400, 'validation', { mydata_send_earlier: 'required' });
      expect(json(await admin('GET')).data).toMatchObject({ mydata_enabled: false, version: off.version });

      const fromNow = json(await admin('PATCH', { ...on, mydata_send_earlier: false })).data;
      expect(fromNow.mydata_enabled).toBe(true);
      expect(Date.parse(fromNow.mydata_since)).toBeGreaterThan(Date.now() - 60_000);
      const later = await issue({ number: 3 });
      expect(await sealedRun()).toEqual({ sent: 1, refused: 0, retried: 0 });
      expect(registeredAs(later)).toHaveLength(1);
      for (const r of earlier) {
        expect(registeredAs(r)).toEqual([]);
        expect((await receipt(r.id)).mark).toBeNull();
      }
      expect(json(await admin('GET')).data.mydata_unsent).toBe(2);

      // Off and on again, choosing to send them: now they go too, once each.
      const offAgain = json(await admin('PATCH', { version: fromNow.version, mydata_enabled: false })).data;
      const sendAll = json(await admin('PATCH', { version: offAgain.version, mydata_enabled: true, mydata_send_earlier: true })).data;
      expect(sendAll).toMatchObject({ mydata_enabled: true, mydata_since: null });
      expect(await sealedRun()).toEqual({ sent: 2, refused: 0, retried: 0 });
      for (const r of [...earlier, later]) expect(registeredAs(r)).toHaveLength(1);
      expect(json(await admin('GET')).data.mydata_unsent).toBe(0);
    } finally {
      await settings({ enabled: true });
    }
  });

  // two clients on one database need a database server: an embedded PGlite has one client
  if (kind === 'postgres') {
    it('two database clients sending at once (two server processes) register each receipt once', async () => {
      const made: Receipt[] = [];
      for (let i = 1; i <= 45; i++) made.push(await issue({ number: i }));
      const before = aade.requests.length;
      const second = await openDatabase({ url: t.config.databaseUrl });
      aade.delay(40);
      try {
        const [a, b] = await Promise.all([run(t.database), run(second)]);
        // Which of the two sends how many depends on the machine's load; that together they
        // sent each receipt once, and AADE registered none twice, does not.
        expect(a.sent + b.sent, JSON.stringify({ a, b })).toBe(45);
      } finally {
        aade.delay(0);
        await second.close();
      }
      expect(aade.requests.length - before).toBe(45);
      for (const r of made) expect(registeredAs(r)).toHaveLength(1);
    });
  }
});
