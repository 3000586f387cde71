/**
 * Sends issued receipts to AADE's myDATA every MYDATA_EVERY_SECONDS (server/modules/mydata-send/job.ts):
 * what a failure, a back-off or a restart left is picked up at a later run. Safe on several
 * processes at once (claims with FOR UPDATE SKIP LOCKED).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/types';
import { subscriptionKeyOpener } from '../modules/mydata-send/credentials';
import { runMydataJob } from '../modules/mydata-send/job';

const FIRST_RUN_MS = 5_000;

export function scheduleMydata(database: Database, config: Config, log: FastifyBaseLogger): () => void {
  const open = subscriptionKeyOpener(database);
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    runMydataJob(database, config.mydataUrl, open, log)
      .catch((error: unknown) => log.error({ err: error }, 'myDATA job failed'))
      .finally(() => {
        running = false;
      });
  };
  const first = setTimeout(run, Math.min(FIRST_RUN_MS, config.mydataEverySeconds * 1000)).unref();
  const timer = setInterval(run, config.mydataEverySeconds * 1000).unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
