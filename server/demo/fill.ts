/**
 * How each part of the demo centre is written: through the same CRUD code as the API, and
 * once, so that a centre already holding that part is left alone.
 */
import { count, eq, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database, Tx } from '../db/types';
import { withTenant } from '../db/doors';
import type { Ctx, Data, ResourceSpec } from '../engine/spec';
import { createRow } from '../engine/write';
import type { Registry } from '../engine/registry';

/** The demo's writer: the system (no user) in one tenant, with the registry the server serves. */
export interface DemoCtx extends Ctx {
  registry: Registry;
}

/** Creates one row as the system (no user), as a POST to the API would. */
export const add = (tx: Tx, ctx: DemoCtx, spec: ResourceSpec, input: Record<string, unknown>): Promise<Data> => createRow(tx, ctx.registry, ctx, spec, input);

/**
 * Runs `fill` in one transaction of the tenant unless `table` already holds rows of it.
 * Several processes may start at once: one fills, the others then find the rows and stop.
 */
export async function fillOnce(
  database: Database,
  registry: Registry,
  tenantId: number,
  table: PgTable & { tenantId: AnyPgColumn },
  fill: (tx: Tx, ctx: DemoCtx) => Promise<void>,
) {
  await withTenant(database, tenantId, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(734511, ${tenantId}::int)`);
    const [existing] = await tx
      .select({ n: count() })
      .from(table as PgTable)
      .where(eq(table.tenantId, tenantId));
    if (existing && existing.n > 0) return;
    await fill(tx, { tenantId, actor: null, registry });
  });
}
