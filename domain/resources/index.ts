import type { ResourceDef } from '../fields';
import { CLASS_CATEGORIES, CLASSES, CONTRACT_CATEGORIES, LESSON_TAGS, LESSON_TYPES, ROOMS, SUBJECTS } from './directory';
import { LESSONS, RECURRING_LESSONS } from './lessons';
import { NOTES, STUDENT_CUSTOM_FIELDS, STUDENTS, TEACHERS } from './people';
import { TENANTS } from './tenants';
import { USERS } from './users';

export { SCHEDULE_FIELDS, TEACHER_LESSON_FIELDS } from './lessons';

export {
  CLASS_CATEGORIES,
  CLASSES,
  CONTRACT_CATEGORIES,
  LESSON_TAGS,
  LESSON_TYPES,
  LESSONS,
  NOTES,
  RECURRING_LESSONS,
  ROOMS,
  STUDENT_CUSTOM_FIELDS,
  STUDENTS,
  SUBJECTS,
  TEACHERS,
  TENANTS,
  USERS,
};

export const RESOURCES: Record<string, ResourceDef> = Object.fromEntries(
  [
    USERS,
    TENANTS,
    SUBJECTS,
    ROOMS,
    CLASS_CATEGORIES,
    CONTRACT_CATEGORIES,
    CLASSES,
    LESSON_TYPES,
    LESSON_TAGS,
    TEACHERS,
    STUDENTS,
    STUDENT_CUSTOM_FIELDS,
    NOTES,
    LESSONS,
    RECURRING_LESSONS,
  ].map((r) => [r.name, r]),
);
