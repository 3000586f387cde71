// PGlite runs on the server's own event loop (server/db/pglite-turns.ts): calls queued for
// it let the loop have a turn once they have held it for a few ms, so connections are accepted,
// requests read and the excess refused at once in between, instead of after the whole queue
// (offered more than it served, the server left new connections waiting seconds in the
// kernel's queue).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/types';
import { openDatabase } from '../../../server/db/open';

describe('PGlite and the event loop', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({});
  });
  afterAll(async () => {
    await database?.close();
  });

  it('a timer due while 20 reads of a few ms each wait for PGlite fires before the last of them is answered, and every read gets its own answer', async () => {
    const lite = database.pglite!;
    const events: string[] = [];
    const reads = Array.from({ length: 20 }, (_, i) =>
      lite.query<{ n: number }>('select $1::int as n from generate_series(1, 50000) g order by g desc limit 1', [i]).then((r) => {
        events.push(`read ${i}`);
        return r.rows[0]!.n;
      }),
    );
    setTimeout(() => events.push('timer'), 0);
    expect(await Promise.all(reads)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(events).toContain('timer');
    expect(events.indexOf('timer')).toBeLessThan(events.indexOf('read 19'));
    // and the reads were answered in the order they were asked
    expect(events.filter((e) => e !== 'timer')).toEqual(Array.from({ length: 20 }, (_, i) => `read ${i}`));
  });

  it('a failing call does not stop the ones queued after it, nor a transaction', async () => {
    const lite = database.pglite!;
    const failing = lite.query('select no_such_column from no_such_table');
    const next = lite.query<{ ok: number }>('select 1 as ok');
    const inTransaction = lite.transaction(async (tx) => (await tx.query<{ two: number }>('select 2 as two')).rows[0]!.two);
    await expect(failing).rejects.toThrow(/no_such_table/);
    expect((await next).rows[0]!.ok).toBe(1);
    expect(await inTransaction).toBe(2);
  });
});
