/** The tenant's student custom-field definitions, as domain/custom-fields.ts takes them. */
import { sql } from 'drizzle-orm';
import type { CustomFieldDefinition } from '../../../domain/index';
import type { Tx } from '../../db/types';
import { writeStatement, writtenRows } from '../../db/statements';
import { studentCustomFields } from '../../db/schema/index';

const DEFINITIONS = sql`select ${studentCustomFields.key}, ${studentCustomFields.label}, ${studentCustomFields.type}, ${studentCustomFields.options}, ${studentCustomFields.required}
  from ${studentCustomFields} where ${studentCustomFields.tenantId} = ${sql.placeholder('tenant')}
  order by ${studentCustomFields.position}, ${studentCustomFields.id}`;
/** Written once: every list of students reads the definitions with its page. */
const definitionsText = writeStatement(DEFINITIONS).text;

/** The centre's custom fields of students, in their order. */
export async function loadDefinitions(tx: Tx, tenantId: number): Promise<CustomFieldDefinition[]> {
  const rows = await writtenRows<CustomFieldDefinition>(tx, { text: definitionsText, params: [tenantId] });
  return rows.map((r) => ({ key: r.key, label: r.label, type: r.type, options: r.options ?? null, required: r.required }));
}
