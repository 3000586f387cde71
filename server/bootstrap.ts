/**
 * First-start set-up, safe to run on every start and from several processes at once:
 * the default tenant, the first ROOT (from ROOT_USERNAME / ROOT_PASSWORD, only while no ROOT
 * exists) and, with DEMO_DATA=1, the demo centre's staff, directory and a school year of lessons.
 */
import { count, eq, sql } from 'drizzle-orm';
import { normalizeSearch, type Role } from '../domain/index';
import type { Config } from './config';
import type { Database } from './db/types';
import { platform, withTenant } from './db/doors';
import { ensureDemoDirectory } from './demo/directory';
import { ensureDemoFiles } from './demo/files';
import { ensureDemoLessons } from './demo/lessons';
import { ensureDemoMoney } from './demo/money';
import { ensureDemoAttendance } from './demo/attendance';
import { rootUsers, tenants, users } from './db/schema/index';
import { hashPassword } from './modules/auth/passwords';
import { prepareInput } from './engine/input';
import { createRow } from './engine/write';
import type { Registry } from './engine/registry';
import { buildServerRegistry } from './registry';
import { userAccounts } from './modules/users/spec';

export interface DemoLogin {
  username: string;
  password: string;
  role: Role;
}

const DEMO_STAFF: ReadonlyArray<DemoLogin & { first_name: string; last_name: string; email: string; phone: string }> = [
  {
    username: 'admin',
    password: 'demo-admin-2024',
    role: 'ADMIN',
    first_name: 'Γιώργος',
    last_name: 'Παπαδόπουλος',
    email: 'admin@demo.frontis.app',
    phone: '+30 210 123 4567',
  },
  {
    username: 'secretary',
    password: 'demo-secretary-2024',
    role: 'SECRETARY',
    first_name: 'Ελένη',
    last_name: 'Γεωργίου',
    email: 'grammateia@demo.frontis.app',
    phone: '+30 210 123 4568',
  },
  {
    username: 'maria',
    password: 'demo-teacher-2024',
    role: 'TEACHER',
    first_name: 'Μαρία',
    last_name: 'Νικολάου',
    email: 'maria@demo.frontis.app',
    phone: '+30 691 234 5678',
  },
  {
    username: 'nikos',
    password: 'demo-teacher-2024',
    role: 'TEACHER',
    first_name: 'Νίκος',
    last_name: 'Κωνσταντίνου',
    email: 'nikos@demo.frontis.app',
    phone: '+30 697 345 6789',
  },
];

async function ensureTenant(database: Database, slug: string): Promise<number> {
  const name = slug === 'demo' ? 'Φροντιστήριο Demo' : slug;
  await platform(database)
    .insert(tenants)
    .values({ slug, name, search: normalizeSearch(`${slug} ${name}`) })
    .onConflictDoNothing();
  const [row] = await platform(database).select({ id: tenants.id }).from(tenants).where(eq(tenants.slug, slug));
  if (!row) throw new Error(`tenant ${slug} missing after insert`);
  return row.id;
}

async function ensureRoot(database: Database, config: Config): Promise<void> {
  if (!config.rootUsername || !config.rootPassword) return;
  const [existing] = await platform(database).select({ n: count() }).from(rootUsers);
  if (existing && existing.n > 0) return;
  const passwordHash = await hashPassword(config.rootPassword);
  await platform(database).insert(rootUsers).values({ username: config.rootUsername, passwordHash, firstName: 'Root', lastName: '' }).onConflictDoNothing();
}

async function ensureDemoStaff(database: Database, registry: Registry, tenantId: number): Promise<DemoLogin[]> {
  for (const person of DEMO_STAFF) {
    const exists = await withTenant(database, tenantId, (tx) =>
      tx.select({ id: users.id }).from(users).where(sql`${users.tenantId} = ${tenantId} and lower(${users.username}) = ${person.username}`),
    );
    if (exists.length) continue;
    const input = await prepareInput(userAccounts, { ...person, status: 'ACTIVE' }, 'create');
    try {
      await withTenant(database, tenantId, (tx) => createRow(tx, registry, { tenantId, actor: null }, userAccounts, input));
    } catch (error) {
      // Another process inserted the same person between our check and insert: fine.
      if (!(error instanceof Error && 'fields' in error)) throw error;
    }
  }
  return DEMO_STAFF.map(({ username, password, role }) => ({ username, password, role }));
}

/** `registry`: the one the server serves (the declared resources' when not given). */
export async function bootstrap(database: Database, config: Config, registry: Registry = buildServerRegistry()): Promise<{ demoLogins?: DemoLogin[] }> {
  const tenantId = await ensureTenant(database, config.defaultTenant);
  await ensureRoot(database, config);
  if (!config.demoData) return {};
  const staff = await ensureDemoStaff(database, registry, tenantId);
  const teachers = await ensureDemoDirectory(database, registry, tenantId);
  await ensureDemoLessons(database, registry, tenantId);
  await ensureDemoMoney(database, registry, tenantId);
  await ensureDemoFiles(database, registry, tenantId, config);
  // After the demo's guardians: the absence notices go to their addresses.
  await ensureDemoAttendance(database, registry, tenantId);
  return { demoLogins: [...staff, ...teachers] };
}
