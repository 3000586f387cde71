/**
 * Tenant users (ADMIN, SECRETARY, TEACHER). Every function takes a tenant transaction from
 * withTenant() and also names tenant_id in its conditions: isolation holds even without RLS.
 * Password hashes never leave this file except into the database.
 */
import { and, eq, sql } from 'drizzle-orm';
import { DomainError, normalizeSearch, USERS, type ListQuery } from '../../../domain/index';
import type { Actor } from '../../context';
import type { Tx } from '../../db/client';
import { users } from '../../db/schema/index';
import { pgConstraint, pgCode } from '../../plugins/errors';
import { recordHistory } from '../history/record';
import { listOrder, listPage, listWhere, type ColumnMap } from '../list-query';
import { iso } from '../params';

export interface UserData {
  id: number;
  username: string;
  role: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  status: string;
  version: number;
  created_at: string | null;
  updated_at: string | null;
}

const COLUMNS: ColumnMap = {
  id: users.id,
  username: users.username,
  role: users.role,
  first_name: users.firstName,
  last_name: users.lastName,
  email: users.email,
  phone: users.phone,
  status: users.status,
  created_at: users.createdAt,
  updated_at: users.updatedAt,
};

const SELECT = {
  id: users.id,
  username: users.username,
  role: users.role,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  phone: users.phone,
  status: users.status,
  version: users.version,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};

type UserRow = { [K in keyof typeof SELECT]: (typeof users.$inferSelect)[K] };

export const toUserData = (r: UserRow): UserData => ({
  id: r.id,
  username: r.username,
  role: r.role,
  first_name: r.firstName,
  last_name: r.lastName,
  email: r.email,
  phone: r.phone,
  status: r.status,
  version: r.version,
  created_at: iso(r.createdAt),
  updated_at: iso(r.updatedAt),
});

/** The history's view of a user: API field names, no version or instants. */
const historyView = (d: Partial<UserData> & { password?: unknown }) => {
  const { id: _i, version: _v, created_at: _c, updated_at: _u, ...rest } = d;
  return rest;
};

const searchText = (u: { username: string; first_name: string; last_name: string; email: string | null; phone: string | null }) =>
  normalizeSearch([u.username, u.first_name, u.last_name, u.email, u.phone].filter(Boolean).join(' '));

const usernameTaken = (error: unknown) =>
  pgCode(error) === '23505' && pgConstraint(error) === 'users_username_key'
    ? new DomainError('conflict', 'This username is taken.', { username: 'taken' })
    : error;

export async function listUsers(tx: Tx, tenantId: number, query: ListQuery) {
  const { rows, total } = await listPage<UserRow>(tx, {
    table: users,
    select: SELECT,
    where: [eq(users.tenantId, tenantId), ...listWhere(USERS, query, COLUMNS, users.search)],
    order: listOrder(query, COLUMNS, users.id),
    query,
  });
  return { data: rows.map(toUserData), total };
}

export async function findUser(tx: Tx, tenantId: number, id: number, lock = false): Promise<UserData | null> {
  const q = tx
    .select(SELECT)
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)))
    .limit(1);
  const [row] = lock ? await q.for('update') : await q;
  return row ? toUserData(row) : null;
}

export async function getUser(tx: Tx, tenantId: number, id: number): Promise<UserData> {
  const user = await findUser(tx, tenantId, id);
  if (!user) throw new DomainError('not-found');
  return user;
}

export interface NewUser {
  username: string;
  passwordHash: string;
  role: string;
  first_name: string;
  last_name: string;
  email?: string | null;
  phone?: string | null;
  status?: string | null;
}

export async function insertUser(tx: Tx, tenantId: number, actor: Actor | null, input: NewUser): Promise<UserData> {
  const values = {
    username: input.username,
    first_name: input.first_name,
    last_name: input.last_name,
    email: input.email ?? null,
    phone: input.phone ?? null,
  };
  let row: UserRow | undefined;
  try {
    [row] = await tx
      .insert(users)
      .values({
        tenantId,
        username: input.username,
        passwordHash: input.passwordHash,
        role: input.role,
        firstName: input.first_name,
        lastName: input.last_name,
        email: values.email,
        phone: values.phone,
        status: input.status ?? 'ACTIVE',
        search: searchText(values),
      })
      .returning(SELECT);
  } catch (error) {
    throw usernameTaken(error);
  }
  const data = toUserData(row!);
  await recordHistory(tx, tenantId, actor, {
    entity: 'users',
    entityId: data.id,
    action: 'create',
    after: { ...historyView(data), password: true },
    secrets: ['password'],
  });
  return data;
}

export interface UserPatch {
  username?: string;
  passwordHash?: string;
  role?: string;
  first_name?: string;
  last_name?: string;
  email?: string | null;
  phone?: string | null;
  status?: string;
}

/**
 * Applies a partial update under a row lock. `version` (when given) must match the stored
 * one, else 409 stale and nothing changes. Returns the row before and after.
 */
export async function updateUser(
  tx: Tx,
  tenantId: number,
  actor: Actor | null,
  id: number,
  patch: UserPatch,
  version: number | undefined,
  action: 'update' | 'delete' = 'update',
): Promise<{ before: UserData; after: UserData }> {
  const before = await findUser(tx, tenantId, id, true);
  if (!before) throw new DomainError('not-found');
  if (version !== undefined && version !== before.version) throw new DomainError('stale');
  const merged = { ...before, ...stripUndefined(patch) };
  let row: UserRow | undefined;
  try {
    [row] = await tx
      .update(users)
      .set({
        username: merged.username,
        ...(patch.passwordHash ? { passwordHash: patch.passwordHash } : {}),
        role: merged.role,
        firstName: merged.first_name,
        lastName: merged.last_name,
        email: merged.email,
        phone: merged.phone,
        status: merged.status,
        search: searchText(merged),
        version: sql`${users.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(users.tenantId, tenantId), eq(users.id, id)))
      .returning(SELECT);
  } catch (error) {
    throw usernameTaken(error);
  }
  const after = toUserData(row!);
  const { passwordHash, ...visible } = patch;
  await recordHistory(tx, tenantId, actor, {
    entity: 'users',
    entityId: id,
    action,
    before: historyView(before),
    after: { ...historyView({ ...before, ...stripUndefined(visible) }), ...(passwordHash ? { password: true } : {}) },
    secrets: ['password'],
  });
  return { before, after };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
