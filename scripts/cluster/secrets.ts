/**
 * The cluster's passwords: generated once, kept in `<dir>/secrets.json` (mode 600, root's),
 * read again by every script that works on the same cluster (restore drill, failover).
 * Every database role the cluster makes gets one, stored by PostgreSQL as scram-sha-256.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Secrets {
  /** PostgreSQL's superuser `postgres`: Frontis (through PgBouncer), pgBackRest's checks, the scripts. */
  postgres: string;
  /** pg_auto_failover's roles: the monitor's own (autoctl), the keepers on the monitor (autoctl_node), its health checks, replication. */
  autoctl: string;
  autoctl_node: string;
  pgautofailover_monitor: string;
  pgautofailover_replicator: string;
}

const NAMES: (keyof Secrets)[] = ['postgres', 'autoctl', 'autoctl_node', 'pgautofailover_monitor', 'pgautofailover_replicator'];

export const secretsFile = (dir: string) => join(dir, 'secrets.json');

/** The cluster's passwords, made on its first start (32 hex characters each). */
export function loadSecrets(dir: string): Secrets {
  const file = secretsFile(dir);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Secrets;
  const secrets = {} as Secrets;
  for (const name of NAMES) secrets[name] = randomBytes(16).toString('hex');
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secrets;
}
