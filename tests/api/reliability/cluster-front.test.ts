// The cluster's safety parts on a reduced cluster (the fast part of `npm run
// cluster:restore-drill` and of `npm run cluster`'s front; docs/deploy.md): one PostgreSQL
// with scram passwords on loopback, archiving its WAL to pgBackRest; the compiled Frontis on it;
// HAProxy in front with TLS. A payment written before a chosen moment is in the database
// restored to that moment, one written after is not; HTTPS through HAProxy reaches Frontis as
// HTTPS (X-Forwarded-Proto), with HSTS; plain HTTP is redirected; the stats page answers on
// loopback. Runs as root (CI does) with Debian's pgbackrest, haproxy and PostgreSQL 15.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificate, frontLines, httpsRequest } from '../../../scripts/cluster/front';
import { paymentWriter } from '../../../scripts/cluster/payments';
import {
  archiveSettings,
  type Backrest,
  backrest,
  type Connection,
  PG_BIN,
  postgresDir,
  postgresOwner,
  restoreDrill,
  sql,
  STANZA,
} from '../../../scripts/cluster/pitr';
import { loadSecrets } from '../../../scripts/cluster/secrets';
import { endFrontis, type FrontisProcess, ROOT, sleep, startFrontis } from '../../../bench/frontis-process';
import { freePort } from '../../../bench/free-port';

const asPostgres = (command: string, args: string[]) =>
  execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8', stdio: 'pipe' });

const https = httpsRequest;

