// What server/db/drizzle-inside.ts relies on in drizzle-orm, beyond its public API: where a
// database keeps its dialect and its session's options, that a transaction built by hand over
// a client of our own runs its queries there, and the calls drizzle makes on that client (the
// read batch in server/db/read-batch.ts answers them in place of the driver).
//
// When a drizzle upgrade makes this file fail: read the new drizzle's node-postgres/session.js,
// pglite/session.js and pg-core/db.js, change server/db/drizzle-inside.ts (and, if the calls
// on the client changed, ReadBatch.query in server/db/read-batch.ts) to what they do now, and
// change the expectations here to match. Do not upgrade drizzle with this file failing: the
// API tests would still pass on PGlite for most reads while batched reads broke elsewhere.
import { eq, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { insideOf, transactionOnConnection, transactionOnImitation } from '../../server/db/drizzle-inside';
import * as schema from '../../server/db/schema/index';
import { tenants } from '../../server/db/schema/index';
import type { Db } from '../../server/db/types';

/** A client that answers every query with `answer` and keeps the arguments drizzle called it with. */
function imitation(answer: { rows: unknown[]; fields: { name: string }[] }) {
  const calls: unknown[][] = [];
  return {
    calls,
    query: async (...args: unknown[]) => {
      calls.push(args);
      return answer;
    },
  };
}

// A pool connects only when a query is sent; none is.
const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
afterAll(() => pool.end());

const databases: Record<'postgres' | 'pglite', Db> = {
  postgres: drizzlePg({ client: pool, schema }),
  // drizzle keeps the client it is given; this one is never called.
  pglite: drizzlePglite({ client: imitation({ rows: [], fields: [] }) as never, schema }),
};

const slugRow = { rows: [[7, 'demo']], fields: [{ name: 'id' }, { name: 'slug' }] };
const selectSlug = (tx: Db) => tx.select({ id: tenants.id, slug: tenants.slug }).from(tenants).where(eq(tenants.slug, 'demo'));

describe('drizzle keeps what drizzle-inside.ts reads', () => {
  for (const [driver, db] of Object.entries(databases)) {
    it(`a ${driver} database keeps its PgDialect in "dialect" and its session's options in "options"`, () => {
      const inside = insideOf(db);
      expect(inside.dialect).toBeInstanceOf(PgDialect);
      expect(typeof inside.options).toBe('object');
      // Read again from the database itself, not from what insideOf() kept.
      expect(Reflect.get(db, 'dialect')).toBe(inside.dialect);
      expect(Reflect.get(db._.session, 'options')).toBe(inside.options);
    });
  }
});

describe('a transaction built over a client of our own (node-postgres)', () => {
  it('sends a select as query(config, params) with rows as arrays and the types, and names the rows by their columns', async () => {
    const client = imitation(slugRow);
    const tx = transactionOnImitation(databases.postgres, 'postgres', client);
    expect(await selectSlug(tx)).toEqual([{ id: 7, slug: 'demo' }]);
    expect(client.calls).toHaveLength(1);
    const [config, params] = client.calls[0] as [{ text: string; rowMode?: string; types?: { getTypeParser: unknown } }, unknown[]];
    expect(config.text).toMatch(/^select "id", "slug" from "tenants" where "tenants"."slug" = \$1$/);
    expect(config.rowMode).toBe('array');
    expect(typeof config.types?.getTypeParser).toBe('function');
    expect(params).toEqual(['demo']);
  });

  it('sends raw SQL as query(config, params) without rowMode, and answers what the client answered', async () => {
    const client = imitation({ rows: [{ one: 1 }], fields: [{ name: 'one' }] });
    const tx = transactionOnImitation(databases.postgres, 'postgres', client);
    const answer = await tx.execute(sql`select ${1} as one`);
    expect(answer.rows).toEqual([{ one: 1 }]);
    const [config, params] = client.calls[0] as [{ text: string; rowMode?: string }, unknown[]];
    expect(config).toMatchObject({ text: 'select $1 as one' });
    expect(config.rowMode).toBeUndefined();
    expect(params).toEqual([1]);
  });

  it('on a pooled connection, sends no BEGIN of its own, and a nested transaction is a savepoint on the same client', async () => {
    const client = imitation({ rows: [], fields: [] });
    const tx = transactionOnConnection(databases.postgres, client as unknown as pg.PoolClient);
    await tx.transaction(async (inner) => {
      await inner.execute(sql`select 2`);
    });
    const texts = client.calls.map(([config]) => (config as { text: string }).text);
    expect(texts).toEqual(['savepoint sp1', 'select 2', 'release savepoint sp1']);
  });
});

describe('a transaction built over a client of our own (PGlite)', () => {
  it('sends a select as query(text, params, { rowMode: "array", parsers }), and names the rows by their columns', async () => {
    const client = imitation(slugRow);
    const tx = transactionOnImitation(databases.pglite, 'pglite', client);
    expect(await selectSlug(tx)).toEqual([{ id: 7, slug: 'demo' }]);
    const [text, params, options] = client.calls[0] as [string, unknown[], { rowMode?: string; parsers?: Record<number, unknown> }];
    expect(text).toMatch(/^select "id", "slug" from "tenants" where "tenants"."slug" = \$1$/);
    expect(params).toEqual(['demo']);
    expect(options.rowMode).toBe('array');
    expect(typeof options.parsers).toBe('object');
  });

  it('sends raw SQL as query(text, params, { rowMode: "object" })', async () => {
    const client = imitation({ rows: [{ one: 1 }], fields: [{ name: 'one' }] });
    const tx = transactionOnImitation(databases.pglite, 'pglite', client);
    expect((await tx.execute(sql`select ${1} as one`)).rows).toEqual([{ one: 1 }]);
    const [text, params, options] = client.calls[0] as [string, unknown[], { rowMode?: string }];
    expect(text).toBe('select $1 as one');
    expect(params).toEqual([1]);
    expect(options.rowMode).toBe('object');
  });
});
