// Starts the real Frontis server (compiled, as `npm start` runs it: dist-server/main.js, the
// built client in ./dist) on a free port with a fresh embedded database, for the Playwright
// tests in this folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from '../../bench/free-port';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import type { TestProject } from 'vitest/node';
import { startAadeStandIn } from '../api/support/aade-stand-in';

const ROOT = { username: 'root', password: 'root-password-1' };

declare module 'vitest' {
  export interface ProvidedContext {
    /** One server per worker (tests/e2e/server.ts picks a file's own). */
    servers: E2eServer[];
    root: { username: string; password: string };
    /** The AADE stand-in the servers send receipts to (MYDATA_URL), and the credentials it accepts. */
    aade: { url: string; userId: string; key: string };
  }
}

export interface E2eServer {
  baseUrl: string;
  apiBase: string;
  /** Where the test SMTP server this server sends to keeps each message (`<n>.json`: to and raw). */
  mailDir: string;
}

/** As many servers as browser-test files run at once (vitest.config.ts: one at a time). */
const SERVERS = 1;

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

/** A Frontis server on a fresh embedded database, with its own SMTP mailbox. */
async function startStack(aadeUrl: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'frontis-e2e-'));
  const port = await freePort();
  // The e-mail the server sends (absence notices to families) lands in a real SMTP server here.
  const mailDir = mkdtempSync(join(tmpdir(), 'frontis-e2e-mail-'));
  let received = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = (session.envelope.rcptTo || []).map((r) => r.address);
        writeFileSync(join(mailDir, `${++received}.json`), JSON.stringify({ to, raw: Buffer.concat(chunks).toString('latin1') }));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as { port: number }).port;
  const child = spawn(process.execPath, ['dist-server/main.js'], {
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
      // themselves are tested by tests/api/auth/sign-in-limits.test.ts.
      LOGIN_RATE_PER_ADDRESS: '100000',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      ABSENCE_GRACE_SECONDS: '1',
      OUTBOX_SWEEP_SECONDS: '1',
      MYDATA_URL: aadeUrl,
      MYDATA_EVERY_SECONDS: '1',
      // the unpaid months of the shared centre reach a new office user within seconds
      NOTIFICATIONS_EVERY_SECONDS: '2',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitForHealth(`http://127.0.0.1:${port}/healthz`, child, 120_000);
  const server: E2eServer = { baseUrl: `http://demo.localhost:${port}`, apiBase: `http://127.0.0.1:${port}`, mailDir };
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    rmSync(dataDir, { recursive: true, force: true });
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    rmSync(mailDir, { recursive: true, force: true });
  };
  return { server, stop };
}

export default async function setup(project: TestProject) {
  for (const built of ['dist/index.html', 'dist-server/main.js']) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first (npm test does).`);
  }
  // Receipts go to a local stand-in for AADE's myDATA once a centre turns it on, checked every second.
  const AADE_ACCOUNT = { userId: 'frontis-e2e', key: 'e2e-subscription-key-1' };
  const aade = await startAadeStandIn({ [AADE_ACCOUNT.userId]: AADE_ACCOUNT.key });
  const stacks = await Promise.all(Array.from({ length: SERVERS }, () => startStack(aade.url)));
  project.provide(
    'servers',
    stacks.map((s) => s.server),
  );
  project.provide('root', ROOT);
  project.provide('aade', { url: aade.url, ...AADE_ACCOUNT });

  return async () => {
    await Promise.all(stacks.map((s) => s.stop()));
    await aade.close();
  };
}
