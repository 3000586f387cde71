/**
 * PGlite has one connection. A transaction holds it to its end, so a query sent outside that
 * transaction while it is open (through the database rather than through its `tx`) waits for
 * the transaction, which waits for the query: the process hangs for good, answering nothing
 * and logging nothing. That happened: the AADE job opened the centre's stored key, which read
 * a shared secret through the database, from inside the transaction that claimed receipts, and
 * after a restart with receipts to send the server stopped answering.
 *
 * Here such a call fails at once instead, with an error that says what went wrong, so a test
 * (every API test runs on PGlite) finds it rather than a customer. On a PostgreSQL server the
 * same code would only take a second connection from the pool, so there it is left alone.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { PGlite } from '@electric-sql/pglite';
import { wrapMethod } from './wrap-method';

interface OpenTransaction {
  pglite: PGlite;
  open: boolean;
}

const current = new AsyncLocalStorage<OpenTransaction>();

export class WaitsOnItselfError extends Error {
  constructor(call: string) {
    super(
      `PGlite ${call} sent outside the open transaction that is waiting for it: it would wait for that transaction forever. Use the transaction's tx, or run it after the transaction ends.`,
    );
    this.name = 'WaitsOnItselfError';
  }
}

/** Makes a call on `pglite` from inside one of its own open transactions fail at once. */
export function refuseWaitingOnItself(pglite: PGlite): void {
  const held = (): boolean => {
    const store = current.getStore();
    return store?.pglite === pglite && store.open;
  };
  for (const name of ['query', 'exec']) {
    wrapMethod(pglite, name, (call, self, args) => {
      if (held()) return Promise.reject(new WaitsOnItselfError(name));
      return call(self, args);
    });
  }
  wrapMethod(pglite, 'transaction', (call, self, [fn, ...rest]) => {
    if (held()) return Promise.reject(new WaitsOnItselfError('transaction'));
    if (typeof fn !== 'function') return call(self, [fn, ...rest]);
    const mark: OpenTransaction = { pglite, open: true };
    // Work the transaction's callback started and left running (not awaited) may use the
    // database once the transaction has ended: only while it is open is a call refused.
    return Promise.resolve(call(self, [(tx: unknown) => current.run(mark, () => fn(tx)), ...rest])).finally(() => {
      mark.open = false;
    });
  });
}
