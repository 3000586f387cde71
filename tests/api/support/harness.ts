// Builds a real Frontis app on a real database for API tests: in-memory PGlite, or a fresh
// database on the PostgreSQL server named by TEST_DATABASE_URL. Nothing here is mocked.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { buildApp } from '../../../server/app';
import { bootstrap } from '../../../server/bootstrap';
import { loadConfig, type Config } from '../../../server/config';
import type { ResourceDef } from '../../../domain/fields';
import { migrate } from '../../../server/db/migrate';
import { openDatabase, PGLITE_EXTENSIONS, pgliteDir } from '../../../server/db/open';

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

interface RequestOptions {
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

async function createScratchDatabase(made: Made, today: string | undefined): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `frontis_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${await madeTemplate(made, today)}`);
  } catch (error) {
    // dropped meanwhile (by a checkout of other migrations on this server, once it was old): made again
    if ((error as { code?: string }).code !== '3D000') throw error;
    templates.clear();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${await madeTemplate(made, today)}`);
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

const REPO = fileURLToPath(new URL('../../..', import.meta.url));

/** A short hash of PGlite's version, every file in `folders`, and `extra`. */
function keyOf(folders: readonly string[], extra = ''): string {
  const hash = createHash('sha256')
    .update(readFileSync(join(REPO, 'node_modules/@electric-sql/pglite/package.json')))
    .update(extra);
  for (const folder of folders) {
    for (const name of (readdirSync(join(REPO, folder), { recursive: true }) as string[]).sort()) {
      const path = join(REPO, folder, name);
      if (statSync(path).isFile()) hash.update(name).update(readFileSync(path));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/** What a migrated database depends on: the migrations, the code that applies them and the policies, the declarations, PGlite's version. */
const migratedKey = () => keyOf(['server/db', 'domain']);

/**
 * What a test's database starts from: every migration applied, and with `demo` the demo centre
 * too (bootstrap with DEMO_DATA, the slowest part of starting an app: about ten seconds on
 * PGlite and six on PostgreSQL). Made once per worker and kept (the embedded one dumped to the
 * temporary directory, the PostgreSQL one as a template database), named by what it depends on
 * so that a changed migration, server file or day makes a new one. `migrate` and `bootstrap`
 * still run on each copy and find nothing left to do, so a test sees exactly what a fresh
 * database would hold.
 */
interface Made {
  key: string;
  /** Fills a migrated database (the demo centre); the files it stores go to `dataDir`. */
  fill?(database: Database, dataDir: string): Promise<void>;
}

/** The demo centre for `config`'s day and first accounts; its uploaded files are kept beside the made database. */
function demoMade(config: Config): Made {
  const key = keyOf(
    ['server', 'domain'],
    JSON.stringify([config.today ?? new Date().toDateString(), config.defaultTenant, config.rootUsername, config.rootPassword]),
  );
  return {
    key: `demo_${key}`,
    async fill(database, dataDir) {
      await bootstrap(database, { ...config, dataDir, demoData: true });
    },
  };
}

/** Where the files a made PostgreSQL template stored are kept, to be copied into each app's own directory. */
const templateFiles = (made: Made) => join(tmpdir(), `frontis-made-files-${made.key}`);

interface MadeDump {
  blob: Blob;
  /** The files it stored, if it was filled. */
  files?: string;
}

const dumps = new Map<string, Promise<MadeDump>>();
/**
 * The embedded database `made` describes, dumped once, with the files its filling stored
 * beside it (`<dump>.files`). Both are written aside and renamed into place, the files first:
 * another worker never reads half of either, and a worker that finds another's already there
 * keeps its own pair.
 */
function madePglite(made: Made, today: string | undefined): Promise<MadeDump> {
  let dump = dumps.get(made.key);
  if (!dump) {
    dump = (async () => {
      const file = join(tmpdir(), `frontis-made-${made.key}.tar`);
      const files = made.fill ? `${file}.files` : undefined;
      if (existsSync(file) && (!files || existsSync(files))) return { blob: new Blob([readFileSync(file)]), files };
      const database = await openDatabase({ today, from: made.fill ? (await madePglite({ key: migratedKey() }, today)).blob : undefined });
      try {
        await migrate(database);
        const mine = made.fill ? await mkdtemp(join(tmpdir(), 'frontis-made-files-')) : undefined;
        if (mine) await made.fill!(database, mine);
        const blob = await database.pglite!.dumpDataDir('none');
        const partial = `${file}.${process.pid}`;
        writeFileSync(partial, Buffer.from(await blob.arrayBuffer()));
        try {
          if (mine && files) renameSync(mine, files);
          renameSync(partial, file);
          return { blob, files };
        } catch {
          // another worker's pair came first
          await rm(partial, { force: true });
          return { blob, files: mine };
        }
      } finally {
        await database.close();
      }
    })();
    dumps.set(made.key, dump);
  }
  return dump;
}

/**
 * Makes `dataDir` a server's data directory whose embedded database is already migrated (a
 * copy of the migrated dump), for a test that starts Frontis as a process on it: creating and
 * migrating the database is most of a first start, and the start on a new directory is tested
 * once, by `reliability/compiled-start.test.ts`.
 */
export async function migratedDataDir(dataDir: string): Promise<void> {
  const { blob } = await madePglite({ key: migratedKey() }, undefined);
  await mkdir(pgliteDir(dataDir), { recursive: true });
  const pglite = new PGlite(pgliteDir(dataDir), { extensions: PGLITE_EXTENSIONS, loadDataDir: blob });
  await pglite.waitReady;
  await pglite.close();
}

const templates = new Map<string, Promise<string>>();
/** How long a template of other migrations is kept for another checkout's run. */
const TEMPLATE_KEPT_MS = 24 * 60 * 60 * 1000;
/**
 * The PostgreSQL database `made` describes, kept on the server as a template: each app's
 * database is a copy of it (CREATE DATABASE … TEMPLATE), about a second and a half less each
 * than migrating a new one. Workers take turns to make it (an advisory lock). A template made
 * for other code is dropped once it is a day old and nothing is copying it: another checkout's
 * run on the same server (a worktree, a clean clone) may be using it now.
 */
function madeTemplate(made: Made, today: string | undefined): Promise<string> {
  let template = templates.get(made.key);
  if (!template) {
    template = (async () => {
      const name = `frontis_template_${made.key}`;
      // The migrated template it is copied from, made first (taking the same turn).
      const base = made.fill ? await madeTemplate({ key: migratedKey() }, today) : undefined;
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      try {
        await admin.query(`select pg_advisory_lock(hashtext('frontis_template'))`);
        const { rows } = await admin.query<{ datname: string; made: string | null }>(
          `select datname, shobj_description(oid, 'pg_database') as made from pg_database where datname like 'frontis\\_template\\_%'`,
        );
        if (rows.some((r) => r.datname === name) && (!made.fill || existsSync(templateFiles(made)))) return name;
        // this one (made again when its files are gone), and other code's once a day old
        const old = rows.filter((r) => r.datname === name || (r.datname !== base && !(Number(r.made) > Date.now() - TEMPLATE_KEPT_MS)));
        for (const { datname } of old) await admin.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => undefined);
        // made under another name and renamed once done: a run stopped halfway leaves no template
        const building = `${name}_${process.pid}`;
        await admin.query(`CREATE DATABASE ${building}${base ? ` TEMPLATE ${base}` : ''}`);
        const database = await openDatabase({ url: databaseUrl(building), today });
        try {
          await migrate(database);
          if (made.fill) {
            await rm(templateFiles(made), { recursive: true, force: true });
            await made.fill(database, templateFiles(made));
          }
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
    templates.set(made.key, template);
  }
  return template;
}

/** What a test adds to the app: declarations served beside the built-in ones, and work on the database before the app is built (their tables). */
interface AppAdditions {
  resources?: readonly ResourceDef[];
  prepare?(database: Database): Promise<void>;
}

export async function startApp(kind: DatabaseKind, overrides: Partial<Config> = {}, additions: AppAdditions = {}): Promise<TestApp> {
  // Uploaded files go to a directory of this app's own, removed with it.
  const dataDir = await mkdtemp(join(tmpdir(), 'frontis-test-'));
  const base: Config = {
    ...loadConfig({}),
    dataDir,
    defaultTenant: 'demo',
    rootUsername: ROOT.username,
    rootPassword: ROOT.password,
    demoData: false,
    logLevel: 'silent',
    loginRateLimit: { perUser: 1000, perAddress: 10_000, windowSeconds: 900 },
    // No shedding unless a test asks for it (overload.test.ts): some fire bursts on purpose
    // (200 sign-ins at once) to check other rules, on a loop that migrations keep busy.
    overload: { ...loadConfig({}).overload, maxInFlight: 0 },
    ...overrides,
  };
  // The demo centre comes made, with the files it stored; other files go to S3 when a test says so.
  const made = base.demoData && !base.s3 ? demoMade(base) : { key: migratedKey() };
  const scratch = kind === 'postgres' ? await createScratchDatabase(made, base.today) : undefined;
  const dump = kind === 'pglite' ? await madePglite(made, base.today) : undefined;
  const files = made.fill ? (dump ? dump.files : templateFiles(made)) : undefined;
  if (files) await cp(files, dataDir, { recursive: true });
  const config: Config = { ...base, databaseUrl: scratch?.url };
  const database = await openDatabase({ url: scratch?.url, today: config.today, from: dump?.blob });
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
