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
export const statementsIn = (result: unknown) => (Array.isArray(result) ? Math.max(result.length, 1) : 1);
