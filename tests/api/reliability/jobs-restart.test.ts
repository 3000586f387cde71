// The embedded database restarted with every job on and work pending for each: myDATA on
// against an AADE that keeps failing, messages to send, reminders due, notices computed every
// second. A server once hung here for good after a restart (the AADE job asked PGlite's one
// connection for a second query from inside its own transaction); now it must keep answering
// for the whole time its jobs run, and still record payments and issue their receipts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AadeStandIn, startAadeStandIn } from '../support/aade-stand-in';
import { type Mailbox, startMailbox } from '../support/mailbox';
import { type Answer, call, endFrontis, type FrontisProcess, ROOT, signIn, sleep, startFrontis, within } from '../../../bench/frontis-process';

const AADE_USER = 'restart-centre';
const AADE_KEY = 'restart-key';
/** How long the restarted server is watched: past the reminders' first run (20 s) and many AADE runs. */
const WATCH_MS = 35_000;
/** A day that is past in every time zone the centre may be in. */
const YESTERDAY = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

interface ContractRow {
  id: number;
  unpaid_months: string[];
  payer_guardian_id: number | null;
}

describe('a PGlite server restarted with every job on and AADE failing', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'frontis-jobs-'));
  let aade: AadeStandIn | undefined;
  let mailbox: Mailbox | undefined;
  let frontis: FrontisProcess | undefined;

  afterAll(async () => {
    await endFrontis(frontis);
    await aade?.close();
    await mailbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('keeps answering and still issues receipts', async () => {
    aade = await startAadeStandIn({ [AADE_USER]: AADE_KEY });
    // AADE is down for the whole test: every send fails and is retried later.
    aade.next(...Array.from({ length: 5000 }, () => ({ kind: 'status', status: 503 }) as const));
    mailbox = await startMailbox();
    const env = {
      DATA_DIR: dataDir,
      DEMO_DATA: '1',
      MYDATA_URL: aade.url,
      MYDATA_EVERY_SECONDS: '1',
      SMTP_URL: mailbox.url,
      OUTBOX_SWEEP_SECONDS: '1',
      NOTIFICATIONS_EVERY_SECONDS: '1',
      ABSENCE_GRACE_SECONDS: '0',
    };

    frontis = await startFrontis(env, 180_000);
    let { token } = await signIn(frontis.base, ROOT.username, ROOT.password);
    const settings = await call(frontis.base, 'GET', '/api/settings', { token });
    expect(settings.status).toBe(200);
    const on = await call(frontis.base, 'PATCH', '/api/settings', {
      token,
      body: {
        version: settings.body.data.version,
        legal_name: 'Φροντιστήριο Δοκιμών',
        tax_id: '094014201',
        mydata_enabled: true,
        mydata_user_id: AADE_USER,
        mydata_subscription_key: AADE_KEY,
        reminder_day: 1,
        // every receipt the demo issued goes to AADE too: much work for the job, all failing
        mydata_send_earlier: true,
      },
    });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    const contracts = await call(frontis.base, 'GET', '/api/contracts?_start=0&_end=200&status=ACTIVE', { token });
    expect(contracts.status).toBe(200);
    const owing = (contracts.body.data as ContractRow[]).filter((c) => c.unpaid_months.length > 0 && c.payer_guardian_id);
    expect(owing.length).toBeGreaterThan(1);
    const pay = (c: ContractRow, t: string) =>
      call(frontis!.base, 'POST', '/api/payments', {
        token: t,
        body: { contract_id: c.id, kind: 'MONTHLY', month: c.unpaid_months[0], amount: 100, method: 'CASH', with_receipt: true, paid_on: YESTERDAY },
      });
    // A receipt waiting for AADE when the server stops.
    const before = await pay(owing[0]!, token);
    expect(before.status, JSON.stringify(before.body)).toBe(201);
    expect(before.body.data.receipt_id).toEqual(expect.any(Number));
    await frontis.stop();
    const sentBefore = aade.requests.length;

    frontis = await startFrontis(env, 90_000);
    const restarted = frontis;
    ({ token } = await signIn(restarted.base, ROOT.username, ROOT.password));
    const slow: string[] = [];
    const timed = async (what: string, request: Promise<Answer>) => {
      const started = Date.now();
      const answer = await within(5_000, request, `${what} did not answer within 5 s:\n${restarted.output()}`);
      if (Date.now() - started > 2_000) slow.push(`${what}: ${Date.now() - started} ms`);
      return answer;
    };
    const end = Date.now() + WATCH_MS;
    let paidAfter: Answer | undefined;
    while (Date.now() < end) {
      expect((await timed('/healthz', call(restarted.base, 'GET', '/healthz'))).status).toBe(200);
      expect((await timed('students', call(restarted.base, 'GET', '/api/students?_start=0&_end=10', { token }))).status).toBe(200);
      if (!paidAfter && Date.now() > end - WATCH_MS / 2) paidAfter = await timed('a payment', pay(owing[1]!, token));
      await sleep(500);
    }
    expect(slow).toEqual([]);
    // No job failed on the way (an AADE that keeps failing is a retry, not a job's failure).
    expect(restarted.output()).not.toMatch(/"level":(50|60)/);

    // The payment recorded while the jobs ran has its receipt.
    expect(paidAfter?.status, JSON.stringify(paidAfter?.body)).toBe(201);
    const payment = await call(restarted.base, 'GET', `/api/payments/${paidAfter!.body.id}`, { token });
    expect(payment.body.data.receipt_id).toEqual(expect.any(Number));
    expect(payment.body.data.bill_number).toMatch(/\d/);
    // The AADE job ran after the restart (and kept failing), and the reminders reached the mailbox.
    expect(aade.requests.length).toBeGreaterThan(sentBefore);
    expect(aade.registered).toEqual([]);
    expect(mailbox.mails.length, restarted.output()).toBeGreaterThan(0);
    const receipts = await call(restarted.base, 'GET', '/api/receipts?_start=0&_end=200', { token });
    const waiting = (receipts.body.data as { id: number; mark: string | null }[]).filter((r) => r.mark === null);
    expect(waiting.map((r) => r.id)).toEqual(expect.arrayContaining([before.body.data.receipt_id, payment.body.data.receipt_id]));
  }, 400_000);
});
