/**
 * Sends issued receipts to AADE's myDATA every MYDATA_EVERY_SECONDS (server/modules/aade/job.ts):
 * what a failure, a back-off or a restart left is picked up at a later run. Safe on several
 * processes at once (claims with FOR UPDATE SKIP LOCKED).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/types';
import { subscriptionKeyOpener } from '../modules/aade/credentials';
import { runAadeJob } from '../modules/aade/job';

const FIRST_RUN_MS = 5_000;

export function scheduleAade(database: Database, config: Config, log: FastifyBaseLogger): () => void {
  const open = subscriptionKeyOpener(database);
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    runAadeJob(database, config.aadeUrl, open, log)
      .catch((error: unknown) => log.error({ err: error }, 'myDATA job failed'))
      .finally(() => {
        running = false;
      });
  };
  const first = setTimeout(run, Math.min(FIRST_RUN_MS, config.aadeEverySeconds * 1000)).unref();
  const timer = setInterval(run, config.aadeEverySeconds * 1000).unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
