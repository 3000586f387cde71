/** The tenant's student custom-field definitions, as domain/custom-fields.ts takes them. */
import { asc, eq } from 'drizzle-orm';
import type { CustomFieldDefinition } from '../../../domain/index';
import type { Tx } from '../../db/client';
import { studentCustomFields } from '../../db/schema/index';

export async function loadDefinitions(tx: Tx, tenantId: number): Promise<CustomFieldDefinition[]> {
  const rows = await tx
    .select({
      key: studentCustomFields.key,
      label: studentCustomFields.label,
      type: studentCustomFields.type,
      options: studentCustomFields.options,
      required: studentCustomFields.required,
    })
    .from(studentCustomFields)
    .where(eq(studentCustomFields.tenantId, tenantId))
    .orderBy(asc(studentCustomFields.position), asc(studentCustomFields.id));
  return rows.map((r) => ({ ...r, type: r.type as CustomFieldDefinition['type'] }));
}
