/**
 * The process: configuration, database, migrations, first-start data, HTTP, jobs; and an
 * orderly stop on SIGTERM/SIGINT: it drains (server/plugins/drain.ts: refuse what is new,
 * answer what it holds within DRAIN_SECONDS), then closes the database so PGlite flushes its
 * files, and exits 0. With the embedded database the process holds DATA_DIR's lock
 * for its whole life, so a second server or a restore cannot touch the files under it.
 */
// First: a setting of V8's that must hold before any module that serves requests is loaded.
import './garbage-collector';
import { buildApp } from './app';
import { bootstrap } from './bootstrap';
import { loadConfig } from './config';
import { startWarnings } from './start-notes';
import { listen } from './plugins/connections';
import { openDatabase } from './db/open';
import { migrate } from './db/migrate';
import { acquireDataLock, DataDirLockedError, type DataLock } from './db/data-lock';
import { isDatabaseUnavailable } from './db/unavailable';
import { removePartialBackups, scheduleBackups } from './jobs/backup';
import { checkFilesFolder, FilesFolderNotSharedError, removePartialUploads } from './modules/files/shared-folder';
import { scheduleCleanup } from './jobs/cleanup';
import { scheduleAade } from './jobs/aade';
import { scheduleNotifications } from './jobs/notifications';
import { scheduleReminders } from './jobs/reminders';

/**
 * A database connection dying outside any request (an idle client, a job between queries)
 * must not end the process: requests get 503 meanwhile and service resumes when the database
 * is back. Anything else thrown where nobody catches it is a bug: log it and stop.
 */
function surviveDatabaseOutages() {
  const onStray = (error: unknown) => {
    if (isDatabaseUnavailable(error)) {
      console.warn(`database unavailable: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    console.error(error);
    process.exit(1);
  };
  process.on('uncaughtException', onStray);
  process.on('unhandledRejection', onStray);
}

async function main() {
  const config = loadConfig();
  surviveDatabaseOutages();
  let lock: DataLock | undefined;
  if (!config.databaseUrl) lock = acquireDataLock(config.dataDir, 'the Frontis server');
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    directUrl: config.databaseDirectUrl,
    today: config.today,
    onConnectionError: (error) => console.warn(`database connection lost: ${error.message}`),
  });
  await migrate(database);
  await checkFilesFolder(database, config);
  // A backup cut short by a kill is never a backup: nothing half-written survives a start.
  if (lock) {
    await removePartialBackups(config.dataDir);
    await removePartialUploads(config.dataDir);
  }
  const { demoLogins } = await bootstrap(database, config);
  const app = await buildApp({ database, config });

  for (const warning of startWarnings(config)) app.log.warn(warning);
  if (demoLogins?.length) {
    const lines = demoLogins.map((l) => `  ${l.role.padEnd(9)} ${l.username.padEnd(10)} ${l.password}`);
    console.log(`\nDemo sign-in names (tenant "${config.defaultTenant}"):\n${lines.join('\n')}\n`);
  }

  const stopJobs = [
    scheduleBackups(database, config.dataDir, config.backupHour, app.log),
    scheduleCleanup(database, config, app.log),
    scheduleNotifications(database, app.log, config.notificationsEverySeconds * 1000),
    scheduleAade(database, config, app.log),
    scheduleReminders(database, app.log),
  ];

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'draining');
    // Closing the database must not keep the process alive forever either.
    const force = setTimeout(() => process.exit(1), (config.drainSeconds + 10) * 1000).unref();
    try {
      for (const s of stopJobs) s();
      // /healthz says draining, new requests are refused with 503, streams are told to
      // reconnect, and what the process holds is answered within DRAIN_SECONDS.
      await app.drain.begin(config.drainSeconds);
      await app.close();
      await database.close();
      lock?.release();
    } finally {
      clearTimeout(force);
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await listen(app, config.connections, { port: config.port, host: config.host });
  const where = database.kind === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL';
  app.log.info(`Frontis on http://${config.defaultTenant}.localhost:${config.port} (${where})`);
}

main().catch((error: unknown) => {
  console.error(error instanceof DataDirLockedError || error instanceof FilesFolderNotSharedError ? error.message : error);
  process.exit(1);
});
