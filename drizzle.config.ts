import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the pg-core schema and applied by server/db/migrate.ts at
// start-up (never by drizzle-kit push), so PGlite and PostgreSQL get the very same SQL.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema/index.ts',
  out: './server/db/migrations',
});
