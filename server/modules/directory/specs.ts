/**
 * The plain directory resources: nothing but their table and join tables; the generic CRUD
 * module does the rest (domain/resources/directory.ts declares the fields).
 */
import { CLASS_CATEGORIES, CLASSES, CONTRACT_CATEGORIES, LESSON_TAGS, LESSON_TYPES, ROOMS, SUBJECTS } from '../../../domain/index';
import { classCategories, classes, classStudents, classSubjects, contractCategories, lessonTags, lessonTypes, rooms, subjects } from '../../db/schema/index';
import type { ResourceSpec } from '../crud/spec';
import { inOwnClasses, ownOnly } from '../teachers/scope';

export const subjectsSpec: ResourceSpec = { def: SUBJECTS, table: subjects, label: subjects.name.getSQL() };
export const roomsSpec: ResourceSpec = { def: ROOMS, table: rooms, label: rooms.name.getSQL() };
export const classCategoriesSpec: ResourceSpec = { def: CLASS_CATEGORIES, table: classCategories, label: classCategories.name.getSQL() };
export const contractCategoriesSpec: ResourceSpec = { def: CONTRACT_CATEGORIES, table: contractCategories, label: contractCategories.name.getSQL() };
export const lessonTypesSpec: ResourceSpec = { def: LESSON_TYPES, table: lessonTypes, label: lessonTypes.name.getSQL() };
export const lessonTagsSpec: ResourceSpec = { def: LESSON_TAGS, table: lessonTags, label: lessonTags.name.getSQL() };

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
