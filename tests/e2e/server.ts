// The Frontis server of this browser-test file: global-setup.ts starts one per worker, and a
// worker runs one file at a time, so a file shares its server's data only with the files
// before it, never with one running beside it.
import { inject } from 'vitest';
import type { E2eServer } from './global-setup';

export function e2eServer(): E2eServer {
  const servers = inject('servers');
  return servers[(Number(process.env.VITEST_POOL_ID ?? '1') - 1) % servers.length]!;
}
