// docs/rules.md, "Exactly once", through the API: a write sent again under its Idempotency-Key
// is answered as the first time without being done again (one payment, one receipt), two at
// once write once, another request under the same key is 422, a bad key is 400, and a write
// that failed remembers nothing.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupNow } from '../../../server/jobs/cleanup';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { addSignIn, GUARDIAN_PASSWORD } from '../support/portal-helpers';
import { expectError, json, show } from '../support/api-helpers';
import { contractBody, created, makeMoneyWorld, paymentBody, type MoneyWorld, type Row } from '../support/money-helpers';
import { withTenant } from '../../../server/db/doors';
import { queryRows } from '../../../server/db/statements';

describe.each(DATABASE_KINDS)('Idempotency-Key on %s', (kind) => {
  let t: TestApp;
  let w: MoneyWorld;
  let contract: Row;
  let n = 0;
  const newKey = () => `pay-${kind}-${Date.now().toString(36)}-${n++}`;
  const pay = (key: string | undefined, over: Row = {}, token = w.token.SECRETARY) =>
    t.request({
      method: 'POST',
      url: '/api/payments',
      token,
      body: paymentBody(contract.id, over),
      headers: key === undefined ? {} : { 'idempotency-key': key },
    });
  const payments = async () =>
    json(await t.request({ method: 'GET', url: `/api/payments?contract_id=${contract.id}&_end=100`, token: w.token.SECRETARY })).data as Row[];
  const receipts = async () => Number((await t.request({ method: 'GET', url: '/api/receipts?_end=1', token: w.token.SECRETARY })).headers['x-total-count']);

  beforeAll(async () => {
    t = await startApp(kind);
    w = await makeMoneyWorld(t, 1);
    contract = await created(await t.request({ method: 'POST', url: '/api/contracts', token: w.token.ADMIN, body: contractBody(w, { with_receipt: true }) }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers a payment sent again with its first answer, recording one payment and one receipt', async () => {
    const before = { payments: (await payments()).length, receipts: await receipts() };
    const key = newKey();
    const first = await pay(key, { amount: 4321, month: '2026-10' });
    const payment = await created(first);
    expect(payment.receipt_id).toEqual(expect.any(Number));
    const again = await pay(key, { amount: 4321, month: '2026-10' });
    expect(again.statusCode, show(again)).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotency-replayed']).toBe('true');
    const after = await payments();
    expect(after.length).toBe(before.payments + 1);
    expect(after.filter((p) => p.amount === 4321).map((p) => p.id)).toEqual([payment.id]);
    expect(await receipts()).toBe(before.receipts + 1);
    // The same body without the key, or under another key, is a new payment.
    await created(await pay(newKey(), { amount: 4321, month: '2026-10' }));
    expect((await payments()).length).toBe(before.payments + 2);
  });

  it('writes once when the same request arrives twice at the same moment', async () => {
    const before = (await payments()).length;
    const key = newKey();
    const [a, b] = await Promise.all([pay(key, { amount: 1111, month: '2026-11' }), pay(key, { amount: 1111, month: '2026-11' })]);
    const answers = [a, b].map((r) => r.statusCode).sort();
    // The second waits for the first and gives its answer, or is told the first is still running.
    expect([
      [201, 201],
      [201, 409],
    ]).toContainEqual(answers);
    for (const r of [a, b]) if (r.statusCode === 409) expectError(r, 409, 'in-progress');
    if (a.statusCode === 201 && b.statusCode === 201) expect(a.body).toBe(b.body);
    expect((await payments()).length).toBe(before + 1);
    // Once answered, the key gives that answer to anyone retrying.
    const third = await pay(key, { amount: 1111, month: '2026-11' });
    expect(third.statusCode).toBe(201);
    expect(json(third).data.id).toBe(json([a, b].find((r) => r.statusCode === 201)!).data.id);
  });

  it('gives a versioned update sent three times at once one answer: never stale for the others', async () => {
    const payment = await created(await pay(newKey(), { amount: 1212, month: '2027-06' }));
    const key = newKey();
    const patch = () =>
      t.request({
        method: 'PATCH',
        url: `/api/payments/${payment.id}`,
        token: w.token.ADMIN,
        body: { version: payment.version, description: 'Μία φορά' },
        headers: { 'idempotency-key': key },
      });
    const answers = await Promise.all([patch(), patch(), patch()]);
    for (const r of answers) {
      if (r.statusCode === 409) expectError(r, 409, 'in-progress');
      else expect(r.statusCode, show(r)).toBe(200);
    }
    const done = answers.filter((r) => r.statusCode === 200);
    expect(done.length).toBeGreaterThan(0);
    for (const r of done) expect(r.body).toBe(done[0]!.body);
    expect(json(done[0]!).data.version).toBe(payment.version + 1);
  });

  it('refuses the same key with another request (422) and changes nothing', async () => {
    const key = newKey();
    await created(await pay(key, { amount: 2222, month: '2026-12' }));
    const before = (await payments()).length;
    expectError(await pay(key, { amount: 2223, month: '2026-12' }), 422, 'idempotency-mismatch');
    const otherPath = await t.request({
      method: 'POST',
      url: '/api/classes',
      token: w.token.SECRETARY,
      body: { name: 'Γ΄' },
      headers: { 'idempotency-key': key },
    });
    expectError(otherPath, 422, 'idempotency-mismatch');
    expect((await payments()).length).toBe(before);
  });

  it('keeps a key to its own account: another user with the same key writes her own', async () => {
    const key = newKey();
    const mine = await created(await pay(key, { amount: 3333, month: '2027-01' }));
    const hers = await created(await pay(key, { amount: 3333, month: '2027-01' }, w.token.ADMIN));
    expect(hers.id).not.toBe(mine.id);
  });

  it('refuses a bad key with 400 validation and writes nothing', async () => {
    const before = (await payments()).length;
    for (const key of ['', 'x'.repeat(256), 'with space', 'ελληνικά', 'tab\there']) {
      expectError(await pay(key), 400, 'validation', { 'idempotency-key': 'invalid-format' });
    }
    expect(await pay('x'.repeat(255), { amount: 1, month: '2027-02' }).then((r) => r.statusCode)).toBe(201);
    expect((await payments()).length).toBe(before + 1);
  });

  it('remembers nothing of a write that failed: the corrected retry under the same key is done', async () => {
    const key = newKey();
    const refused = await pay(key, { amount: 5555, month: '2027-03', contract_id: 999_999 });
    expect(refused.statusCode, show(refused)).toBe(400);
    // Same request again: refused again, not replayed from memory (the write rolled back).
    expect((await pay(key, { amount: 5555, month: '2027-03', contract_id: 999_999 })).statusCode).toBe(400);
    const ok = await pay(key, { amount: 5555, month: '2027-03' });
    expect(ok.statusCode, show(ok)).toBe(201);
  });

  it('answers a retried update and delete as the first time', async () => {
    const payment = await created(await pay(newKey(), { amount: 6666, month: '2027-04' }));
    const key = newKey();
    const body = { version: payment.version, description: 'Διόρθωση' };
    const patch = (k: string) =>
      t.request({ method: 'PATCH', url: `/api/payments/${payment.id}`, token: w.token.ADMIN, body, headers: { 'idempotency-key': k } });
    const first = await patch(key);
    expect(first.statusCode, show(first)).toBe(200);
    expect(json(first).data.version).toBe(payment.version + 1);
    // Done again, the same version would be stale: the retry is answered from memory.
    const again = await patch(key);
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expectError(await patch(newKey()), 409, 'stale');

    const plain = await created(await pay(newKey(), { amount: 7777, month: '2027-05', with_receipt: false }));
    const remove = (k: string) => t.request({ method: 'DELETE', url: `/api/payments/${plain.id}`, token: w.token.ADMIN, headers: { 'idempotency-key': k } });
    const deleteKey = newKey();
    expect((await remove(deleteKey)).statusCode).toBe(204);
    expect((await remove(deleteKey)).statusCode).toBe(204);
    expectError(await remove(newKey()), 404, 'not-found');
  });

  it("answers a guardian's retried portal write (her own family's transaction) as the first time", async () => {
    const email = `mother-${kind}@example.gr`;
    const guardian = await created(
      await t.request({
        method: 'POST',
        url: '/api/guardians',
        token: w.token.ADMIN,
        body: { first_name: 'Ελένη', last_name: 'Δοκιμής', relation: 'MOTHER', email, student_ids: [w.students[0]!.id] },
      }),
    );
    const [demo] = await queryRows<{ id: number }>(t.database.db, sql`select id from tenants where slug = 'demo'`);
    await addSignIn(t, Number(demo!.id), guardian);
    const token = (await t.signIn(email, GUARDIAN_PASSWORD)).token;
    const me = json(await t.request({ method: 'GET', url: '/api/portal/me', token })).data.guardian as Row;
    const key = newKey();
    const patch = (k: string) =>
      t.request({ method: 'PATCH', url: '/api/portal/me', token, body: { version: me.version, phone: '6912345678' }, headers: { 'idempotency-key': k } });
    const first = await patch(key);
    expect(first.statusCode, show(first)).toBe(200);
    // Done again, the same version would now be stale: the retry is answered from memory.
    const again = await patch(key);
    expect(again.statusCode, show(again)).toBe(200);
    expect(again.body).toBe(first.body);
    expectError(await patch(newKey()), 409, 'stale');
  });

  it('forgets a key after 24 hours (the cleanup job): the same request is then a new write', async () => {
    const key = newKey();
    const first = await created(await pay(key, { amount: 2424, month: '2026-09' }));
    const [demo] = await queryRows<{ id: number }>(t.database.db, sql`select id from tenants where slug = 'demo'`);
    const tenantId = Number(demo!.id);
    const kept = newKey();
    await created(await pay(kept, { amount: 2425, month: '2026-09' }));
    await withTenant(t.database, tenantId, (tx) => tx.execute(sql`update idempotency_keys set created_at = now() - interval '25 hours' where key = ${key}`));
    await cleanupNow(t.database, t.config);
    const left = await withTenant(t.database, tenantId, (tx) =>
      queryRows<{ key: string }>(tx, sql`select key from idempotency_keys where key in (${key}, ${kept})`),
    );
    expect(left.map((r) => r.key)).toEqual([kept]);
    const later = await created(await pay(key, { amount: 2424, month: '2026-09' }));
    expect(later.id).not.toBe(first.id);
  });
});
