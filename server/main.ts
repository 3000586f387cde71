/**
 * The process: configuration, database, migrations, first-start data, HTTP, jobs; and an
 * orderly stop on SIGTERM/SIGINT (finish in-flight requests, then close the database so
 * PGlite flushes its files).
 */
import { buildApp } from './app';
import { bootstrap } from './bootstrap';
import { loadConfig } from './config';
import { migrate, openDatabase } from './db/client';
import { scheduleBackups } from './jobs/backup';
import { scheduleCleanup } from './jobs/cleanup';

async function main() {
  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  await migrate(database);
  const { demoLogins } = await bootstrap(database, config);
  const app = await buildApp({ database, config });

  if (demoLogins?.length) {
    const lines = demoLogins.map((l) => `  ${l.role.padEnd(9)} ${l.username.padEnd(10)} ${l.password}`);
    console.log(`\nDemo sign-in names (tenant "${config.defaultTenant}"):\n${lines.join('\n')}\n`);
  }

  const stopJobs = [scheduleBackups(database, config.dataDir, app.log), scheduleCleanup(database, config, app.log)];

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // A stuck request must not keep the process alive forever.
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    try {
      for (const s of stopJobs) s();
      await app.close();
      await database.close();
    } finally {
      clearTimeout(force);
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const where = database.kind === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL';
  app.log.info(`Frontis on http://${config.defaultTenant}.localhost:${config.port} (${where})`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
