/**
 * Every resource on the generic CRUD engine, in one registry, so each knows who points at it:
 * a lesson using a room blocks the room's deletion, a lesson's tag link goes with the tag.
 */
import { contractsSpec } from './contracts/spec';
import { buildRegistry } from './crud/registry';
import { RESOURCES } from '../../domain/index';
import { classesSpec } from './directory/specs';
import { expenseCategoriesSpec, expensesSpec } from './expenses/spec';
import { filesSpec, foldersSpec } from './files/spec';
import { lessonsSpec, recurringLessonsSpec } from './lessons/spec';
import { notesSpec } from './notes/spec';
import { plainSpecs } from './plain-specs';
import { paymentsSpec } from './payments/spec';
import { studentCustomFieldsSpec } from './student-custom-fields/spec';
import { studentsSpec } from './students/spec';
import { teachersSpec } from './teachers/spec';
import { usersSpec } from './users/spec';

/** Resources on the engine that differ from a plain one: their specs carry hooks. */
const HOOKED_SPECS = [classesSpec, teachersSpec, studentsSpec, studentCustomFieldsSpec, notesSpec, foldersSpec, filesSpec];

/** Resources registered by their own modules (the calendar, series, money figures, users) on the same engine. */
const OWN_ROUTE_SPECS = [lessonsSpec, recurringLessonsSpec, contractsSpec, paymentsSpec, expenseCategoriesSpec, expensesSpec, usersSpec];

/** Platform rows, outside a centre and outside this registry. */
const PLATFORM_RESOURCES = new Set(['tenants']);

const handWritten = new Set([...HOOKED_SPECS, ...OWN_ROUTE_SPECS].map((s) => s.def.name).concat([...PLATFORM_RESOURCES]));

/**
 * Every resource served by the generic CRUD routes: the hooked ones and every other declared
 * resource, whose spec follows from its declaration and table (plain-specs.ts).
 */
export const DIRECTORY_SPECS = [...HOOKED_SPECS, ...plainSpecs(Object.values(RESOURCES), handWritten)];

export const registry = buildRegistry([...DIRECTORY_SPECS, ...OWN_ROUTE_SPECS]);
