// "Exactly once" (docs/rules.md) across processes on one PostgreSQL: a payment sent under one
// Idempotency-Key to two processes is recorded once, and a process killed (kill -9) while its
// payment waits inside the write transaction leaves nothing behind, so the retry under the same
// key on the other process records it once and answers it again after.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, call, type FrontisProcess, ROOT, scratchDatabase, signIn, sleep, startFrontis, within } from '../../../bench/frontis-process';

type Row = Record<string, any>;

describe('Idempotency-Key across processes on PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>>;
  let a: FrontisProcess;
  let b: FrontisProcess;
  let admin: string;
  let contractId: number;

  const ok = (res: Answer, status = 201) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    return res.body.data as Row;
  };
  const pay = (base: string, key: string, amount: number, month: string) =>
    call(base, 'POST', '/api/payments', {
      token: admin,
      headers: { 'idempotency-key': key },
      body: { contract_id: contractId, kind: 'MONTHLY', month, amount, method: 'CASH', paid_on: '2026-09-20' },
    });
  /** A statement on the scratch database itself (db.admin reaches the test server's own). */
  const query = async (text: string, params: unknown[]) => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      return await client.query(text, params);
    } finally {
      await client.end();
    }
  };
  const paymentsOf = async (amount: number) => (await query('select count(*)::int as n from payments where amount = $1', [amount])).rows[0].n as number;
  const receiptsOf = async (amount: number) =>
    (
      await query(
        'select count(*)::int as n from receipts r join receipt_payments rp on rp.receipt_id = r.id join payments p on p.id = rp.payment_id where p.amount = $1',
        [amount],
      )
    ).rows[0].n as number;

  beforeAll(async () => {
    db = await scratchDatabase();
    const env = { DATABASE_URL: db.url };
    a = await startFrontis(env);
    b = await startFrontis(env);
    admin = (await signIn(a.base, ROOT.username, ROOT.password)).token;
    const category = ok(await call(a.base, 'POST', '/api/contract-categories', { token: admin, body: { name: 'Ετήσιο' } }));
    const student = ok(await call(a.base, 'POST', '/api/students', { token: admin, body: { first_name: 'Νίκος', last_name: 'Δοκιμής' } }));
    contractId = ok(
      await call(a.base, 'POST', '/api/contracts', {
        token: admin,
        body: {
          student_id: student.id,
          category_id: category.id,
          start_date: '2026-09-15',
          end_date: '2027-06-30',
          register_cost: 5000,
          month_cost: 12000,
          with_receipt: true,
        },
      }),
    ).id;
  }, 300_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.drop();
  });

  it('records a payment sent to both processes under one key once, and answers it alike on either', async () => {
    const key = 'two-processes-1';
    const [first, second] = await Promise.all([pay(a.base, key, 1234, '2026-09'), pay(b.base, key, 1234, '2026-09')]);
    const statuses = [first.status, second.status].sort();
    expect([
      [201, 201],
      [201, 409],
    ]).toContainEqual(statuses);
    const paid = [first, second].find((r) => r.status === 201)!;
    for (const base of [a.base, b.base]) {
      const again = await pay(base, key, 1234, '2026-09');
      expect(again.status).toBe(201);
      expect(again.body).toEqual(paid.body);
    }
    expect(await paymentsOf(1234)).toBe(1);
    expect(await receiptsOf(1234)).toBe(1);
    expect((await pay(b.base, key, 1235, '2026-09')).status).toBe(422);
  });

  it('a process killed mid-payment leaves nothing; the retry under its key on the other process pays once', async () => {
    // Hold the payment inside its write transaction (after the key is reserved there): a table lock from outside.
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('begin; lock table payments in share row exclusive mode');
      const key = 'killed-mid-request';
      const inFlight = pay(a.base, key, 4321, '2026-10');
      await within(
        10_000,
        (async () => {
          for (;;) {
            const { rows } = await holder.query(
              `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
            );
            if (rows[0].n > 0) return;
            await sleep(20);
          }
        })(),
        'the payment to wait on the lock',
      );
      await a.kill9();
      expect((await inFlight).status).toBe(0);
      await holder.query('commit');
      const retried = await pay(b.base, key, 4321, '2026-10');
      const payment = ok(retried);
      expect(payment.amount).toBe(4321);
      expect(await paymentsOf(4321)).toBe(1);
      expect(await receiptsOf(4321)).toBe(1);
      const again = await pay(b.base, key, 4321, '2026-10');
      expect(again.status).toBe(201);
      expect(again.body).toEqual(retried.body);
      expect(await paymentsOf(4321)).toBe(1);
    } finally {
      await holder.end();
    }
  });
});
