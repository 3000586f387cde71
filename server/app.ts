/**
 * buildApp: one Fastify instance with the cross-cutting plugins (in the order their hooks
 * must run: security, tenancy, auth), the API modules, the OpenAPI description and the web
 * client. Ready but not listening, so tests use app.inject() on it.
 */
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { ResourceDef } from '../domain/index';
import type { Config } from './config';
import './context';
import type { Database } from './db/types';
import { countDatabaseWork, type DbCounts } from './db/counting';
import { RETRY_AFTER_SECONDS } from './db/unavailable';
import { accountRoutes } from './modules/account/routes';
import { analyticsRoutes } from './modules/analytics/routes';
import { exportsRoutes } from './modules/exports/routes';
import { aadeDocumentRoutes } from './modules/aade/routes';
import { authRoutes } from './modules/auth/routes';
import { contractRoutes } from './modules/contracts/routes';
import { loadJwtKey } from './modules/auth/tokens';
import { historyRoutes } from './modules/history/routes';
import { personalDataRoutes } from './modules/personal-data/routes';
import { portalAuthRoutes } from './modules/portal-auth/routes';
import { statementRoutes } from './modules/statements/routes';
import { archiveRoutes } from './modules/personal-data/archive';
import { crudRoutes, customRecordRoutes } from './engine/routes';
import { expenseRoutes } from './modules/expenses/routes';
import { fileRoutes } from './modules/files/routes';
import { openFileStore, type FileStore } from './modules/files/storage';
import { calendarFeedRoutes } from './modules/lessons/feed';
import { lessonRoutes } from './modules/lessons/routes';
import { seriesRoutes } from './modules/lessons/series-routes';
import { mydataRoutes } from './modules/mydata/routes';
import { startBus } from './modules/notifications/bus';
import { startMailer } from './modules/notifications/mail';
import { startOutboxJob } from './jobs/outbox';
import { attendanceRoutes } from './modules/attendance/routes';
import { notificationRoutes } from './modules/notifications/routes';
import { portalRoutes } from './modules/portal/routes';
import { paymentRoutes } from './modules/payments/routes';
import { messageRoutes } from './modules/messages/routes';
import { receiptRoutes } from './modules/receipts/routes';
import { settingsRoutes } from './modules/settings/routes';
import { buildServerRegistry } from './registry';
import { runtimeResourceRoutes } from './modules/runtime-resources/routes';
import { definitionRoutes } from './modules/custom-entities/definitions';
import { tenantRoutes } from './modules/tenants/spec';
import { usersSpec } from './modules/users/spec';
import { authPlugin } from './plugins/auth';
import { clientPlugin } from './plugins/client';
import { closeExtraSocketsOnClose, limitBodyRate, limitConnectionsPerAddress, serverTimeouts } from './plugins/connections';
import { drainPlugin } from './plugins/drain';
import { idempotencyPlugin } from './plugins/idempotency';
import { errorsPlugin, frameworkErrors } from './plugins/errors';
import { methodsPlugin } from './plugins/methods';
import { openapiPlugin } from './plugins/openapi';
import { overloadPlugin } from './plugins/overload';
import { securityPlugin } from './plugins/security';
import { tenancyPlugin } from './plugins/tenancy';
import { metricsPlugin } from './plugins/metrics';
import { degradedReasons, readFigures } from './metrics/figures';

/** JSON bodies are small; file uploads are streamed with their own limit (MAX_UPLOAD_MB). */
const JSON_BODY_LIMIT = 1024 * 1024;
/** Smaller answers go out as they are: compressing them saves less than it costs. */
export const COMPRESS_ABOVE_BYTES = 1024;

export interface BuildOptions {
  database: Database;
  config: Config;
  /** Serve ./dist with the SPA fallback (default true). */
  serveClient?: boolean;
  /** Where the built client lives (default ./dist). */
  distDir?: string;
  /** Where uploaded files' bytes go (default: the one the configuration names). */
  store?: FileStore;
  /**
   * Declarations served beside the built-in ones as plain resources, their tables derived
   * from them (declaredTable); the tables must exist. The throwaway-resource test uses it.
   */
  resources?: readonly ResourceDef[];
}

