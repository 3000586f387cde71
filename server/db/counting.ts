/**
 * Counting the database work of one request: how many messages went to the database and
 * waited for its answer (round trips) and how many SQL statements they carried (a script of
 * several statements sent as one simple-protocol message is one round trip). The drivers are
 * wrapped once when the database opens; a request opts in by running inside countDatabaseWork(),
 * which the server does only when DB_COUNTS=1 (the tests read the answer's x-db-round-trips
 * and x-db-statements headers). Outside such a scope counting costs one
 * AsyncLocalStorage lookup per round trip, and adds the round trip to the process's totals.
 *
 * Running a request inside a scope turns on Node's promise hooks for the whole process (every
 * promise then pays for them), so a server measured for speed leaves DB_COUNTS off and reads
 * `processTotals` around a request it sends alone (the bench does).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { PGlite } from '@electric-sql/pglite';
import { wrapMethod } from './wrap-method';

export interface DbCounts {
  roundTrips: number;
  statements: number;
}

const scope = new AsyncLocalStorage<DbCounts>();

/** Every round trip and statement of this process so far, in a scope or not. */
export const processTotals: DbCounts = { roundTrips: 0, statements: 0 };

/** Runs fn with a fresh counter; everything it sends to the database (also later, in callbacks it starts) is counted there. */
export function countDatabaseWork<T>(counts: DbCounts, fn: () => T): T {
  return scope.run(counts, fn);
}

/**
 * Called by the drivers' wrappers when a message is sent; the returned function is called
 * with the answer. Taken at the call, since a callback may run in the connection's context.
 */
export function countRoundTrip(): (result?: unknown) => void {
  processTotals.roundTrips += 1;
  const counts = scope.getStore();
  if (!counts) return addToTotals;
  counts.roundTrips += 1;
  return (result) => {
    counts.statements += statementsIn(result);
    addToTotals(result);
  };
}

const addToTotals = (result?: unknown) => {
  processTotals.statements += statementsIn(result);
};

/** Statements in one answer: node-postgres and PGlite give an array of results for a script. */
const statementsIn = (result: unknown) => (Array.isArray(result) ? Math.max(result.length, 1) : 1);

const thenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && 'then' in value && typeof value.then === 'function';

/**
 * Makes every query of a node-postgres client (one round trip each) count towards the
 * request's counter. Counted when answered, with the statements the answer holds (a
 * simple-protocol script answers one result per statement).
 */
export function countQueries(client: object): void {
  wrapMethod(client, 'query', (call, self, args) => {
    // pool.query() passes a callback rather than waiting on the promise.
    const last = args.length - 1;
    const callback = args[last];
    const answered = countRoundTrip();
    if (typeof callback === 'function') {
      args[last] = (error: unknown, result: unknown) => {
        answered(result);
        return callback(error, result);
      };
      return call(self, args);
    }
    const out = call(self, args);
    if (thenable(out)) {
      return out.then((result) => {
        answered(result);
        return result;
      });
    }
    answered();
    return out;
  });
}

/** exec (PGlite's, or one of its transactions'), on `self`: one round trip, counting the statements of its script. */
const countExec = (target: object, self?: object) =>
  wrapMethod(target, 'exec', (call, caller, args) => {
    const answered = countRoundTrip();
    return Promise.resolve(call(self ?? caller, args)).then((result) => {
      answered(result);
      return result;
    });
  });

/**
 * The same for PGlite: query and exec are one round trip each (exec counts the statements
 * of its script); a transaction adds its BEGIN and its COMMIT (or ROLLBACK) to what runs in it.
 */
export function countPgliteQueries(pglite: PGlite): void {
  countQueries(pglite);
  countExec(pglite);
  wrapMethod(pglite, 'transaction', (call, self, [fn]) => {
    countRoundTrip()();
    const ended = countRoundTrip();
    const counted = (tx: object) => {
      countQueries(tx);
      countExec(tx, tx);
      return typeof fn === 'function' ? fn(tx) : undefined;
    };
    return Promise.resolve(call(self, [counted])).finally(() => ended());
  });
}
