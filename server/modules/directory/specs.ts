/**
 * Classes: their join tables and what a TEACHER sees of them. The other directory resources
 * (subjects, rooms, categories, lesson types and tags) are plain: their specs follow from the
 * declaration and the table (server/engine/plain-specs.ts).
 */
import { CLASSES } from '../../../domain/index';
import { classes, classStudents, classSubjects } from '../../db/schema/index';
import type { ResourceSpec } from '../../engine/spec';
import { inOwnClasses, ownOnly } from '../teachers/scope';

export const classesSpec: ResourceSpec = {
  def: CLASSES,
  table: classes,
  label: classes.name.getSQL(),
  scope: (ctx) => (ownOnly(ctx, 'classes') ? inOwnClasses(ctx, classes.id) : undefined),
  links: {
    student_ids: { table: classStudents, tenantId: classStudents.tenantId, owner: classStudents.classId, other: classStudents.studentId },
    subject_ids: { table: classSubjects, tenantId: classSubjects.tenantId, owner: classSubjects.classId, other: classSubjects.subjectId },
  },
};
