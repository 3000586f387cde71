/**
 * Records the SQL statements the server sends while one request runs (tests look at their
 * plans).
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from '../server/db/types';

/**
 * A statement, or a transaction boundary. A boundary keeps its own text when the server sent
 * more with it (BEGIN and the tenant settings as one message); `script` marks several
 * statements sent as one simple-protocol message (PGlite's exec).
 */
export type Statement = { text: string; params: unknown[]; script?: boolean } | { boundary: 'begin' | 'commit'; text?: string };

type Query = (text: unknown, params?: unknown, ...rest: unknown[]) => Promise<unknown>;

const textOf = (q: unknown) => (typeof q === 'string' ? q : String((q as { text: string }).text));
const paramsOf = (q: unknown, p: unknown) => (Array.isArray(p) ? p : ((q as { values?: unknown[] }).values ?? []));

export async function captureStatements(database: Database, run: () => Promise<void>): Promise<Statement[]> {
  // Recorded as their text: prepared, a statement would travel as `execute <name>(…)`.
  const keeps = database.keepsPrepared;
  database.keepsPrepared = false;
  try {
    return await capture(database, run);
  } finally {
    database.keepsPrepared = keeps;
  }
}

async function capture(database: Database, run: () => Promise<void>): Promise<Statement[]> {
  const seen: Statement[] = [];
  const record = (q: unknown, p: unknown) => {
    const text = textOf(q).trim();
    if (/^begin\b/i.test(text)) seen.push(text.includes(';') ? { boundary: 'begin', text } : { boundary: 'begin' });
    else if (/^commit\b/i.test(text)) seen.push({ boundary: 'commit' });
    else if (/^select set_config\('role'/.test(text) && paramsOf(q, p).length === 0) {
      // A read sent as one message behind the tenant settings (withTenantReads): each statement
      // on its own, its values already written in.
      const [, ...rest] = text.split(/;\s*(?=select\b|with\b)/i);
      for (const statement of rest) seen.push({ text: statement, params: [] });
    } else seen.push({ text, params: paramsOf(q, p) });
  };
  if (database.pglite) {
    const lite = database.pglite as unknown as { query: Query; exec: Query; transaction: PGlite['transaction'] };
    const { query, exec, transaction } = lite;
    lite.query = (q, p, ...rest) => (record(q, p), query.call(lite, q, p, ...rest));
    lite.exec = (q, ...rest) => {
      // Reads behind the tenant settings are recorded statement by statement, as on PostgreSQL.
      if (/^select set_config\('role'/.test(textOf(q).trim())) record(q, []);
      else seen.push({ text: textOf(q), params: [], script: true });
      return exec.call(lite, q, ...rest);
    };
    lite.transaction = ((cb: (tx: Transaction) => Promise<unknown>) =>
      transaction.call(lite as unknown as PGlite, async (tx) => {
        seen.push({ boundary: 'begin' });
        const txQuery = tx.query.bind(tx) as Query;
        const wrapped = Object.assign(Object.create(tx), { query: (q: unknown, p?: unknown, ...rest: unknown[]) => (record(q, p), txQuery(q, p, ...rest)) });
        const out = await cb(wrapped);
        seen.push({ boundary: 'commit' });
        return out;
      })) as PGlite['transaction'];
    try {
      await run();
    } finally {
      lite.query = query;
      lite.exec = exec;
      lite.transaction = transaction;
    }
    return seen;
  }
  const proto = pg.Client.prototype as unknown as { query: Query };
  const query = proto.query;
  proto.query = function (this: unknown, q, p, ...rest) {
    record(q, p);
    return query.call(this, q, p, ...rest);
  };
  try {
    await run();
  } finally {
    proto.query = query;
  }
  return seen;
}
