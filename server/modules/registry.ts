/**
 * Every resource on the generic CRUD engine, in one registry, so each knows who points at it:
 * a lesson using a room blocks the room's deletion, a lesson's tag link goes with the tag.
 */
import { contractsSpec } from './contracts/spec';
import { buildRegistry } from './crud/registry';
import { classCategoriesSpec, classesSpec, contractCategoriesSpec, lessonTagsSpec, lessonTypesSpec, roomsSpec, subjectsSpec } from './directory/specs';
import { expenseCategoriesSpec, expensesSpec } from './expenses/spec';
import { lessonsSpec, recurringLessonsSpec } from './lessons/spec';
import { notesSpec } from './notes/spec';
import { paymentsSpec } from './payments/spec';
import { studentCustomFieldsSpec } from './student-custom-fields/spec';
import { studentsSpec } from './students/spec';
import { teachersSpec } from './teachers/spec';
import { usersSpec } from './users/spec';

/** The directory's resources (issue 3), served by plain CRUD routes. */
export const DIRECTORY_SPECS = [
  subjectsSpec,
  roomsSpec,
  classCategoriesSpec,
  contractCategoriesSpec,
  classesSpec,
  lessonTypesSpec,
  lessonTagsSpec,
  teachersSpec,
  studentsSpec,
  studentCustomFieldsSpec,
  notesSpec,
];

/** The centre's money: contracts and payments, expenses and their categories. */
export const MONEY_SPECS = [contractsSpec, paymentsSpec, expenseCategoriesSpec, expensesSpec];

export const registry = buildRegistry([...DIRECTORY_SPECS, lessonsSpec, recurringLessonsSpec, ...MONEY_SPECS, usersSpec]);
