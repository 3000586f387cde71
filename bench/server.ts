import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app';
import { bootstrap } from '../server/bootstrap';
import { loadConfig, type Config } from '../server/config';
import { migrate, openDatabase, type Database } from '../server/db/client';
import { seedStudents } from './seed';
import { scratchDatabase } from './scratch';

export interface SeededServer {
  database: Database;
  app: FastifyInstance;
  address: string;
  /** Headers of a signed-in ROOT on the demo tenant (api client). */
  headers: Record<string, string>;
  seedSeconds: number;
  close(): Promise<void>;
}

/**
 * A real Frontis server on loopback over a fresh database (in-memory PGlite, or a scratch
 * database on TEST_DATABASE_URL), with `students` students in `demo` and 3,000 in another centre;
 * `serveClient` also serves the built client (./dist) for the browser measurement.
 */
export async function startSeededServer(kind: 'pglite' | 'postgres', students: number, opts: { serveClient?: boolean } = {}): Promise<SeededServer> {
  const scratch = kind === 'postgres' ? await scratchDatabase() : undefined;
  const config: Config = {
    ...loadConfig({}),
    rootUsername: 'root',
    rootPassword: 'root-password-1',
    logLevel: 'silent',
    databaseUrl: scratch?.url,
    loginRateLimit: { perUser: 1000, perAddress: 100_000, windowSeconds: 900 },
  };
  const database = await openDatabase({ url: scratch?.url, maxConnections: 20 });
  const close = async () => {
    await database.close();
    await scratch?.drop();
  };
  try {
    await migrate(database);
    await bootstrap(database, config);
    const app = await buildApp({ database, config, serveClient: opts.serveClient ?? false });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const base = (tenant: string) => ({ 'x-client-type': 'api', 'x-tenant-id': tenant, host: `${tenant}.localhost` });
    const t0 = Date.now();
    const token = await seedStudents(address, base, students, 3000);
    // What autovacuum does on a server within a minute, and the hourly job on PGlite.
    await database.db.execute(sql`vacuum analyze`);
    return {
      database,
      app,
      address,
      headers: { ...base('demo'), authorization: `Bearer ${token}` },
      seedSeconds: (Date.now() - t0) / 1000,
      close: async () => {
        await app.close();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}
