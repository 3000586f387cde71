/**
 * `npm run cluster:restore-drill`: on the cluster `npm run cluster` runs (CLUSTER_DIR), proves
 * point-in-time recovery (docs/deploy.md): an incremental backup, a payment written through
 * Frontis, the moment, another payment, then pgBackRest restores the backup and the archived
 * WAL up to that moment into a scratch cluster in the folder (port base + 30), which must have
 * the first payment and not the second. The scratch cluster is removed afterwards; the running
 * cluster is left as it was (with the two payments). Exit code 1 when the proof fails.
 */
import { join } from 'node:path';
import pg from 'pg';
import { clusterPorts, DEFAULT_DIR, ROOT_USER, runningCluster } from './cluster';
import { paymentWriter } from './payments';
import { backrest, restoreDrill } from './pitr';
import { loadSecrets } from './secrets';

async function main() {
  const log = (line: string) => console.log(`[restore-drill] ${line}`);
  const dir = process.env.CLUSTER_DIR ?? DEFAULT_DIR;
  const state = runningCluster(dir);
  if (!state) throw new Error(`no cluster is running from ${dir}: start one with \`npm run cluster\` (CLUSTER_DIR names another folder)`);
  const ports = clusterPorts(state.basePort);
  const secrets = loadSecrets(dir);
  // The node the monitor names primary now.
  const monitor = new pg.Client({ host: '127.0.0.1', port: ports.monitor, database: 'pg_auto_failover', user: 'autoctl_node', password: secrets.autoctl_node });
  await monitor.connect();
  const { rows } = await monitor
    .query<{ nodeport: number }>(
      "select nodeport from pgautofailover.node where reportedstate = goalstate and goalstate in ('primary', 'wait_primary', 'single')",
    )
    .finally(() => monitor.end());
  const primary = rows[0]?.nodeport;
  if (!primary) throw new Error('the monitor names no primary now: see `pg_autoctl show state`');
  const repo = backrest(
    join(dir, 'pgbackrest'),
    ports.nodes.map((port, i) => ({ path: join(dir, `node${i + 1}`), port, socket: '/var/run/postgresql' })),
  );
  const pay = await paymentWriter(`http://127.0.0.1:${ports.frontis[0]}`, ROOT_USER);
  const result = await restoreDrill({
    backrest: repo,
    primary: { port: primary, user: 'postgres', password: secrets.postgres, database: 'frontis' },
    pay,
    scratch: join(dir, 'scratch'),
    scratchPort: ports.drill,
    log,
  });
  const ok = result.found.length === 1 && result.found[0] === result.before;
  console.log('\n=== restore drill ===');
  console.log(`restored to ${result.moment} in ${result.seconds.toFixed(1)} s`);
  console.log(`payment ${result.before} (written before): ${result.found.includes(result.before) ? 'there' : 'MISSING'}`);
  console.log(`payment ${result.after} (written after): ${result.found.includes(result.after) ? 'THERE' : 'not there'}`);
  console.log(ok ? 'restore drill passed' : 'restore drill FAILED');
  if (!ok) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
