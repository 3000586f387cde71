// Builds a real Frontis app on a real database for API tests: in-memory PGlite, or a fresh
// database on the PostgreSQL server named by TEST_DATABASE_URL. Nothing here is mocked.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../server/app';
import { bootstrap } from '../../server/bootstrap';
import { loadConfig, type Config } from '../../server/config';
import type { ResourceDef } from '../../domain/fields';
import { openDatabase } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';

const ENGINES = ['pglite', 'postgres'] as const;
export type DatabaseKind = (typeof ENGINES)[number];
/**
 * Both engines by default (npm test, CI). `TEST_ENGINES=pglite` runs a file on the embedded
 * database alone, with no PostgreSQL server needed (docs/testing.md).
 */
export const DATABASE_KINDS: readonly DatabaseKind[] = process.env.TEST_ENGINES
  ? ENGINES.filter((kind) => process.env.TEST_ENGINES!.split(',').includes(kind))
  : ENGINES;

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const ROOT = { username: 'root', password: 'root-password-1' } as const;

type Database = Awaited<ReturnType<typeof openDatabase>>;

export interface RequestOptions {
  method?: InjectOptions['method'];
  url: string;
  /** x-tenant-id header and Host label; null leaves the header out. Default 'demo'. */
  tenant?: string | null;
  /** x-client-type header; null leaves it out. Default 'api'. */
  clientType?: 'web' | 'api' | null;
  /** Access JWT sent as `Authorization: Bearer`. */
  token?: string;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  body?: unknown;
}

export interface Session {
  token: string;
  refresh_token: string;
  exp: number;
  user: { id: number; username: string; role: string; firstName: string; lastName: string };
}

export interface Account {
  id: number;
  username: string;
  password: string;
  token: string;
}

export interface TestApp {
  kind: DatabaseKind;
  app: FastifyInstance;
  database: Database;
  config: Config;
  root: typeof ROOT;
  request(opts: RequestOptions): Promise<LightMyRequestResponse>;
  signIn(username: string, password: string, tenant?: string): Promise<Session>;
  createTenant(slug: string, name?: string): Promise<{ tenantId: number; admin: Account }>;
  createUser(
    token: string,
    fields: { role: 'ADMIN' | 'SECRETARY'; tenant?: string; username?: string; first_name?: string; last_name?: string },
  ): Promise<Account>;
  close(): Promise<void>;
}

let counter = 0;
export const uniqueName = (prefix: string) => `${prefix}${process.pid}${Date.now().toString(36)}${(counter++).toString(36)}`;

const databaseUrl = (name: string) => {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

async function createScratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `frontis_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${await migratedTemplate()}`);
  } catch (error) {
    // dropped meanwhile (by a checkout of other migrations on this server, once it was old): made again
    if ((error as { code?: string }).code !== '3D000') throw error;
    template = undefined;
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${await migratedTemplate()}`);
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrl(name),
    async drop() {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** What a migrated database depends on: the migrations, the code that applies them and the policies, the declarations, PGlite's version. */
function migratedKey(): string {
  const hash = createHash('sha256').update(readFileSync(join(REPO, 'node_modules/@electric-sql/pglite/package.json')));
  for (const folder of ['server/db', 'domain']) {
    for (const name of (readdirSync(join(REPO, folder), { recursive: true }) as string[]).sort()) {
      const path = join(REPO, folder, name);
      if (statSync(path).isFile()) hash.update(name).update(readFileSync(path));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

let migrated: Promise<Blob> | undefined;
/**
 * An embedded database with every migration applied, made once and dumped to the temporary
 * directory (named by what it depends on, so a changed migration makes a new one): each app
 * loads the dump instead of creating a database and migrating it, about a second less each.
 * `migrate` still runs on the copy and finds nothing left to do, so a test sees exactly what a
 * fresh database would hold.
 */
function migratedPglite(): Promise<Blob> {
  migrated ??= (async () => {
    const file = join(tmpdir(), `frontis-migrated-${migratedKey()}.tar`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const database = await openDatabase({});
    try {
      await migrate(database);
      const dump = await database.pglite!.dumpDataDir('none');
      // written aside, then renamed: another worker never reads half a file
      const partial = `${file}.${process.pid}`;
      writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
      renameSync(partial, file);
      return dump;
    } finally {
      await database.close();
    }
  })();
  return migrated;
}

let template: Promise<string> | undefined;
/** How long a template of other migrations is kept for another checkout's run. */
const TEMPLATE_KEPT_MS = 24 * 60 * 60 * 1000;
/**
 * A PostgreSQL database with every migration applied, made once per set of migrations (named
 * by what they depend on, as the embedded dump is) and kept on the server: each app's database
 * is a copy of it (CREATE DATABASE … TEMPLATE), about a second and a half less each than
 * migrating a new one. `migrate` still runs on the copy and finds nothing left to do. Workers
 * take turns to make it (an advisory lock). A template of other migrations is dropped once it
 * is a day old and nothing is copying it: another checkout's run on the same server (a
 * worktree, a clean clone) may be using it now.
 */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const name = `frontis_template_${migratedKey()}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`select pg_advisory_lock(hashtext('frontis_template'))`);
      const { rows } = await admin.query<{ datname: string; made: string | null }>(
        `select datname, shobj_description(oid, 'pg_database') as made from pg_database where datname like 'frontis\\_template\\_%'`,
      );
      if (rows.some((r) => r.datname === name)) return name;
      const old = rows.filter((r) => !(Number(r.made) > Date.now() - TEMPLATE_KEPT_MS));
      for (const { datname } of old) await admin.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => undefined);
      // made under another name and renamed once migrated: a run stopped halfway leaves no template
      const building = `${name}_${process.pid}`;
      await admin.query(`CREATE DATABASE ${building}`);
      const database = await openDatabase({ url: databaseUrl(building) });
      try {
        await migrate(database);
      } finally {
        await database.close();
      }
      await admin.query(`COMMENT ON DATABASE ${building} IS '${Date.now()}'`);
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      return name;
    } finally {
      await admin.end();
    }
  })();
  return template;
}

