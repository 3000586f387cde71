// Frontis as a real child process (the compiled server, as `npm start` runs it) for the tests
// that kill it, cut its database or run two of them, and for the soak bench; and a small fetch
// client over loopback.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from './free-port';

export const REPO = fileURLToPath(new URL('../', import.meta.url));
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const ROOT = { username: 'root', password: 'root-password-1' } as const;

export interface FrontisProcess {
  port: number;
  base: string;
  child: ChildProcess;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
  alive(): boolean;
  output(): string;
  /** SIGTERM and wait for the end. */
  stop(): Promise<void>;
  /** SIGKILL, as a power cut or the OOM killer would, and wait for the end. */
  kill9(): Promise<void>;
}

/**
 * The compiled server and restore script (dist-server/, made by `npm run build`, which `npm
 * test` runs first): what `npm start` and a production install run, and a second or two
 * quicker to start than the sources through a TypeScript loader.
 */
export function compiled(script: 'main.js' | 'restore.js'): string {
  const path = join('dist-server', script);
  if (!existsSync(join(REPO, path))) throw new Error(`${path} is missing: run \`npm run build\` first (npm test does).`);
  return path;
}

/** Starts the compiled server (or the given node arguments) with env on a free loopback port; waits for /healthz. */
export async function startFrontis(env: Record<string, string>, timeoutMs = 90_000, nodeArgs = [compiled('main.js')]): Promise<FrontisProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, nodeArgs, {
    cwd: REPO,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DEFAULT_TENANT: 'demo',
      ROOT_USERNAME: ROOT.username,
      ROOT_PASSWORD: ROOT.password,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-20_000);
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
  const proc: FrontisProcess = {
    port,
    base,
    child,
    exited,
    alive: () => !ended,
    output: () => out,
    async stop() {
      if (!ended) child.kill('SIGTERM');
      await exited;
    },
    async kill9() {
      if (!ended) child.kill('SIGKILL');
      await exited;
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (ended) throw new Error(`Frontis exited during start (${await exited}):\n${out}`);
    try {
      const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return proc;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  await proc.kill9();
  throw new Error(`Frontis did not become healthy within ${timeoutMs} ms:\n${out}`);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Ends each process started: SIGTERM, and SIGKILL for one that has not ended ten seconds later. */
export async function endFrontis(...servers: (FrontisProcess | undefined)[]): Promise<void> {
  await Promise.all(
    servers.map(async (server) => {
      if (!server) return;
      await Promise.race([server.stop(), sleep(10_000)]);
      await server.kill9();
    }),
  );
}

/** `promise`, or a failure saying `what` when it takes longer than `ms`. */
export async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(what)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  setCookies: string[];
}

/** One API call over loopback; a network failure answers status 0. */
export async function call(
  base: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; tenant?: string; cookie?: string; clientType?: 'api' | 'web'; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { 'x-tenant-id': opts.tenant ?? 'demo', 'x-client-type': opts.clientType ?? 'api', ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON
    }
    return { status: res.status, headers: res.headers, body, setCookies: res.headers.getSetCookie() };
  } catch {
    return { status: 0, headers: new Headers(), body: null, setCookies: [] };
  }
}

export async function signIn(base: string, username: string, password: string, tenant = 'demo'): Promise<{ token: string; refresh_token: string }> {
  const res = await call(base, 'POST', '/login', { tenant, body: { username, password, tenant } });
  if (res.status !== 200) throw new Error(`sign-in of ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { token: string; refresh_token: string };
}

/** Every name of a list resource, page by page. */
export async function allNames(base: string, token: string, resource: string): Promise<Set<string>> {
  const names = new Set<string>();
  for (let start = 0; ; start += 100) {
    const res = await call(base, 'GET', `/api/${resource}?_start=${start}&_end=${start + 100}`, { token });
    if (res.status !== 200) throw new Error(`listing ${resource}: ${res.status} ${JSON.stringify(res.body)}`);
    const rows = (res.body as { data: { name: string }[] }).data;
    for (const r of rows) names.add(r.name);
    if (rows.length < 100) return names;
  }
}

/** A fresh database on the test server, and a superuser connection to it from outside (to cut it). */
export async function scratchDatabase(): Promise<{
  name: string;
  url: string;
  admin(sql: string, params?: unknown[]): Promise<pg.QueryResult>;
  drop(): Promise<void>;
}> {
  const name = `frontis_r_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string, params?: unknown[]) => {
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    try {
      return await c.query(sql, params);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    admin,
    async drop() {
      await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => undefined);
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