export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { database, config } = opts;
  // Built once and handed down: no module reaches for a registry of its own.
  const registry = buildServerRegistry(opts.resources);
  const app = Fastify({
    logger: { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    trustProxy: config.trustProxy,
    bodyLimit: JSON_BODY_LIMIT,
    genReqId: () => randomUUID(),
    routerOptions: { maxParamLength: 200 },
    // Time limits on headers and bodies, and answers in the API's format to what the parser refuses.
    ...serverTimeouts(config.connections),
    frameworkErrors,
    // A closing app refuses with our own 503 (server/plugins/drain.ts), in the API's error format.
    return503OnClosing: false,
  });

  // An empty body sent as application/json (some clients do that on DELETE) means "no body".
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    parseJson(request, body as string, done);
  });

  limitConnectionsPerAddress(app.server, config.connections);
  limitBodyRate(app.server, config.connections);
  closeExtraSocketsOnClose(app);

  const jwtKey = await loadJwtKey(database);
  app.decorate('frontis', { database, config, jwtKey });

  if (config.dbCounts) {
    // First of all hooks, so that the tenant lookup and the session check are counted too.
    const counted = new WeakMap<object, DbCounts>();
    app.addHook('onRequest', (request, _reply, done) => {
      const counts = { roundTrips: 0, statements: 0 };
      counted.set(request, counts);
      countDatabaseWork(counts, done);
    });
    app.addHook('onSend', async (request, reply, payload) => {
      const counts = counted.get(request);
      if (counts) reply.header('x-db-round-trips', String(counts.roundTrips)).header('x-db-statements', String(counts.statements));
      return payload;
    });
  }

  // First of all: a draining process answers nothing new (and /healthz says it is draining).
  await app.register(drainPlugin);
  await app.register(errorsPlugin);
  // notes every route's methods, for the 405 of a known path asked with another one
  await app.register(methodsPlugin);
  // Counts every answer, refusals included, so it comes before the shedder.
  await app.register(metricsPlugin, { database, config });
  // Refusals come first, before any other work is spent on a request the process cannot serve in time.
  await app.register(overloadPlugin, { config: config.overload, pool: database.pool });
  // Exactly once: its onSend remembers an answer before compression touches it.
  await app.register(idempotencyPlugin, { database });
  // Answers above 1 KB are compressed for clients that accept it (brotli at a fast setting, or
  // gzip). An answer a route already encoded itself (the calendar's week) is sent as it is;
  // files (uploads, backups) are not recompressed, and request bodies are taken as sent.
  await app.register(compress, {
    global: true,
    threshold: COMPRESS_ABOVE_BYTES,
    encodings: ['br', 'gzip'],
    customTypes: /^text\/(?!event-stream)|[/+]json(?:;|$)|[/+]xml(?:;|$)|^text\/calendar/,
    globalDecompression: false,
  });
  await app.register(cookie);
  await app.register(securityPlugin, { config });
  await app.register(tenancyPlugin, { database });
  await app.register(authPlugin, { database, jwtKey });
  await app.register(openapiPlugin);

  // Still 200 when degraded (the proxy keeps serving), with the reasons.
  app.get('/healthz', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    try {
      const reasons = degradedReasons(await readFigures(database, config.outboxMaxAttempts), config.aadeStuckMinutes);
      return reasons.length ? { status: 'degraded', reasons } : { status: 'ok' };
    } catch {
      return reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send({ status: 'unavailable' });
    }
  });

  await app.register(authRoutes, { database, config, jwtKey });
  // The families' portal: invitations (public, on the centre's host) and the office's view of each guardian's access.
  await app.register(portalAuthRoutes, { database, config });
  await app.register(statementRoutes, { database });
  await app.register(crudRoutes, { prefix: '/api/users', database, registry, spec: usersSpec });
  await app.register(tenantRoutes, { prefix: '/api/tenants', database, registry });
  await app.register(mydataRoutes, { prefix: '/api/mydata', database, registry });
  // The centre's directory: every metadata-driven resource on the generic CRUD engine.
  for (const spec of registry.served) await app.register(crudRoutes, { prefix: `/api/${spec.def.name}`, database, registry, spec });
  await app.register(lessonRoutes, { prefix: '/api/lessons', database, registry });
  await app.register(seriesRoutes, { prefix: '/api/recurring-lessons', database, registry });
  await app.register(async (feeds) => calendarFeedRoutes(feeds, database));
  // The centre's money: contracts and payments, expenses, the account and analytics.
  await app.register(contractRoutes, { prefix: '/api/contracts', database, registry });
  await app.register(paymentRoutes, { prefix: '/api/payments', database, registry });
  await app.register(receiptRoutes, { prefix: '/api/receipts', database });
  await app.register(messageRoutes, { prefix: '/api/messages', database, config });
  await app.register(settingsRoutes, { prefix: '/api/settings', database });
  await app.register(expenseRoutes, { database, registry });
  await app.register(accountRoutes, { prefix: '/api/account', database });
  await app.register(analyticsRoutes, { prefix: '/api/analytics', database });
  await app.register(exportsRoutes, { prefix: '/api/exports', database });
  await app.register(aadeDocumentRoutes, { prefix: '/api/receipts', database });
  // The centre's documents: folders and files are on the CRUD engine; uploads and content here.
  const store = opts.store ?? openFileStore(config);
  await app.register(fileRoutes, {
    prefix: '/api/files',
    database,
    registry,
    store,
    maxBytes: config.maxUploadMb * 1024 * 1024,
  });
  await app.register(attendanceRoutes, { prefix: '/api', database, config });
  await app.register(historyRoutes, { prefix: '/api/history', database, registry });
  await app.register(personalDataRoutes, { database, registry });
  await app.register(archiveRoutes, { database, registry, store });
  // Each process hears every process's new notifications (LISTEN/NOTIFY) and wakes its own streams.
  const bus = await startBus(database, app.log);
  const mailer = startMailer(database, config, bus, app.log);
  // Messages to families (absence notices): delivered from the outbox by every process.
  const outbox = startOutboxJob(database, config, bus, app.log);
  app.addHook('onClose', async () => {
    mailer?.close();
    outbox?.close();
    await bus.close();
  });
  await app.register(portalRoutes, { prefix: '/api/portal', database, registry });
  await app.register(notificationRoutes, { prefix: '/api/notifications', database, bus, streamsPerUser: config.streamsPerUser });
  await app.register(runtimeResourceRoutes, { prefix: '/api/resources', database });
  // Record types the centre defines at run time, and their records.
  await app.register(definitionRoutes, { prefix: '/api/custom-entities', database });
  await app.register(customRecordRoutes, { prefix: '/api/custom-entities', database, registry });

  await app.register(clientPlugin, { serveClient: opts.serveClient ?? true, distDir: opts.distDir });

  await app.ready();
  return app;
}
