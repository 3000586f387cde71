/**
 * How a batch of reads reaches its database (a ReadChannel over a node-postgres pool or into
 * PGlite), and tenantStatements(): read-only statements in a tenant's view in one round trip.
 */
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { assertTenantId, tenantSettings } from './doors';
import { type Answer, preparedOf, type ScriptStatement, sendScript } from './prepared';
import { inlineParams, inlinePglite } from './statements';
import type { Database } from './types';
import { isDatabaseUnavailable } from './unavailable';

/** A query as drizzle hands it to the driver (node-postgres: one config; PGlite: the text and its options). */
export type QueryConfig = { text: string; rowMode?: 'array' | 'object'; types?: pg.CustomTypesConfig; parsers?: Record<number, (value: string) => unknown> };

/** An answer's rows (sent as arrays) as objects named by its columns. */
export const rowsAsObjects = (answer: Answer): Record<string, unknown>[] => {
  const names = answer.fields.map((f) => f.name);
  return (answer.rows as unknown[][]).map((r) => Object.fromEntries(names.map((n, j) => [n, r[j]])));
};

/**
 * How a ReadBatch reaches its database: a script (the tenant settings, then the statements,
 * one message run as one implicit transaction) answering rows as arrays; or, for a statement
 * whose parameters cannot be written into its text, BEGIN and the settings, the statement with
 * its parameters, and COMMIT.
 */
export interface ReadChannel {
  script(statements: ScriptStatement[], first: QueryConfig): Promise<Answer[]>;
  alone(config: QueryConfig, params: unknown[]): Promise<Answer>;
}

/** node-postgres answers a script of several statements with a result for each (its types know of one). */
const resultsOf = (answer: pg.QueryArrayResult): Answer[] => (Array.isArray(answer) ? answer : [answer]);

/** The channel over a node-postgres pool: a connection per message, dropped if it broke (or failed with statements prepared on it). */
function pgChannel(pool: pg.Pool, tenantId: number, keepsPrepared: boolean): ReadChannel {
  const onClient = async <T>(fn: (client: pg.PoolClient, drop: () => void) => Promise<T>): Promise<T> => {
    let client: pg.PoolClient | undefined;
    let broken: Error | undefined;
    try {
      client = await pool.connect();
      return await fn(client, () => (broken ??= new Error('a failed message left its prepared statements unknown')));
    } catch (error) {
      if (isDatabaseUnavailable(error)) broken = error as Error;
      throw error;
    } finally {
      client?.release(broken);
    }
  };
  return {
    script: (statements, first) =>
      sendScript(statements, tenantId, inlineParams, (fn) =>
        onClient((client, drop) =>
          fn(
            {
              kept: keepsPrepared ? preparedOf(client) : undefined,
              send: async (script) => resultsOf(await client.query({ text: script, rowMode: 'array', types: first.types })),
            },
            drop,
          ),
        ),
      ),
    alone: (config, params) =>
      onClient(async (client) => {
        await client.query(`begin; ${tenantSettings(tenantId)}`);
        try {
          return await client.query({ ...config, rowMode: 'array' }, params);
        } finally {
          await client.query('commit');
        }
      }),
  };
}

/**
 * The channel into PGlite. exec() sends the script as one simple-protocol message (one call
 * into the database, where a query with parameters costs five), and between two messages other
 * requests get their turn: a transaction would hold PGlite for itself until its COMMIT.
 */
function pgliteChannel(pglite: PGlite, tenantId: number, keepsPrepared: boolean): ReadChannel {
  return {
    script: (statements, first) =>
      sendScript(statements, tenantId, inlinePglite, (fn) =>
        fn(
          {
            kept: keepsPrepared ? preparedOf(pglite) : undefined,
            send: async (script) => await pglite.exec(script, { rowMode: 'array', parsers: first.parsers }),
          },
          () => {},
        ),
      ),
    alone: (config, params) =>
      pglite.transaction(async (tx) => {
        await tx.exec(tenantSettings(tenantId));
        return await tx.query(config.text, params, { rowMode: 'array', parsers: config.parsers });
      }),
  };
}

/** The channel to `database` for tenantId's reads. */
export const readChannel = (database: Database, tenantId: number): ReadChannel =>
  database.pool ? pgChannel(database.pool, tenantId, database.keepsPrepared) : pgliteChannel(database.pglite!, tenantId, database.keepsPrepared);

/**
 * Read-only statements in a tenant's view, in a single round trip: the tenant settings and
 * the statements go as one simple-protocol message, which PostgreSQL (and PGlite) runs as
 * one implicit transaction, so role frontis_app, app.tenant_id and RLS apply exactly as in
 * withTenant() and end with it. Without bound parameters, the statements may only inline
 * values the caller has checked to be integers. The rows of each statement, in order. For the
 * per-request session check and what a route reads with it.
 */
export async function tenantStatements(
  database: Database,
  tenantId: number,
  statements: readonly (string | ScriptStatement)[],
): Promise<Record<string, unknown>[][]> {
  assertTenantId(tenantId);
  const answers = await readChannel(database, tenantId).script(
    statements.map((s) => (typeof s === 'string' ? { text: s } : s)),
    { text: '' },
  );
  return answers.map(rowsAsObjects);
}
