import { eq } from 'drizzle-orm';
import type { Database } from './types';
import { platform } from './doors';
import { serverSecrets } from './schema/index';

/**
 * A secret created by whichever process asks first and then read by all: every API process
 * must sign and verify tokens with the same key, so it cannot live in one process's memory
 * or be generated per start.
 */
export async function sharedSecret(database: Database, name: string, generate: () => string): Promise<string> {
  const db = platform(database);
  await db.insert(serverSecrets).values({ name, value: generate() }).onConflictDoNothing();
  const [row] = await db.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, name));
  if (!row) throw new Error(`secret ${name} missing after insert`);
  return row.value;
}
