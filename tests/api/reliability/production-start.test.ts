// `npm start` as an operator runs it (scripts/start.mjs): in a checkout it builds once and then
// starts the existing build without rebuilding; in a production install (no dev dependencies,
// so no vite) it runs the compiled server, also when the sources changed since the build.
//
// Everything happens in temporary copies, never in the repository: a build there would replace
// the dist/ that other test files serve while they run. The checkout copy shares the
// repository's node_modules through a symlink. The production tree gets a node_modules of its
// own holding symlinks to exactly the packages package-lock.json does not mark `dev`: what
// `npm install --omit=dev` installs, made in milliseconds, offline, with no npm cache (an
// install from the cache takes about half a minute and needs the cache filled). The compiled
// server resolves its imports from its own tree, so a package it imports that is only a dev
// dependency is missing there, as in a real production install.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, REPO, ROOT, sleep } from '../../../bench/frontis-process';
import { freePort } from '../../../bench/free-port';

/** What a checkout holds that the build reads, plus the scripts that build and start it. */
const SOURCES = ['src', 'domain', 'server', 'public', 'scripts', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json'];

interface Started {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | string>;
}

/** `npm start` in `cwd`, in a process group of its own (npm, its shell and node end together). */
async function npmStart(cwd: string, dataDir: string, timeoutMs: number): Promise<Started & { base: string }> {
  const port = await freePort();
  const child = spawn('npm', ['start'], {
    cwd,
    detached: true,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DEFAULT_TENANT: 'demo',
      ROOT_USERNAME: ROOT.username,
      ROOT_PASSWORD: ROOT.password,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (chunk: Buffer) => {
    out += chunk.toString();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let ended = false;
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      ended = true;
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (ended) throw new Error(`npm start exited (${await exited}):\n${out}`);
    const res = await call(base, 'GET', '/healthz');
    if (res.status === 200) return { child, output: () => out, exited, base };
    await sleep(250);
  }
  await stop({ child, output: () => out, exited });
  throw new Error(`npm start was not healthy within ${timeoutMs} ms:\n${out}`);
}

/**
 * SIGTERM to the group, then waits until npm has exited and the server has let go of its port:
 * npm exits at once, while the server drains its kept-alive connections for up to two seconds
 * and only then releases DATA_DIR (the next start would find it still in use).
 */
async function stop(started: Started & { base?: string }): Promise<void> {
  try {
    process.kill(-started.child.pid!, 'SIGTERM');
  } catch {
    // already gone
  }
  await started.exited;
  const until = Date.now() + 30_000;
  while (started.base && Date.now() < until && (await call(started.base, 'GET', '/healthz')).status !== 0) await sleep(100);
}

/** node_modules holding only the production packages of the lock file, as symlinks into the shared install. */
function productionModules(tree: string): void {
  const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  for (const [path, entry] of Object.entries(lock.packages)) {
    // Top-level entries only: a nested node_modules lives inside its (symlinked) parent.
    if (!/^node_modules\/(@[^/]+\/)?[^/]+$/.test(path) || entry.dev) continue;
    const source = join(REPO, path);
    if (!existsSync(source)) continue; // an optional package for another platform
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    symlinkSync(source, join(tree, path), 'dir');
  }
}

describe('npm start', () => {
  const temps: string[] = [];
  const temp = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    temps.push(dir);
    return dir;
  };
  let checkout: string;
  let dataDir: string;

  beforeAll(() => {
    checkout = temp('frontis-checkout-');
    for (const name of SOURCES) cpSync(join(REPO, name), join(checkout, name), { recursive: true });
    symlinkSync(join(REPO, 'node_modules'), join(checkout, 'node_modules'), 'dir');
    dataDir = temp('frontis-data-');
  });
  afterAll(() => {
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  });

  it('builds a checkout that has no build, then serves it', async () => {
    const first = await npmStart(checkout, dataDir, 240_000);
    await stop(first);
    expect(first.output()).toContain('[start] no build yet: building');
    expect(existsSync(join(checkout, 'dist/index.html'))).toBe(true);
    expect(existsSync(join(checkout, 'dist-server/build-stamp.json'))).toBe(true);
  }, 300_000);

  it('starts the existing build a second time without rebuilding, also after npm rewrote the lock file', async () => {
    // `npm install` adds the optional binaries of other platforms to the lock: nothing it
    // installs changes, so the build is not stale.
    const lockPath = join(checkout, 'package-lock.json');
    const lock = JSON.parse(readFileSync(lockPath, 'utf8')) as { packages: Record<string, unknown> };
    lock.packages['node_modules/@biomejs/cli-win32-x64'] = { version: '0.0.0', dev: true, optional: true, os: ['win32'], cpu: ['x64'] };
    writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
    const stampBefore = readFileSync(join(checkout, 'dist-server/build-stamp.json'), 'utf8');
    const indexBefore = readFileSync(join(checkout, 'dist/index.html'), 'utf8');
    const second = await npmStart(checkout, dataDir, 120_000);
    const signIn = await call(second.base, 'POST', '/login', { body: { username: ROOT.username, password: ROOT.password, tenant: 'demo' } });
    await stop(second);
    expect(signIn.status).toBe(200);
    expect(second.output()).toContain('[start] build is up to date');
    expect(second.output()).not.toContain('building');
    expect(readFileSync(join(checkout, 'dist-server/build-stamp.json'), 'utf8')).toBe(stampBefore);
    expect(readFileSync(join(checkout, 'dist/index.html'), 'utf8')).toBe(indexBefore);
  }, 180_000);

  describe('in a production install without dev dependencies', () => {
    let production: string;

    beforeAll(() => {
      production = temp('frontis-production-');
      for (const name of ['dist', 'dist-server', 'scripts', 'package.json', 'package-lock.json']) {
        cpSync(join(checkout, name), join(production, name), { recursive: true });
      }
      productionModules(production);
    });

    it('has no build tools', () => {
      expect(existsSync(join(production, 'node_modules/fastify'))).toBe(true);
      expect(existsSync(join(production, 'node_modules/vite'))).toBe(false);
      expect(existsSync(join(production, 'node_modules/vitest'))).toBe(false);
    });

    it('runs the copied build: /healthz answers and ROOT signs in', async () => {
      const started = await npmStart(production, temp('frontis-data-'), 120_000);
      const signIn = await call(started.base, 'POST', '/login', { body: { username: ROOT.username, password: ROOT.password, tenant: 'demo' } });
      await stop(started);
      expect(signIn.status, started.output()).toBe(200);
      expect(started.output()).toContain('[start] no sources here: starting the build as it is');
    }, 180_000);

    it('restores with the compiled restore script: it loads and judges its argument', () => {
      const run = spawnSync(process.execPath, ['dist-server/restore.js', join(production, 'no-such-backup.tar.gz')], {
        cwd: production,
        env: { PATH: process.env.PATH ?? '', DATA_DIR: temp('frontis-data-') },
        encoding: 'utf8',
      });
      expect(run.stderr).toContain('no such backup file');
      expect(run.status).toBe(1);
    });

    it('refuses to start a checkout that was never built, saying what to do', () => {
      const unbuilt = temp('frontis-unbuilt-');
      for (const name of SOURCES) cpSync(join(checkout, name), join(unbuilt, name), { recursive: true });
      symlinkSync(join(production, 'node_modules'), join(unbuilt, 'node_modules'), 'dir');
      const run = spawnSync(process.execPath, ['scripts/start.mjs'], { cwd: unbuilt, env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8' });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('there is no build (dist/ and dist-server/) and the build tools are not installed');
      expect(existsSync(join(unbuilt, 'dist'))).toBe(false);
    });

    it('starts a build older than the sources beside it with a warning instead of rebuilding', async () => {
      for (const name of ['src', 'domain', 'server', 'public', 'index.html', 'vite.config.ts', 'tsconfig.json']) {
        cpSync(join(checkout, name), join(production, name), { recursive: true });
      }
      writeFileSync(join(production, 'server/changed-since-the-build.ts'), 'export const changed = true;\n');
      const indexBefore = readFileSync(join(production, 'dist/index.html'), 'utf8');
      const started = await npmStart(production, dataDir, 120_000);
      await stop(started);
      expect(started.output()).toContain('the build is older than the sources here, and the build tools (dev dependencies) are not installed');
      expect(started.output()).not.toContain('building');
      expect(readFileSync(join(production, 'dist/index.html'), 'utf8')).toBe(indexBefore);
    }, 180_000);
  });
});
