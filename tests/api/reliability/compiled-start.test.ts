// `npm start` runs the server compiled to plain JavaScript (scripts/build-server.mjs, run by
// `npm run build`, which `npm test` runs first): the compiled file finds its migrations,
// creates the database and the first accounts, serves the built client compressed and the
// API, and stops cleanly on SIGTERM.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, compiled, type FrontisProcess, REPO, ROOT, startFrontis } from '../../../bench/frontis-process';

describe('the compiled server on the embedded database', () => {
  let dataDir: string;
  let server: FrontisProcess | undefined;

  beforeAll(async () => {
    if (!existsSync(join(REPO, 'dist/index.html'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does).');
    dataDir = mkdtempSync(join(tmpdir(), 'frontis-compiled-'));
    server = await startFrontis({ DATA_DIR: dataDir, DATABASE_URL: '' }, 120_000, [compiled('main.js')]);
  });
  afterAll(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('is plain JavaScript that imports no TypeScript loader', () => {
    const code = readFileSync(join(REPO, 'dist-server/main.js'), 'utf8');
    expect(code).not.toMatch(/from ["']tsx/);
    expect(code).not.toMatch(/from ["'][./]+[^"']*\.ts["']/);
  });

  it('migrated a fresh database and lets ROOT sign in', async () => {
    const res = await call(server!.base, 'POST', '/login', { body: { username: ROOT.username, password: ROOT.password, tenant: 'demo' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user.username).toBe(ROOT.username);
  });

  it('serves the built client compressed', async () => {
    const index = readFileSync(join(REPO, 'dist/index.html'), 'utf8');
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(index)![1]!;
    const res = await fetch(`${server!.base}${script}`, { headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // fetch decodes brotli itself: the body is the file as it is on disk
    expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(REPO, 'dist', script)))).toBe(true);
    expect(brotliDecompressSync(readFileSync(join(REPO, 'dist', `${script}.br`))).equals(readFileSync(join(REPO, 'dist', script)))).toBe(true);
  });

  it('warns at start that neither channel to families is set (no SMTP_URL, no SMS_URL), and serves', async () => {
    const output = server!.output();
    expect(output).toContain('No channel to families: neither SMTP_URL nor SMS_URL');
    expect(output).toContain('portal invitations, absence notices and reminders stay in the message log, unsent');
    const health = await call(server!.base, 'GET', '/healthz');
    expect(health.status).toBe(200);
  });

  it('stops cleanly on SIGTERM', async () => {
    server!.child.kill('SIGTERM');
    expect(await server!.exited).toBe(0);
  });
});
