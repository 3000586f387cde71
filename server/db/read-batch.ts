/**
 * The read batch: withTenantReads(), the door to tenant data for requests that only read. The
 * queries drizzle sends together travel as one message behind the tenant settings.
 */
import { assertTenantId } from './doors';
import { transactionOnImitation } from './drizzle-inside';
import type { Answer, ScriptStatement } from './prepared';
import { type QueryConfig, type ReadChannel, readChannel, rowsAsObjects } from './read-channels';
import { type Inline, inlineParams, inlinePglite, sendWrittenThrough, type WrittenStatement } from './statements';
import type { Database, Tx } from './types';

/**
 * A read-only statement (only checked integers written in) sent ahead of the first message of
 * a withTenantReads(), in the same tenant view: the per-request session check. `judge` sees its
 * rows before any other answer of that message is given; an error it returns is what every
 * query of the message rejects with.
 */
export interface FirstStatement {
  text: string;
  /** The same with its parameters apart, to prepare where the connection keeps prepared statements. */
  written?: WrittenStatement;
  judge(rows: Record<string, unknown>[]): Error | undefined;
}

type Pending = { config: QueryConfig; params: unknown[]; written?: WrittenStatement; resolve: (result: Answer) => void; reject: (error: unknown) => void };

/**
 * Stands in for the database client under drizzle: the queries drizzle sends are held,
 * and those sent together (before the next turn of the event loop) go to the database as one
 * simple-protocol message behind the tenant settings, one round trip for all of them. What
 * depends on an answer waits for it and goes in the next message.
 */
class ReadBatch {
  private pending: Pending[] = [];
  private scheduled = false;

  constructor(
    private channel: ReadChannel,
    /** How the driver writes a parameter into SQL text (undefined: it cannot). */
    private inline: Inline,
    /** Sent ahead of the first message's statements, and judged before any of their answers is given. */
    private first?: FirstStatement,
  ) {}

  query(config: QueryConfig | string, params: unknown[] = [], options: Omit<QueryConfig, 'text'> = {}, written?: WrittenStatement): Promise<Answer> {
    // node-postgres passes one config; PGlite passes the text, the parameters and the options.
    const normalized = typeof config === 'string' ? { ...options, text: config } : config;
    return new Promise((resolve, reject) => {
      this.pending.push({ config: normalized, params, written, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  /** A written statement (see WrittenStatement): prepared where the connection keeps it, else with its parameters written in. */
  queryWritten(statement: WrittenStatement): Promise<Answer> {
    return this.query({ text: statement.text, rowMode: 'object' }, statement.params, {}, statement);
  }

  private async flush() {
    this.scheduled = false;
    const batch = this.pending.splice(0);
    // A parameter that cannot be written into the text goes alone, with the statement's parameters.
    const inlinable = batch.map((p) => this.inline('', p.params) !== undefined);
    const alone = batch.filter((_, i) => !inlinable[i]);
    const together = batch.filter((_, i) => inlinable[i]);
    const first = this.first;
    this.first = undefined;
    if (first) {
      // The first statement travels with the first message; nothing is answered before it is judged.
      const statements = [{ text: first.text, written: first.written }, ...this.script(together)];
      let judged: Answer[];
      try {
        judged = await this.channel.script(statements, together[0]?.config ?? { text: first.text });
        const [head] = judged;
        const refusal = first.judge(rowsAsObjects(head!));
        if (refusal) throw refusal;
      } catch (error) {
        for (const p of batch) p.reject(error);
        return;
      }
      for (const p of alone) void this.answer([p], () => this.channel.alone(p.config, p.params).then((r) => [r]));
      if (together.length) await this.answer(together, async () => judged.slice(1));
      return;
    }
    for (const p of alone) void this.answer([p], () => this.channel.alone(p.config, p.params).then((r) => [r]));
    if (together.length) await this.answer(together, () => this.channel.script(this.script(together), together[0]!.config));
  }

  /**
   * The statements of a message: each with its parameters written in when its text is read
   * (kept on a written statement, per driver, for the next message that needs it), a written
   * one as written too.
   */
  private script(together: Pending[]): ScriptStatement[] {
    const inline = this.inline;
    return together.map(({ config, params, written }) => {
      let text: string | undefined;
      return {
        written,
        get text() {
          if (text === undefined) {
            text = written?.inlined?.get(inline) ?? inline(config.text, params)!;
            written?.inlined?.set(inline, text);
          }
          return text;
        },
      };
    });
  }

  private async answer(batch: Pending[], run: () => Promise<Answer[]>) {
    try {
      const results = await run();
      batch.forEach((p, i) => {
        const result = results[i]!;
        if (p.config.rowMode === 'array') return p.resolve(result);
        // drizzle asked for rows as objects (raw SQL): named by the answer's columns.
        p.resolve({ ...result, rows: rowsAsObjects(result) });
      });
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }
}

/**
 * The door to tenant data for requests that only read: like withTenant(), but without BEGIN
 * and COMMIT. The queries fn sends together (a page and its count, say) travel as one message
 * with the tenant settings, which the database runs as one implicit transaction: role
 * frontis_app and app.tenant_id apply to them and end with them, as in withTenant(). fn must
 * not write (nothing would roll it back with the rest). `first` goes ahead of the first
 * message's statements (see FirstStatement).
 */
export async function withTenantReads<T>(database: Database, tenantId: number, fn: (tx: Tx) => Promise<T>, first?: FirstStatement): Promise<T> {
  assertTenantId(tenantId);
  const batch = new ReadBatch(readChannel(database, tenantId), database.pool ? inlineParams : inlinePglite, first);
  // drizzle writes the queries and reads their answers; the batch stands in for its driver's client.
  const tx = transactionOnImitation(database.db, database.pool ? 'postgres' : 'pglite', batch);
  batchedReads.set(tx, database);
  sendWrittenThrough(tx, (statement) => batch.queryWritten(statement));
  return fn(tx);
}

const batchedReads = new WeakMap<Tx, Database>();

/** Whether queries on tx sent together share one round trip (so it pays to send them together). */
export const sendsTogether = (tx: Tx) => batchedReads.has(tx);

/** The database of a withTenantReads() transaction (undefined elsewhere). */
export const databaseOfReads = (tx: Tx) => batchedReads.get(tx);
