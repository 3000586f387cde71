// Starts the real Frontis server (server/main.ts, the built client in ./dist) on a free port
// with a fresh embedded database, for the Playwright tests in this folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

const ROOT = { username: 'root', password: 'root-password-1' };

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    apiBase: string;
    root: { username: string; password: string };
  }
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });

async function waitForHealth(url: string, child: ChildProcess, ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer ${url} within ${ms} ms`);
}

export default async function setup(project: TestProject) {
  if (!existsSync('dist/index.html')) throw new Error('dist/ is missing: run `npm run build` first (npm test does).');
  const dataDir = mkdtempSync(join(tmpdir(), 'frontis-e2e-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      DEFAULT_TENANT: 'demo',
      ROOT_USERNAME: ROOT.username,
      ROOT_PASSWORD: ROOT.password,
      DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      // Every browser test signs in from 127.0.0.1 with a fresh browser (no device cookie): the
      // whole suite is one client address, far past a real address's budget. The limits
      // themselves are tested by tests/api/sign-in-limits.test.ts.
      LOGIN_RATE_PER_ADDRESS: '100000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitForHealth(`http://127.0.0.1:${port}/healthz`, child, 120_000);
  project.provide('baseUrl', `http://demo.localhost:${port}`);
  project.provide('apiBase', `http://127.0.0.1:${port}`);
  project.provide('root', ROOT);

  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
