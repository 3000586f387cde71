// A DATABASE_URL naming several hosts, as `pg_autoctl show uri` prints it: the URL is read
// (the second host being the primary), the writable host is found past a closed port, the
// app serves through it, and a URL with no host answering is refused naming the setting.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { parseHosts } from '../../../server/db/hosts';
import { migrate } from '../../../server/db/migrate';
import { isDatabaseUnavailable } from '../../../server/db/unavailable';
import { freePort } from '../../../bench/free-port';
import { expectStatus, json } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';
import { openDatabase } from '../../../server/db/open';

describe('reading a URL of several hosts', () => {
  it('gives each host its own URL, keeping the credentials, database and other parameters', () => {
    const list = parseHosts('postgres://frontis:s%40cret@10.0.0.1:5432,10.0.0.2:5433/frontis?sslmode=require&target_session_attrs=read-write');
    expect(list).toEqual({
      urls: ['postgres://frontis:s%40cret@10.0.0.1:5432/frontis?sslmode=require', 'postgres://frontis:s%40cret@10.0.0.2:5433/frontis?sslmode=require'],
      readWrite: true,
    });
    expect(parseHosts('postgres://u@h1,h2/db')).toEqual({ urls: ['postgres://u@h1/db', 'postgres://u@h2/db'], readWrite: false });
  });

  it('leaves a URL of one host as it is', () => {
    expect(parseHosts('postgres://u@localhost:5432/db')).toBeUndefined();
  });

  it('refuses what it cannot serve, naming the setting', () => {
    expect(() => parseHosts('mysql://u@h/db')).toThrow(/DATABASE_URL/);
    expect(() => parseHosts('postgres://u@h1,,h2/db')).toThrow(/DATABASE_URL/);
    expect(() => parseHosts('postgres://u@h1,h2/db?target_session_attrs=read-only')).toThrow(/DATABASE_URL: target_session_attrs=read-only/);
    expect(() => parseHosts('postgres://u@h1,h 2/db', 'DATABASE_DIRECT_URL')).toThrow(/DATABASE_DIRECT_URL/);
  });
});

describe.runIf(DATABASE_KINDS.includes('postgres'))('serving on a URL of several hosts', () => {
  let t: TestApp;
  let closed: number;
  /** The test database's URL with a closed port on loopback named first. */
  let multi: string;

  beforeAll(async () => {
    t = await startApp('postgres');
    closed = await freePort();
    const url = new URL(t.config.databaseUrl!);
    multi = `postgres://${url.username}${url.password ? `:${url.password}` : ''}@127.0.0.1:${closed},${url.host}${url.pathname}?target_session_attrs=read-write`;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('finds the writable host past a closed port, migrates and serves through it', async () => {
    const database = await openDatabase({ url: multi });
    try {
      expect(new URL(database.directUrl!).port).toBe(new URL(t.config.databaseUrl!).port);
      await migrate(database);
      const app = await buildApp({ database, config: { ...t.config, databaseUrl: multi }, serveClient: false });
      try {
        const health = await app.inject({ method: 'GET', url: '/healthz' });
        expectStatus(health, 200);
        expect(json(health).status).toBe('ok');
        const login = await app.inject({
          method: 'POST',
          url: '/login',
          headers: { host: 'demo.localhost', 'x-tenant-id': 'demo', 'x-client-type': 'api' },
          payload: { username: t.root.username, password: t.root.password, tenant: 'demo' },
        });
        expectStatus(login, 200);
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
    }
  });

  it('passes a standby by: with only a standby answering, nothing is served and the setting is named', async () => {
    // This test's own database answers pg_is_in_recovery() as a standby would: a function
    // found before pg_catalog's, on the search path of its new sessions.
    const url = new URL(t.config.databaseUrl!);
    // Opened while the host is still the primary, as a running server's pool is.
    const running = await openDatabase({ url: multi });
    const admin = new pg.Client({ connectionString: t.config.databaseUrl });
    await admin.connect();
    try {
      await admin.query(`create schema standin;
        create function standin.pg_is_in_recovery() returns boolean language sql as 'select true';
        grant usage on schema standin to public;
        alter database ${url.pathname.slice(1)} set search_path = "$user", public, standin, pg_catalog`);
    } finally {
      await admin.end();
    }
    // Its next connection finds a standby: refused as the database being away for the moment (503).
    try {
      const refused = await running.pool!.query('select 1').then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(String(refused)).toMatch(/is a standby \(read-only\); looking for the primary/);
      expect(isDatabaseUnavailable(refused)).toBe(true);
    } finally {
      await running.close();
    }
    await expect(openDatabase({ url: multi })).rejects.toThrow(
      new RegExp(`DATABASE_URL: no writable host answered \\(127\\.0\\.0\\.1:${closed}: .*; ${url.host.replace(/\./g, '\\.')}: a standby \\(read-only\\)\\)`),
    );
    // Any host will do without target_session_attrs=read-write.
    const any = await openDatabase({ url: multi.replace('target_session_attrs=read-write', 'target_session_attrs=any') });
    try {
      expect(new URL(any.directUrl!).port).toBe(url.port);
    } finally {
      await any.close();
    }
  });

  it('refuses to start when no host answers, naming DATABASE_URL and each host', async () => {
    const other = await freePort();
    const none = `postgres://postgres@127.0.0.1:${closed},127.0.0.1:${other}/frontis?target_session_attrs=read-write`;
    await expect(openDatabase({ url: none })).rejects.toThrow(
      new RegExp(`DATABASE_URL: no writable host answered \\(127\\.0\\.0\\.1:${closed}: .*127\\.0\\.0\\.1:${other}: `),
    );
  });
});
