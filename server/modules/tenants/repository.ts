/**
 * Tenants are platform rows (no RLS); their history lives in each tenant's own history
 * table, written after switching the same transaction into that tenant.
 */
import { and, eq, sql } from 'drizzle-orm';
import { DomainError, normalizeSearch, TENANTS, type ListQuery } from '../../../domain/index';
import type { Actor } from '../../context';
import { enterTenant, type Queryable, type Tx } from '../../db/client';
import { tenants } from '../../db/schema/index';
import { pgCode, pgConstraint } from '../../plugins/errors';
import { recordHistory } from '../history/record';
import { listOrder, listPage, listWhere, type ColumnMap } from '../list-query';
import { iso } from '../params';

export interface TenantData {
  id: number;
  slug: string;
  name: string;
  status: string;
  time_zone: string;
  language: string;
  version: number;
  created_at: string | null;
  updated_at: string | null;
}

const COLUMNS: ColumnMap = {
  id: tenants.id,
  slug: tenants.slug,
  name: tenants.name,
  status: tenants.status,
  time_zone: tenants.timeZone,
  language: tenants.language,
  created_at: tenants.createdAt,
  updated_at: tenants.updatedAt,
};

const SELECT = {
  id: tenants.id,
  slug: tenants.slug,
  name: tenants.name,
  status: tenants.status,
  timeZone: tenants.timeZone,
  language: tenants.language,
  version: tenants.version,
  createdAt: tenants.createdAt,
  updatedAt: tenants.updatedAt,
};
type TenantRow = { [K in keyof typeof SELECT]: (typeof tenants.$inferSelect)[K] };

const toTenantData = (r: TenantRow): TenantData => ({
  id: r.id,
  slug: r.slug,
  name: r.name,
  status: r.status,
  time_zone: r.timeZone,
  language: r.language,
  version: r.version,
  created_at: iso(r.createdAt),
  updated_at: iso(r.updatedAt),
});

const historyView = ({ id: _i, version: _v, created_at: _c, updated_at: _u, ...rest }: TenantData) => rest;

export async function listTenants(db: Queryable, query: ListQuery) {
  const { rows, total } = await listPage<TenantRow>(db, {
    table: tenants,
    select: SELECT,
    where: listWhere(TENANTS, query, COLUMNS, tenants.search),
    order: listOrder(query, COLUMNS, tenants.id),
    query,
  });
  return { data: rows.map(toTenantData), total };
}

export async function findTenant(db: Queryable, id: number, lock = false): Promise<TenantData | null> {
  const q = db.select(SELECT).from(tenants).where(eq(tenants.id, id)).limit(1);
  const [row] = lock ? await q.for('update') : await q;
  return row ? toTenantData(row) : null;
}

export interface NewTenant {
  slug: string;
  name: string;
  time_zone?: string | null;
  language?: string | null;
  status?: string | null;
}

/**
 * Inserts the tenant and leaves `tx` switched into it (enterTenant), so the caller can add
 * the tenant's first rows (its ADMIN) in the same transaction.
 */
export async function insertTenantAndEnter(tx: Tx, actor: Actor | null, input: NewTenant): Promise<TenantData> {
  let row: TenantRow | undefined;
  try {
    [row] = await tx
      .insert(tenants)
      .values({
        slug: input.slug,
        name: input.name,
        status: input.status ?? 'ACTIVE',
        ...(input.time_zone ? { timeZone: input.time_zone } : {}),
        ...(input.language ? { language: input.language } : {}),
        search: normalizeSearch(`${input.slug} ${input.name}`),
      })
      .returning(SELECT);
  } catch (error) {
    if (pgCode(error) === '23505' && pgConstraint(error) === 'tenants_slug_key') {
      throw new DomainError('conflict', 'This slug is taken.', { slug: 'taken' });
    }
    throw error;
  }
  const data = toTenantData(row!);
  await enterTenant(tx, data.id);
  await recordHistory(tx, data.id, actor, { entity: 'tenants', entityId: data.id, action: 'create', after: historyView(data) });
  return data;
}

export interface TenantPatch {
  name?: string;
  status?: string;
  time_zone?: string;
  language?: string;
}

/** Updates under a row lock with the version check, then enters the tenant to record history. */
export async function updateTenantAndEnter(
  tx: Tx,
  actor: Actor | null,
  id: number,
  patch: TenantPatch,
  version: number | undefined,
  action: 'update' | 'delete' = 'update',
): Promise<{ before: TenantData; after: TenantData }> {
  const before = await findTenant(tx, id, true);
  if (!before) throw new DomainError('not-found');
  if (version !== undefined && version !== before.version) throw new DomainError('stale');
  const name = patch.name ?? before.name;
  const [row] = await tx
    .update(tenants)
    .set({
      name,
      status: patch.status ?? before.status,
      timeZone: patch.time_zone ?? before.time_zone,
      language: patch.language ?? before.language,
      search: normalizeSearch(`${before.slug} ${name}`),
      version: sql`${tenants.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(tenants.id, id)))
    .returning(SELECT);
  const after = toTenantData(row!);
  await enterTenant(tx, id);
  await recordHistory(tx, id, actor, { entity: 'tenants', entityId: id, action, before: historyView(before), after: historyView(after) });
  return { before, after };
}