/** What a test adds to the app: declarations served beside the built-in ones, and work on the database before the app is built (their tables). */
export interface AppAdditions {
  resources?: readonly ResourceDef[];
  prepare?(database: Database): Promise<void>;
}

export async function startApp(kind: DatabaseKind, overrides: Partial<Config> = {}, additions: AppAdditions = {}): Promise<TestApp> {
  const scratch = kind === 'postgres' ? await createScratchDatabase() : undefined;
  // Uploaded files go to a directory of this app's own, removed with it.
  const dataDir = await mkdtemp(join(tmpdir(), 'frontis-test-'));
  const config: Config = {
    ...loadConfig({}),
    dataDir,
    defaultTenant: 'demo',
    rootUsername: ROOT.username,
    rootPassword: ROOT.password,
    demoData: false,
    databaseUrl: scratch?.url,
    logLevel: 'silent',
    loginRateLimit: { perUser: 1000, perAddress: 10_000, windowSeconds: 900 },
    // No shedding unless a test asks for it (overload.test.ts): some fire bursts on purpose
    // (200 sign-ins at once) to check other rules, on a loop that migrations keep busy.
    overload: { ...loadConfig({}).overload, maxInFlight: 0, maxEventLoopDelayMs: 0, maxPoolWaiting: 0 },
    ...overrides,
  };
  const database = await openDatabase({ url: scratch?.url, today: config.today, from: kind === 'pglite' ? await migratedPglite() : undefined });
  await migrate(database);
  await bootstrap(database, config);
  await additions.prepare?.(database);
  const app = await buildApp({ database, config, serveClient: false, resources: additions.resources });

  const request = (opts: RequestOptions) => {
    const tenant = opts.tenant === undefined ? 'demo' : opts.tenant;
    const headers: Record<string, string> = { host: `${tenant ?? 'demo'}.localhost`, ...(opts.headers ?? {}) };
    if (tenant !== null) headers['x-tenant-id'] = tenant;
    const clientType = opts.clientType === undefined ? 'api' : opts.clientType;
    if (clientType !== null) headers['x-client-type'] = clientType;
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    return app.inject({
      method: opts.method ?? 'GET',
      url: opts.url,
      headers,
      cookies: opts.cookies,
      ...(opts.body === undefined ? {} : typeof opts.body === 'string' ? { payload: opts.body } : { payload: opts.body as object }),
    });
  };

  const signIn = async (username: string, password: string, tenant = 'demo'): Promise<Session> => {
    const res = await request({ method: 'POST', url: '/login', tenant, body: { username, password, tenant } });
    if (res.statusCode !== 200) throw new Error(`sign-in of ${username}@${tenant} failed: ${res.statusCode} ${res.body}`);
    return res.json() as Session;
  };

  let rootSession: Session | undefined;
  const rootToken = async () => (rootSession ??= await signIn(ROOT.username, ROOT.password)).token;

  const createTenant = async (slug: string, name = `Κέντρο ${slug}`) => {
    const admin = { username: `admin-${slug}`, password: 'admin-password-1', first_name: 'Ελένη', last_name: 'Διαχειρίστρια' };
    const res = await request({ method: 'POST', url: '/api/tenants', token: await rootToken(), body: { slug, name, admin } });
    if (res.statusCode !== 201) throw new Error(`creating tenant ${slug} failed: ${res.statusCode} ${res.body}`);
    const session = await signIn(admin.username, admin.password, slug);
    return {
      tenantId: (res.json() as { id: number }).id,
      admin: { id: session.user.id, username: admin.username, password: admin.password, token: session.token },
    };
  };

  const createUser: TestApp['createUser'] = async (token, fields) => {
    const tenant = fields.tenant ?? 'demo';
    const username = fields.username ?? uniqueName(fields.role.toLowerCase());
    const password = 'user-password-1';
    const res = await request({
      method: 'POST',
      url: '/api/users',
      tenant,
      token,
      body: {
        username,
        password,
        role: fields.role,
        first_name: fields.first_name ?? 'Γιώργος',
        last_name: fields.last_name ?? 'Παπαδόπουλος',
      },
    });
    if (res.statusCode !== 201) throw new Error(`creating user ${username} failed: ${res.statusCode} ${res.body}`);
    const session = await signIn(username, password, tenant);
    return { id: (res.json() as { id: number }).id, username, password, token: session.token };
  };

  return {
    kind,
    app,
    database,
    config,
    root: ROOT,
    request,
    signIn,
    createTenant,
    createUser,
    async close() {
      await app.close();
      await database.close();
      await scratch?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
