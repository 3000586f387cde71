/**
 * /metrics in Prometheus's text format, for a scraper presenting METRICS_TOKEN as a Bearer
 * token (no token set: 404, as if there were no such page; a wrong or missing one: 401). Like
 * /healthz it needs no centre: it describes the process. What it counts as requests are
 * answered is the process's (server/metrics/process.ts); the queues, receipts and standbys are
 * read from the database at scrape time (server/metrics/figures.ts).
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge, Registry } from 'prom-client';
import { DomainError } from '../../domain/index';
import type { Config } from '../config';
import type { Database } from '../db/types';
import { pgliteWaiting } from '../db/pglite-turns';
import { type Figures, readFigures } from '../metrics/figures';
import { countRefusal, latency, processRegistry, requests } from '../metrics/process';
import { sendError } from './errors';

export const METRICS_PATH = '/metrics';

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** The figures of this app's database, as gauges set at each scrape. */
function databaseGauges(database: Database) {
  const registry = new Registry();
  // The standbys' own, shown only where they could be read (a PostgreSQL primary, a role allowed to).
  const standbyRegistry = new Registry();
  const gauge = (name: string, help: string, labelNames: string[] = [], registers = [registry]) => new Gauge({ name, help, labelNames, registers });
  const poolWaiting = gauge('frontis_db_pool_waiting', 'Requests waiting for a database connection (PostgreSQL pool) or for PGlite (its queue).');
  const poolTotal = gauge('frontis_db_pool_connections', 'PostgreSQL connections the pool holds, by state (idle, busy).', ['state']);
  const queueAge = gauge(
    'frontis_job_queue_age_seconds',
    'How late each job is: now minus the earliest moment an item still waiting became due (0 when none).',
    ['job'],
  );
  const unregistered = gauge('frontis_receipts_unregistered', 'Receipts without a myDATA MARK: waiting (to be sent) and failed (refused by AADE).', ['state']);
  const oldestWaiting = gauge('frontis_receipts_oldest_unregistered_seconds', 'Age of the oldest receipt still waiting for its MARK (0 when none).');
  const scrapeError = gauge('frontis_db_figures_error', '1 when the database could not be read at this scrape (the figures above are then absent).');
  const standbys = gauge(
    'frontis_replication_standbys',
    'Standbys connected to this primary, by state and sync_state.',
    ['state', 'sync_state'],
    [standbyRegistry],
  );
  const syncRequired = gauge('frontis_replication_sync_required', '1 when synchronous_standby_names is set on this server.', [], [standbyRegistry]);
  const syncMissing = gauge(
    'frontis_replication_sync_standby_missing',
    '1 when a synchronous standby is required and none is streaming.',
    [],
    [standbyRegistry],
  );
  const lagSeconds = gauge('frontis_replication_lag_seconds', 'Replay lag of each standby, in seconds.', ['standby'], [standbyRegistry]);
  const lagBytes = gauge('frontis_replication_lag_bytes', 'WAL sent to each standby and not yet replayed, in bytes.', ['standby'], [standbyRegistry]);

  /** Sets the gauges; whether the standbys were read. */
  const show = (figures: Figures): boolean => {
    queueAge.set({ job: 'aade' }, figures.aadeQueueAge ?? 0);
    queueAge.set({ job: 'messages' }, figures.messagesQueueAge ?? 0);
    queueAge.set({ job: 'reminders' }, figures.remindersQueueAge ?? 0);
    unregistered.set({ state: 'waiting' }, figures.receiptsWaiting);
    unregistered.set({ state: 'failed' }, figures.receiptsFailed);
    oldestWaiting.set(figures.aadeOldestWaiting ?? 0);
    const replication = figures.replication;
    if (!replication) return false;
    syncRequired.set(replication.syncNames.trim() ? 1 : 0);
    const streamingSync = replication.standbys.some((s) => s.state === 'streaming' && (s.syncState === 'sync' || s.syncState === 'quorum'));
    syncMissing.set(replication.syncNames.trim() && !streamingSync ? 1 : 0);
    standbys.set({ state: 'streaming', sync_state: 'sync' }, 0);
    standbys.set({ state: 'streaming', sync_state: 'async' }, 0);
    for (const s of replication.standbys) standbys.inc({ state: s.state ?? 'unknown', sync_state: s.syncState ?? 'unknown' });
    for (const s of replication.standbys) {
      if (s.lagSeconds !== null) lagSeconds.set({ standby: s.name }, s.lagSeconds);
      if (s.lagBytes !== null) lagBytes.set({ standby: s.name }, s.lagBytes);
    }
    return true;
  };

  return async (maxAttempts: number): Promise<string> => {
    registry.resetMetrics();
    standbyRegistry.resetMetrics();
    let standbysRead = false;
    if (database.pool) {
      poolWaiting.set(database.pool.waitingCount);
      poolTotal.set({ state: 'idle' }, database.pool.idleCount);
      poolTotal.set({ state: 'busy' }, database.pool.totalCount - database.pool.idleCount);
    } else if (database.pglite) {
      poolWaiting.set(pgliteWaiting(database.pglite));
    }
    try {
      standbysRead = show(await readFigures(database, maxAttempts));
      scrapeError.set(0);
    } catch {
      scrapeError.set(1);
    }
    return standbysRead ? `${await registry.metrics()}\n${await standbyRegistry.metrics()}` : registry.metrics();
  };
}

export const metricsPlugin = fp(async (app: FastifyInstance, { database, config }: { database: Database; config: Config }) => {
  // Every answer counted by its route's pattern (never the raw address: ids would make a series each).
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? (reply.statusCode === 404 ? 'unmatched' : 'unknown');
    const status = String(reply.statusCode);
    requests.inc({ method: request.method, route, status });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) countRefusal('rate-limited');
    done();
  });

  const scrape = databaseGauges(database);
  app.get(METRICS_PATH, { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const token = config.metricsToken;
    if (!token) return sendError(reply, new DomainError('not-found'));
    const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!sameToken(given, token)) {
      return sendError(reply.header('www-authenticate', 'Bearer'), new DomainError('unauthorized', 'A valid metrics token is required.'));
    }
    const text = `${await processRegistry.metrics()}\n${await scrape(config.outboxMaxAttempts)}`;
    return reply.header('content-type', processRegistry.contentType).header('cache-control', 'no-store').send(text);
  });
});
