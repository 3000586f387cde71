/**
 * Records of custom entities that point at a row of a built-in resource (a student, a room):
 * they keep it, as a built-in reference does (the CRUD engine asks before a delete).
 */
import { eq, sql } from 'drizzle-orm';
import { recordsResourceName } from '../../../domain/index';
import type { Tx } from '../../db/types';
import { queryRows } from '../../db/statements';
import { customEntities } from '../../db/schema/index';

/**
 * Resource name of each entity's records -> how many of them point at `id` of `target` (a
 * built-in resource's name, or `custom:<slug>`); a record pointing at itself does not count.
 */
export async function customRecordsPointingAt(
  tx: Tx,
  tenantId: number,
  target: string,
  id: number,
  self?: { entityId: number },
): Promise<Record<string, number>> {
  const uses: Record<string, number> = {};
  const entities = await tx
    .select({ id: customEntities.id, slug: customEntities.slug, fields: customEntities.fields })
    .from(customEntities)
    .where(eq(customEntities.tenantId, tenantId));
  for (const e of entities) {
    const keys = e.fields.filter((f) => f.type === 'REFERENCE' && f.target === target).map((f) => f.key);
    if (!keys.length) continue;
    const [row] = await queryRows<{ n: number }>(
      tx,
      sql`select count(distinct record_id)::int as n from custom_values where tenant_id = ${tenantId} and entity_id = ${e.id} and key in (${sql.join(
        keys.map((k) => sql`${k}`),
        sql`, `,
      )}) and num = ${id}::float8${self?.entityId === e.id ? sql` and record_id <> ${id}` : sql``}`,
    );
    if (row && Number(row.n) > 0) uses[recordsResourceName(e.slug)] = Number(row.n);
  }
  return uses;
}
