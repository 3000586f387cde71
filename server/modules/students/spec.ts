/**
 * Students: the plain fields, class and subject lists, custom_fields checked against the
 * tenant's definitions, and read-only summaries of the student's contracts. The engine's
 * import (POST /api/students/import) takes many at once, as a create would take each.
 * A student is deleted only while nothing references it; otherwise the answer is 409 in-use
 * and the user sets status INACTIVE instead.
 */
import { sql } from 'drizzle-orm';
import { STUDENTS } from '../../../domain/index';
import { classStudents, studentGuardians, students, studentSubjects } from '../../db/schema/index';
import { personLabel } from '../../db/schema/columns';
import type { ResourceSpec } from '../../engine/spec';
import { ofOwnClasses, ownOnly } from '../teachers/scope';
import { loadDefinitions } from '../student-custom-fields/definitions';
import { assertCustomValues, checkCustomValues, customListExtras } from './custom-values';

export const studentsSpec: ResourceSpec = {
  def: STUDENTS,
  table: students,
  ...personLabel(students),
  links: {
    class_ids: { table: classStudents, tenantId: classStudents.tenantId, owner: classStudents.studentId, other: classStudents.classId },
    subject_ids: { table: studentSubjects, tenantId: studentSubjects.tenantId, owner: studentSubjects.studentId, other: studentSubjects.subjectId },
    guardian_ids: { table: studentGuardians, tenantId: studentGuardians.tenantId, owner: studentGuardians.studentId, other: studentGuardians.guardianId },
  },
  // A TEACHER reads (never writes) the students of the classes she teaches.
  scope: (ctx) => (ownOnly(ctx, 'students') ? ofOwnClasses(ctx, students.id) : undefined),
  // The student's contracts: how many, the first one's start and the latest one's start.
  computed: {
    number_of_contracts: sql<number>`(select count(*)::int from contracts c where c.tenant_id = students.tenant_id and c.student_id = students.id)`,
    first_contract_date: sql<
      string | null
    >`(select to_char(min(c.start_date), 'YYYY-MM-DD') from contracts c where c.tenant_id = students.tenant_id and c.student_id = students.id)`,
    last_contract_date: sql<
      string | null
    >`(select to_char(max(c.start_date), 'YYYY-MM-DD') from contracts c where c.tenant_id = students.tenant_id and c.student_id = students.id)`,
  },
  listSettings: {
    load: loadDefinitions,
    extras: (definitions) => customListExtras(definitions as Awaited<ReturnType<typeof loadDefinitions>>),
  },
  // POST /api/students/import (a CSV read by the client): custom_fields checked against the
  // definitions loaded once, rows inserted in batches, fresh statistics after a large import.
  importable: true,
  imports: {
    async check(tx, ctx) {
      const definitions = await loadDefinitions(tx, ctx.tenantId);
      return (input) => {
        const custom = checkCustomValues(definitions, input.custom_fields);
        return custom.ok ? { ok: true, value: { ...input, custom_fields: custom.value } } : custom;
      };
    },
    bulk: true,
    analyze: true,
  },
  async beforeWrite({ tx, ctx, input }) {
    // An update that does not send custom_fields keeps the stored ones untouched.
    if (!('custom_fields' in input)) return;
    return { custom_fields: assertCustomValues(await loadDefinitions(tx, ctx.tenantId), input.custom_fields) };
  },
};
