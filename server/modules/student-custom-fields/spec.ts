/**
 * Definitions of the students' custom fields. The key never changes. A change of type,
 * options or required that some stored value would not survive is refused (409 in-use), and
 * a definition still holding values is deleted only with ?discard_values=true, which removes
 * those values student by student, each recorded in that student's history.
 */
import { and, eq, sql } from 'drizzle-orm';
import { DomainError, definitionProblem, storedValuesFit, STUDENT_CUSTOM_FIELDS, type CustomFieldDefinition, type FieldErrors } from '../../../domain/index';
import type { Tx } from '../../db/types';
import { studentCustomFields, students } from '../../db/schema/index';
import type { Ctx, Data, ResourceSpec } from '../../engine/spec';
import { historyView } from '../../engine/write';
import { recordHistory } from '../../engine/history';

const SHAPE_FIELDS = ['type', 'options', 'required'] as const;

const asDefinition = (d: Record<string, unknown>): CustomFieldDefinition => ({
  key: String(d.key),
  label: String(d.label),
  type: d.type as CustomFieldDefinition['type'],
  options: (d.options as string[] | null | undefined) ?? null,
  required: (d.required as boolean | null | undefined) ?? false,
});

/** Every student's stored value of `key` (undefined where the student has none). */
async function storedValues(tx: Tx, tenantId: number, key: string): Promise<unknown[]> {
  const rows = await tx
    .select({ value: sql<unknown>`${students.customFields} -> ${key}::text` })
    .from(students)
    .where(eq(students.tenantId, tenantId));
  return rows.map((r) => (r.value === null ? undefined : r.value));
}

async function studentsHolding(tx: Tx, tenantId: number, key: string) {
  return tx
    .select({ id: students.id, customFields: students.customFields })
    .from(students)
    .where(and(eq(students.tenantId, tenantId), sql`${students.customFields} ? ${key}::text`, sql`${students.customFields} -> ${key}::text <> 'null'::jsonb`))
    .for('update');
}

async function discardValues(tx: Tx, ctx: Ctx, key: string) {
  for (const student of await studentsHolding(tx, ctx.tenantId, key)) {
    const { [key]: _dropped, ...rest } = student.customFields;
    await tx
      .update(students)
      .set({ customFields: rest, version: sql`${students.version} + 1`, updatedAt: sql`now()` })
      .where(and(eq(students.tenantId, ctx.tenantId), eq(students.id, student.id)));
    await recordHistory(tx, ctx.tenantId, ctx.actor, {
      entity: 'students',
      entityId: student.id,
      action: 'update',
      before: { custom_fields: student.customFields },
      after: { custom_fields: rest },
    });
  }
}

export const studentCustomFieldsSpec: ResourceSpec = {
  def: STUDENT_CUSTOM_FIELDS,
  table: studentCustomFields,
  label: studentCustomFields.label.getSQL(),
  unique: { student_custom_fields_key_key: 'key' },
  async beforeWrite({ tx, ctx, input, before }) {
    const merged = asDefinition({ ...(before ?? {}), ...input });
    const problem = definitionProblem(merged);
    if (problem) throw new DomainError('validation', 'Choice types need options; other types take none.', problem, { details: { reason: 'choice-options' } });
    if (!before) return { options: merged.options?.length ? merged.options : null };
    const changed = SHAPE_FIELDS.filter((f) => f in input && JSON.stringify(input[f] ?? null) !== JSON.stringify(before[f] ?? null));
    if (changed.length && !storedValuesFit(merged, await storedValues(tx, ctx.tenantId, merged.key))) {
      const fields: FieldErrors = Object.fromEntries(changed.map((f) => [f, 'invalid']));
      throw new DomainError('in-use', 'Some students hold values that would not fit this change.', fields, { details: { reason: 'values-would-not-fit' } });
    }
    return { options: merged.options?.length ? merged.options : null };
  },
  async remove(tx, ctx, before: Data, options) {
    const key = String(before.key);
    const holders = await studentsHolding(tx, ctx.tenantId, key);
    if (holders.length && options.discard_values !== 'true' && options.discard_values !== true) {
      throw new DomainError('in-use', `${holders.length} students hold a value of this field; delete with discard_values=true to remove them.`, undefined, {
        details: { reason: 'values-held', count: holders.length, uses: { students: holders.length } },
      });
    }
    await discardValues(tx, ctx, key);
    await tx.delete(studentCustomFields).where(and(eq(studentCustomFields.tenantId, ctx.tenantId), eq(studentCustomFields.id, before.id)));
    await recordHistory(tx, ctx.tenantId, ctx.actor, {
      entity: 'student-custom-fields',
      entityId: before.id,
      action: 'delete',
      before: historyView(studentCustomFieldsSpec, before),
    });
  },
};