describe('a reduced cluster: point-in-time recovery with pgBackRest, TLS through HAProxy', () => {
  let dir: string;
  let data: string;
  let db: Connection;
  let repo: Backrest;
  let frontis: FrontisProcess | undefined;
  let haproxy: ChildProcess | undefined;
  let ports: { https: number; http: number; stats: number };
  let pem: string;

  beforeAll(async () => {
    if (process.getuid?.() !== 0) throw new Error('this test runs as root (CI does): PostgreSQL and pgBackRest run as the postgres user');
    dir = postgresDir(mkdtempSync('/tmp/frontis-cluster-test-'));
    const secrets = loadSecrets(dir);
    data = join(dir, 'pg');
    const socket = postgresDir(join(dir, 'run'));
    db = { port: await freePort(), user: 'postgres', password: secrets.postgres, database: 'frontis' };
    repo = backrest(join(dir, 'pgbackrest'), [{ path: data, port: db.port, socket }]);
    const pwfile = join(dir, 'pwfile');
    writeFileSync(pwfile, secrets.postgres, { mode: 0o600 });
    const owner = postgresOwner();
    execFileSync('chown', [`${owner.uid}:${owner.gid}`, pwfile]);
    asPostgres(`${PG_BIN}/initdb`, ['-D', data, '-U', 'postgres', '--auth-local=peer', '--auth-host=scram-sha-256', `--pwfile=${pwfile}`]);
    rmSync(pwfile);
    writeFileSync(
      join(data, 'postgresql.conf'),
      [
        readFileSync(join(data, 'postgresql.conf'), 'utf8'),
        "listen_addresses = '127.0.0.1'",
        `port = ${db.port}`,
        `unix_socket_directories = '${socket}'`,
        "password_encryption = 'scram-sha-256'",
        ...archiveSettings(repo),
        '',
      ].join('\n'),
    );
    asPostgres(`${PG_BIN}/pg_ctl`, ['-D', data, '-l', join(dir, 'pg.log'), '-w', '-t', '60', 'start']);
    await sql({ ...db, database: 'postgres' }, 'create database frontis');
    repo.run('stanza-create');

    frontis = await startFrontis({
      DATABASE_URL: `postgres://postgres:${db.password}@127.0.0.1:${db.port}/frontis`,
      DATA_DIR: join(dir, 'frontis-data'),
      TRUST_PROXY: 'true',
    });
    repo.run('--type=full', 'backup');

    ports = { https: await freePort(), http: await freePort(), stats: await freePort() };
    pem = certificate(dir, '');
    const cfg = join(dir, 'haproxy.cfg');
    writeFileSync(
      cfg,
      [
        'defaults',
        '  mode http',
        '  timeout connect 2s',
        '  timeout client 30s',
        '  timeout server 30s',
        '  option forwardfor',
        ...frontLines({ host: '127.0.0.1', ...ports, pem, backend: 'frontis' }),
        'backend frontis',
        `  server f1 127.0.0.1:${frontis.port}`,
        '',
      ].join('\n'),
    );
    execFileSync('haproxy', ['-c', '-q', '-f', cfg]);
    haproxy = spawn('haproxy', ['-db', '-f', cfg], { stdio: 'ignore' });
    const deadline = Date.now() + 20_000;
    while ((await https(ports.https, '/healthz', readFileSync(pem)).catch(() => ({ status: 0 }))).status !== 200) {
      if (Date.now() > deadline) throw new Error('HAProxy did not answer over HTTPS within 20 s');
      await sleep(200);
    }
  });

  afterAll(async () => {
    haproxy?.kill('SIGKILL');
    await endFrontis(frontis);
    if (data) {
      try {
        asPostgres(`${PG_BIN}/pg_ctl`, ['-D', data, '-m', 'immediate', 'stop']);
      } catch {
        // not started
      }
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('restores to a chosen moment: the payment written before it is there, the one written after is not', async () => {
    const pay = await paymentWriter(frontis!.base, ROOT);
    const result = await restoreDrill({ backrest: repo, primary: db, pay, scratch: join(dir, 'scratch'), scratchPort: await freePort(), log: () => undefined });
    expect(result.before).toBeLessThan(result.after);
    expect(result.found).toEqual([result.before]);
    // Both payments are in the live database all along.
    expect((await sql<{ n: number }>(db, 'select count(*)::int as n from payments where id = any($1::int[])', [[result.before, result.after]]))[0]!.n).toBe(2);
    // The repository holds a full backup and the incremental the drill took, WAL archived without a failure.
    const info = JSON.parse(repo.run('--output=json', 'info'))[0];
    expect(info.name).toBe(STANZA);
    expect(info.backup.map((b: { type: string }) => b.type)).toEqual(['full', 'incr']);
    expect((await sql<{ failed: number }>(db, 'select failed_count::int as failed from pg_stat_archiver'))[0]!.failed).toBe(0);
  }, 180_000);

  it('has a scram password on every role that can sign in, and listens on loopback only', async () => {
    const roles = await sql<{ rolname: string; scram: boolean }>(
      db,
      "select rolname, coalesce(rolpassword like 'SCRAM-SHA-256$%', false) as scram from pg_authid where rolcanlogin",
    );
    expect(roles.length).toBeGreaterThan(0);
    expect(roles.filter((r) => !r.scram)).toEqual([]);
    expect((await sql<{ l: string }>(db, "select current_setting('listen_addresses') as l"))[0]!.l).toBe('127.0.0.1');
    await expect(sql({ ...db, password: 'not-the-password' }, 'select 1')).rejects.toThrow(/password authentication failed/);
  });

  it('serves HTTPS through HAProxy with HSTS, and Frontis sees the request as HTTPS', async () => {
    const ca = readFileSync(pem);
    const health = await https(ports.https, '/healthz', ca);
    expect(health.status).toBe(200);
    expect(health.headers['strict-transport-security']).toMatch(/max-age=31536000/);
    // A browser's sign-in from the HTTPS origin: accepted as same-origin only if Frontis sees
    // https (X-Forwarded-Proto, TRUST_PROXY), and its session cookies are marked Secure.
    const origin = `https://127.0.0.1:${ports.https}`;
    const body = JSON.stringify({ username: ROOT.username, password: ROOT.password, tenant: 'demo' });
    const login = await https(ports.https, '/login', ca, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json', 'x-tenant-id': 'demo', 'x-client-type': 'web' },
      body,
    });
    expect(login.status, login.body).toBe(200);
    const cookies = login.headers['set-cookie'] as string[];
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie).toMatch(/; Secure/);
    // What a client says of the protocol is not believed: HAProxy sets the header itself.
    const spoofed = await https(ports.https, '/healthz', ca, { headers: { 'x-forwarded-proto': 'http' } });
    expect(spoofed.headers['strict-transport-security']).toMatch(/max-age=31536000/);
  });

  it('redirects plain HTTP to HTTPS and keeps its stats page on loopback', async () => {
    const plain = await fetch(`http://127.0.0.1:${ports.http}/login?x=1`, { redirect: 'manual' });
    expect(plain.status).toBe(301);
    expect(plain.headers.get('location')).toBe(`https://127.0.0.1:${ports.https}/login?x=1`);
    const stats = await fetch(`http://127.0.0.1:${ports.stats}/stats;csv`);
    expect(stats.status).toBe(200);
    expect(await stats.text()).toMatch(/^# pxname,svname/);
    // The sockets listening on the stats port (the kernel's table: address and port in hex, state 0A = listening).
    const port = ports.stats.toString(16).toUpperCase().padStart(4, '0');
    const listening = ['/proc/net/tcp', '/proc/net/tcp6']
      .flatMap((file) => readFileSync(file, 'utf8').trim().split('\n').slice(1))
      .map((line) => line.trim().split(/\s+/))
      .filter((f) => f[3] === '0A' && f[1]!.endsWith(`:${port}`))
      .map((f) => f[1]);
    expect(listening).toEqual([`0100007F:${port}`]);
  });
});
