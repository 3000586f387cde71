// /metrics (Prometheus's text format behind METRICS_TOKEN) and /healthz's `degraded`: the
// token, the format, the figures moving under a few requests and refusals, each job's queue
// age, the receipts waiting for AADE, and degraded when the AADE queue is stuck or (on a
// PostgreSQL server) the synchronous standby is missing.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { expectError, expectStatus, json } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { openDatabase } from '../../../server/db/open';
import { withTenant } from '../../../server/db/doors';
import { has, parseExposition, valueOf } from './metrics-helpers';

const TOKEN = 'scrape-token-1';

describe.each(DATABASE_KINDS)('metrics and health on %s', (kind) => {
  let t: TestApp;
  let tenantId: number;
  let adminToken: string;

  const scrape = async (token: string | null = TOKEN) => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: token === null ? {} : { authorization: `Bearer ${token}` } });
    return res;
  };
  const samples = async () => {
    const res = await scrape();
    expectStatus(res, 200);
    return parseExposition(res.body).samples;
  };
  const health = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expectStatus(res, 200);
    return json(res);
  };
  const tx = <T>(fn: Parameters<typeof withTenant<T>>[2]) => withTenant(t.database, tenantId, fn);

  beforeAll(async () => {
    t = await startApp(kind, {
      metricsToken: TOKEN,
      loginRateLimit: { perUser: 2, perAddress: 10_000, windowSeconds: 900 },
    });
    const centre = await t.createTenant('metrica');
    tenantId = centre.tenantId;
    adminToken = centre.admin.token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 404 when no METRICS_TOKEN is set, 401 to a missing or wrong token', async () => {
    const set = t.config.metricsToken;
    t.config.metricsToken = undefined;
    try {
      expectError(await scrape(), 404, 'not-found');
    } finally {
      t.config.metricsToken = set;
    }
    expectError(await scrape(null), 401, 'unauthorized');
    const wrong = await scrape('scrape-token-2');
    expectError(wrong, 401, 'unauthorized');
    expect(wrong.headers['www-authenticate']).toBe('Bearer');
    expect(wrong.body).not.toContain('frontis_http_requests_total');
  });

  it('needs no centre headers and speaks Prometheus text format, every series typed', async () => {
    const res = await scrape();
    expectStatus(res, 200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const { samples: all, types } = parseExposition(res.body);
    for (const name of [
      'frontis_http_requests_total',
      'frontis_refusals_total',
      'frontis_db_pool_waiting',
      'frontis_job_queue_age_seconds',
      'frontis_receipts_unregistered',
    ]) {
      expect(types.has(name), name).toBe(true);
    }
    expect(types.get('frontis_http_request_duration_seconds')).toBe('histogram');
    for (const job of ['aade', 'messages', 'reminders']) expect(has(all, 'frontis_job_queue_age_seconds', { job }), job).toBe(true);
    expect(valueOf(all, 'frontis_db_figures_error')).toBe(0);
    // Replication is read on a PostgreSQL server only (this test server has no standby and requires none).
    expect(has(all, 'frontis_replication_sync_standby_missing')).toBe(kind === 'postgres');
    if (kind === 'postgres') expect(valueOf(all, 'frontis_replication_sync_standby_missing')).toBe(0);
  });

  it('counts requests by route pattern and status, with their latency', async () => {
    const route = { method: 'GET', route: '/api/users/:id' };
    const before = await samples();
    const me = (await t.signIn(`admin-metrica`, 'admin-password-1', 'metrica')).user.id;
    for (const id of [me, me, 987654]) {
      await t.request({ url: `/api/users/${id}`, tenant: 'metrica', token: adminToken });
    }
    const after = await samples();
    const delta = (labels: Record<string, string>) =>
      valueOf(after, 'frontis_http_requests_total', labels) - valueOf(before, 'frontis_http_requests_total', labels);
    expect(delta({ ...route, status: '200' })).toBe(2);
    expect(delta({ ...route, status: '404' })).toBe(1);
    expect(delta({ method: 'POST', route: '/login', status: '200' })).toBe(1);
    const count = (s: typeof after) => valueOf(s, 'frontis_http_request_duration_seconds_count', route);
    expect(count(after) - count(before)).toBe(3);
    expect(valueOf(after, 'frontis_http_request_duration_seconds_bucket', { ...route, le: '+Inf' })).toBe(count(after));
    // Never the raw address: an id would make a series of its own.
    expect(after.some((s) => s.labels.route?.includes(String(me)) || s.labels.route?.includes('987654'))).toBe(false);
  });

  it('counts refusals by cause: sign-in attempts beyond the limit are rate-limited', async () => {
    const cause = { cause: 'rate-limited' };
    const before = valueOf(await samples(), 'frontis_refusals_total', cause);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.request({
        method: 'POST',
        url: '/login',
        tenant: 'metrica',
        body: { username: 'nobody-here', password: 'wrong-password-1', tenant: 'metrica' },
      });
      statuses.push(res.statusCode);
    }
    const refused = statuses.filter((s) => s === 429).length;
    expect(refused).toBeGreaterThan(0);
    expect(valueOf(await samples(), 'frontis_refusals_total', cause) - before).toBe(refused);
    for (const other of ['overloaded', 'body-timeout']) expect(has(await samples(), 'frontis_refusals_total', { cause: other })).toBe(true);
  });

  it('shows how late the messages and reminders are: the oldest due and unsent', async () => {
    await tx((q) =>
      q.execute(sql`insert into outbox (tenant_id, kind, dedupe_key, recipient, subject, body, deliver_after)
                    values (${tenantId}, 'absence', 'metrics-absence', 'parent@example.com', 'Απουσία', 'Κείμενο', now() - interval '10 minutes'),
                           (${tenantId}, 'absence', 'metrics-later', 'parent@example.com', 'Απουσία', 'Κείμενο', now() + interval '10 minutes'),
                           (${tenantId}, 'reminder', 'metrics-reminder', 'parent@example.com', 'Υπενθύμιση', 'Κείμενο', now() - interval '3 minutes')`),
    );
    const now = await samples();
    const messages = valueOf(now, 'frontis_job_queue_age_seconds', { job: 'messages' });
    const reminders = valueOf(now, 'frontis_job_queue_age_seconds', { job: 'reminders' });
    expect(messages).toBeGreaterThanOrEqual(600);
    expect(messages).toBeLessThan(900);
    expect(reminders).toBeGreaterThanOrEqual(180);
    expect(reminders).toBeLessThan(600);
    await tx((q) => q.execute(sql`update outbox set sent_at = now() where tenant_id = ${tenantId}`));
    const sent = await samples();
    expect(valueOf(sent, 'frontis_job_queue_age_seconds', { job: 'messages' })).toBe(0);
    expect(valueOf(sent, 'frontis_job_queue_age_seconds', { job: 'reminders' })).toBe(0);
  });

  it('says degraded (still 200) while a receipt waits for its MARK longer than AADE_STUCK_MINUTES, and ok once it is registered', async () => {
    expect(await health()).toEqual({ status: 'ok' });
    await tx(async (q) => {
      await q.execute(sql`insert into centre_settings (tenant_id, legal_name, tax_id, tax_office, address, city, postal_code, mydata_enabled, mydata_user_id, mydata_subscription_key)
                          values (${tenantId}, 'Φροντιστήριο Μετρήσεων', '094014201', 'Α΄ Αθηνών', 'Πανεπιστημίου 10', 'Αθήνα', '10671', true, 'user', 'key')`);
      const receipt = (number: number, age: string) =>
        q.execute(sql`insert into receipts (tenant_id, series, number, issued_on, kind, issuer, payer, lines, amount, method, created_at)
                      values (${tenantId}, 'Μ', ${number}, current_date, 'RECEIPT', '{"legal_name":"Φροντιστήριο Μετρήσεων","tax_id":"094014201"}'::jsonb,
                              '{"name":"Ελένη Παπαδοπούλου","tax_id":null}'::jsonb, '[]'::jsonb, 12050, 'CASH', now() - ${age}::interval)`);
      await receipt(1, '5 minutes');
    });
    // Five minutes is within the 30 allowed.
    expect(await health()).toEqual({ status: 'ok' });
    let figures = await samples();
    expect(valueOf(figures, 'frontis_receipts_unregistered', { state: 'waiting' })).toBe(1);
    expect(valueOf(figures, 'frontis_job_queue_age_seconds', { job: 'aade' })).toBeGreaterThanOrEqual(300);

    await tx((q) => q.execute(sql`update receipts set created_at = now() - interval '45 minutes' where tenant_id = ${tenantId}`));
    expect(await health()).toEqual({ status: 'degraded', reasons: ['aade-queue-stuck'] });
    figures = await samples();
    expect(valueOf(figures, 'frontis_receipts_oldest_unregistered_seconds')).toBeGreaterThanOrEqual(45 * 60);

    await tx((q) => q.execute(sql`update receipts set mark = '400001234567890', status = 'SENT' where tenant_id = ${tenantId}`));
    expect(await health()).toEqual({ status: 'ok' });
    figures = await samples();
    expect(valueOf(figures, 'frontis_receipts_unregistered', { state: 'waiting' })).toBe(0);
    expect(valueOf(figures, 'frontis_job_queue_age_seconds', { job: 'aade' })).toBe(0);
  });

  // On a PostgreSQL server only: the embedded database has no standbys.
  if (kind === 'postgres')
    it('says degraded when a synchronous standby is required and none is streaming', async () => {
      // This shared server's synchronous_standby_names cannot be changed (nor should it be): on
      // this test's own database, a function found before pg_catalog's answers it as a primary
      // that requires a standby would; its pg_stat_replication is the real, empty one.
      const url = t.config.databaseUrl!;
      const name = new URL(url).pathname.slice(1);
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`create schema standin;
        create function standin.current_setting(setting text) returns text language sql stable as
          $$ select case when setting = 'synchronous_standby_names' then 'FIRST 1 (frontis_standby)' else pg_catalog.current_setting(setting) end $$;
        grant usage on schema standin to public;
        alter database ${name} set search_path = "$user", public, standin, pg_catalog`);
      } finally {
        await admin.end();
      }
      // A second process on the same database: its connections open with that search path.
      const database = await openDatabase({ url });
      const app = await buildApp({ database, config: t.config, serveClient: false });
      try {
        const res = await app.inject({ method: 'GET', url: '/healthz' });
        expectStatus(res, 200);
        expect(json(res)).toEqual({ status: 'degraded', reasons: ['standby-missing'] });
        const scraped = parseExposition((await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body).samples;
        expect(valueOf(scraped, 'frontis_replication_sync_required')).toBe(1);
        expect(valueOf(scraped, 'frontis_replication_sync_standby_missing')).toBe(1);
        expect(valueOf(scraped, 'frontis_replication_standbys', { state: 'streaming', sync_state: 'sync' })).toBe(0);
      } finally {
        await app.close();
        await database.close();
      }
    });
});
