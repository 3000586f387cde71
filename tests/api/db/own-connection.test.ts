// PGlite has one connection (server/db/own-connection.ts): a query sent through the database
// from inside one of its own transactions would wait for that transaction forever. It fails at
// once instead, naming the mistake, and the database goes on serving; work a transaction
// started and left running may still use the database once the transaction has ended.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WaitsOnItselfError } from '../../../server/db/own-connection';
import type { Database } from '../../../server/db/types';
import { openDatabase } from '../../../server/db/open';
import { platform, withPlatform } from '../../../server/db/doors';
import { queryRows } from '../../../server/db/statements';

describe('PGlite refuses a call that would wait on its own transaction', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({});
  });
  afterAll(async () => {
    await database?.close();
  });

  it('a query or transaction through the database inside a transaction fails at once; the transaction itself goes on', async () => {
    const answer = await withPlatform(database, async (tx) => {
      const outside = await platform(database)
        .execute(sql`select 1 as one`)
        .then(
          () => 'answered',
          // drizzle wraps a driver's error as the cause of its own
          (error: unknown) => (error instanceof Error && error.cause) || error,
        );
      const nested = await database.pglite!.transaction(async () => 'ran').catch((error: unknown) => error);
      const [inside] = await queryRows<{ two: number }>(tx, sql`select 2 as two`);
      return { outside, nested, inside: inside?.two };
    });
    expect(answer.outside).toBeInstanceOf(WaitsOnItselfError);
    expect(String(answer.outside)).toMatch(/outside the open transaction that is waiting for it/);
    expect(answer.nested).toBeInstanceOf(WaitsOnItselfError);
    expect(answer.inside).toBe(2);
    // And the database serves the next caller.
    expect(await queryRows(platform(database), sql`select 3 as three`)).toEqual([{ three: 3 }]);
  });

  it('work a transaction left running reaches the database after the transaction ends', async () => {
    let later: Promise<unknown[]> | undefined;
    await withPlatform(database, async () => {
      later = new Promise((resolve) => setTimeout(resolve, 20)).then(() => queryRows(platform(database), sql`select 4 as four`));
    });
    expect(await later).toEqual([{ four: 4 }]);
  });
});
