// Two Frontis server processes on one PostgreSQL database, both running the myDATA job every
// second against one AADE stand-in (with AADE's latency, so their runs overlap): every receipt
// is registered once and sent once, whoever claims it.
import { createCipheriv, randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AadeStandIn, startAadeStandIn } from '../support/aade-stand-in';
import { DATABASE_KINDS } from '../support/harness';
import { type FrontisProcess, scratchDatabase, sleep, startFrontis, endFrontis } from '../../../bench/frontis-process';

const RECEIPTS = 40;
/** The centres' settings key both processes are given; the subscription key is stored sealed with it, as the settings keep it. */
const SETTINGS_KEY = randomBytes(32);

function seal(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', SETTINGS_KEY, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
}

describe.runIf(DATABASE_KINDS.includes('postgres'))('myDATA sending across two server processes on one PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>> | undefined;
  let aade: AadeStandIn | undefined;
  let a: FrontisProcess | undefined;
  let b: FrontisProcess | undefined;

  /** As the database's owner (row-level security does not apply to it). */
  async function query<T extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: db!.url });
    await client.connect();
    try {
      return (await client.query<T>(text, params)).rows;
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    aade = await startAadeStandIn({ 'two-processes': 'key-2' });
    aade.delay(40);
    db = await scratchDatabase();
    const env = { DATABASE_URL: db.url, MYDATA_URL: aade.url, MYDATA_EVERY_SECONDS: '1', SETTINGS_ENCRYPTION_KEY: SETTINGS_KEY.toString('base64') };
    // One after the other: the first migrates and creates the centre, the second finds it done.
    a = await startFrontis(env);
    b = await startFrontis(env);
  }, 240_000);

  afterAll(async () => {
    await endFrontis(a, b);
    await db?.drop();
    await aade?.close();
  }, 60_000);

  it('each receipt is registered once and sent once', async () => {
    const [demo] = await query<{ id: number }>(`select id from tenants where slug = 'demo'`);
    const tenantId = demo!.id;
    // Receipts first, myDATA on last: both processes find all of them due at once.
    const values = Array.from(
      { length: RECEIPTS },
      (_, i) => `(${tenantId}, 'Π', ${i + 1}, '2026-10-05', '{"tax_id": "094014201"}', '{"name": "Ελένη"}', 5000, 'CASH')`,
    );
    await query(`insert into receipts (tenant_id, series, number, issued_on, issuer, payer, amount, method) values ${values.join(', ')}`);
    await query(
      `insert into centre_settings (tenant_id, legal_name, tax_id, mydata_enabled, mydata_user_id, mydata_subscription_key)
       values ($1, 'Φροντιστήριο', '094014201', true, 'two-processes', $2)
       on conflict (tenant_id) do update set tax_id = excluded.tax_id, mydata_enabled = true, mydata_user_id = excluded.mydata_user_id,
         mydata_subscription_key = excluded.mydata_subscription_key`,
      [tenantId, seal('key-2')],
    );
    const deadline = Date.now() + 60_000;
    let left = RECEIPTS;
    while (left > 0 && Date.now() < deadline) {
      await sleep(500);
      left = Number((await query<{ n: string }>(`select count(*) as n from receipts where tenant_id = $1 and mark is null`, [tenantId]))[0]!.n);
    }
    expect(left, `${a!.output()}\n${b!.output()}`).toBe(0);
    expect(aade!.registered).toHaveLength(RECEIPTS);
    expect(new Set(aade!.registered.map((r) => r.aa)).size).toBe(RECEIPTS);
    // Not one document sent twice (no duplicate answer was ever needed).
    expect(aade!.requests.filter((r) => r.status === 200)).toHaveLength(RECEIPTS);
    const rows = await query<{ number: number; mark: string; status: string }>(
      `select number, mark, status from receipts where tenant_id = $1 order by number`,
      [tenantId],
    );
    for (const row of rows) {
      expect(row.status).toBe('SENT');
      expect(row.mark).toBe(aade!.registered.find((r) => r.aa === String(row.number))!.mark);
    }
  });
});
