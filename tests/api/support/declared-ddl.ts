// The SQL that creates tables derived at test time, written by drizzle-kit's own generator
// (the one `npm run db:generate` runs), so a test's table is what a migration would make.
import { sql } from 'drizzle-orm';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import * as schema from '../../../server/db/schema/index';
import { TENANT_POLICIES } from '../../../server/db/tenant-policies';
import type { Database } from '../../../server/db/types';
import { platform } from '../../../server/db/doors';

/** The statements that add `tables` to the schema as it stands (foreign keys included). */
async function createTableStatements(tables: Record<string, unknown>): Promise<string[]> {
  const before = generateDrizzleJson({ ...schema });
  const after = generateDrizzleJson({ ...schema, ...tables }, before.id);
  return generateMigration(before, after);
}

/** Creates `tables` in `database`, then applies row-level security as after every migration. */
export async function createTables(database: Database, tables: Record<string, unknown>): Promise<void> {
  for (const statement of await createTableStatements(tables)) await platform(database).execute(sql.raw(statement));
  await platform(database).execute(TENANT_POLICIES);
}
