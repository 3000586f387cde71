/**
 * Sending a read message on a connection, with the statements kept in the process prepared on
 * that connection (PREPARE in the same message as the first EXECUTE; no round trip added).
 */
import { randomBytes } from 'node:crypto';
import { tenantSettings } from './doors';
import type { Inline, WrittenStatement } from './statements';
import { isDatabaseUnavailable } from './unavailable';

/** An answer with its rows as arrays, as both drivers give it with rowMode 'array'. */
export type Answer = { rows: unknown[]; fields: { name: string }[] };

/**
 * A statement of a read message: its text with the parameters written in, and a kept one as
 * written too (to prepare it). The text may be a getter that writes the values in when first
 * read: a kept statement already prepared on the connection travels as `execute`, and its
 * whole text (a list page's is several KB) is then never written out.
 */
export interface ScriptStatement {
  readonly text: string;
  written?: WrittenStatement;
}

/** How many statements one connection keeps prepared before it lets them all go and starts again. */
const PREPARED_PER_CONNECTION = 64;

/** Texts PostgreSQL would not prepare (a parameter whose type it cannot tell): sent with their parameters written in. */
const unpreparable = new Set<string>();
const UNPREPARABLE_MAX = 1000;

/**
 * A prepared statement's name: this process's own prefix and a number never reused in it, so a
 * name stands for one text wherever it is found. Behind a pooler that hands one server
 * connection to several processes (it should not be, see `keepsPrepared`), a name prepared by
 * another process is then unknown here, never another statement.
 */
const PREPARED_PREFIX = `frontis_${randomBytes(4).toString('hex')}_`;
let preparedNames = 0;

/**
 * The kept statements one connection has prepared, by their text. A kept statement (a list's
 * page, read again and again) is planned anew every time it travels as text; prepared once on
 * a connection, its next runs there execute the plan PostgreSQL keeps (after its first few
 * runs, a generic plan unless the values make a worse one). `PREPARE` travels in the same
 * message as the statement's first `EXECUTE`, so no round trip is added. Nothing else on these
 * connections prepares named statements, so letting them all go (`deallocate all`) is safe.
 */
class PreparedOnConnection {
  private names = new Map<string, string>();
  private forgetAll = false;

  /** The message's lines for `statements`, and for each statement the line whose answer is its rows. */
  plan(statements: readonly ScriptStatement[], inline: Inline): { lines: string[]; answers: number[]; prepared: string[]; executes: boolean } {
    const lines: string[] = [];
    const answers: number[] = [];
    const prepared: string[] = [];
    let executes = false;
    if (this.forgetAll || this.names.size + statements.length > PREPARED_PER_CONNECTION) {
      lines.push('deallocate all');
      this.names.clear();
      this.forgetAll = false;
    }
    for (const statement of statements) {
      const written = statement.written;
      const run = written && !unpreparable.has(written.text) ? this.execute(written, statement, inline) : undefined;
      if (!run) {
        lines.push(statement.text);
      } else {
        if (run.prepare) {
          lines.push(run.prepare);
          prepared.push(written!.text);
        }
        lines.push(run.execute);
        executes = true;
      }
      answers.push(lines.length - 1);
    }
    return { lines, answers, prepared, executes };
  }

  /** After a failed message, what it prepared is unknown: the next message starts by letting all go. */
  forget() {
    this.names.clear();
    this.forgetAll = true;
  }

  /** `statement.text` (the values written in) is read only for a statement prepared with its values in its text. */
  private execute(written: WrittenStatement, statement: ScriptStatement, inline: Inline): { prepare?: string; execute: string } | undefined {
    const text = written.valuesInText ? statement.text : written.text;
    const known = this.names.get(text);
    const name = known ?? `${PREPARED_PREFIX}${++preparedNames}`;
    const placeholders = written.valuesInText ? '' : written.params.map((_, i) => `$${i + 1}`).join(', ');
    const execute = inline(placeholders ? `execute ${name}(${placeholders})` : `execute ${name}`, written.params);
    if (execute === undefined) return undefined;
    if (known) return { execute };
    this.names.set(text, name);
    return { prepare: `prepare ${name} as ${text}`, execute };
  }
}

const preparedOn = new WeakMap<object, PreparedOnConnection>();
export const preparedOf = (connection: object) => {
  let kept = preparedOn.get(connection);
  if (!kept) preparedOn.set(connection, (kept = new PreparedOnConnection()));
  return kept;
};

/** A connection a read message goes on: how to send a script there, and what it keeps prepared (where it keeps anything). */
interface ReadConnection {
  kept?: PreparedOnConnection;
  send(script: string): Promise<Answer[]>;
}

/** Runs fn on a connection; `drop` asks for that connection not to be used again. */
type OnConnection = <T>(fn: (connection: ReadConnection, drop: () => void) => Promise<T>) => Promise<T>;

/**
 * Sends `statements` behind the tenant settings as one message, prepared where the connection
 * keeps them. A message that fails with something prepared or executed in it is sent once
 * more as plain text (on another connection where the pool has more): what it prepared is
 * then taken for something PostgreSQL would not prepare, and the failed connection's prepared
 * statements are let go. Answers one per statement.
 */
export async function sendScript(statements: readonly ScriptStatement[], tenantId: number, inline: Inline, onConnection: OnConnection): Promise<Answer[]> {
  const settings = tenantSettings(tenantId);
  // Written out only where it travels: a connection that keeps nothing prepared, or a message sent again.
  const plain = () => [settings, ...statements.map((s) => s.text)].join(';\n');
  let failed: string[] | undefined;
  const answers = await onConnection(async ({ kept, send }, drop) => {
    if (!kept) return (await send(plain())).slice(1);
    const plan = kept.plan(statements, inline);
    try {
      const answer = (await send([settings, ...plan.lines].join(';\n'))).slice(1);
      return plan.answers.map((i) => answer[i]!);
    } catch (error) {
      kept.forget();
      if (!plan.executes || isDatabaseUnavailable(error)) throw error;
      drop();
      failed = plan.prepared;
      return undefined;
    }
  });
  if (answers) return answers;
  const again = (await onConnection(({ send }) => send(plain()))).slice(1);
  if (unpreparable.size + failed!.length > UNPREPARABLE_MAX) unpreparable.clear();
  for (const text of failed!) unpreparable.add(text);
  return again;
}
