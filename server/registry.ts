/**
 * The server's registry, built once by buildApp (and by bootstrap for the demo centre) and
 * handed down to every route that needs it: every resource on the record engine, so each
 * knows who points at it (a lesson using a room blocks the room's deletion, a lesson's tag
 * link goes with the tag). Nothing imports a registry instance; modules receive it.
 */
import { RESOURCES, type ResourceDef } from '../domain/index';
import { declaredSpecs, plainSpecs } from './engine/plain-specs';
import { buildRegistry, type Registry } from './engine/registry';
import type { ResourceSpec } from './engine/spec';
import { contractsSpec } from './modules/contracts/spec';
import { classesSpec } from './modules/directory/specs';
import { expenseCategoriesSpec, expensesSpec } from './modules/expenses/spec';
import { filesSpec, foldersSpec } from './modules/files/spec';
import { lessonsSpec, recurringLessonsSpec } from './modules/lessons/spec';
import { notesSpec } from './modules/notes/spec';
import { paymentsSpec } from './modules/payments/spec';
import { studentCustomFieldsSpec } from './modules/student-custom-fields/spec';
import { studentsSpec } from './modules/students/spec';
import { guardiansSpec } from './modules/guardians/spec';
import { teachersSpec } from './modules/teachers/spec';
import { usersSpec } from './modules/users/spec';

/** Resources on the engine that differ from a plain one: their specs carry hooks. */
const HOOKED_SPECS = [classesSpec, teachersSpec, studentsSpec, guardiansSpec, studentCustomFieldsSpec, notesSpec, foldersSpec, filesSpec];

/** Resources registered by their own modules (the calendar, series, money figures, users) on the same engine. */
const OWN_ROUTE_SPECS = [lessonsSpec, recurringLessonsSpec, contractsSpec, paymentsSpec, expenseCategoriesSpec, expensesSpec, usersSpec];

/** Platform rows, outside a centre and outside this registry. */
const PLATFORM_RESOURCES = new Set(['tenants']);

export interface ServerRegistry extends Registry {
  /** Every resource buildApp serves with the engine's routes under `/api/<name>` by itself. */
  served: readonly ResourceSpec[];
}

/**
 * The registry of every declared resource, plus `extra` declarations served as plain
 * resources (their spec follows from the declaration and its table, see plain-specs.ts).
 */
export function buildServerRegistry(extra: readonly ResourceDef[] = []): ServerRegistry {
  const handWritten = new Set([...HOOKED_SPECS, ...OWN_ROUTE_SPECS].map((s) => s.def.name).concat([...PLATFORM_RESOURCES]));
  const served = [...HOOKED_SPECS, ...plainSpecs(Object.values(RESOURCES), handWritten)];
  const extras = extra.filter((def) => !(def.name in RESOURCES));
  if (!extras.length) return { ...buildRegistry([...served, ...OWN_ROUTE_SPECS]), served };
  // Extra declarations may point at any declared resource, so their specs come from the registry without them.
  const base = buildRegistry([...served, ...OWN_ROUTE_SPECS]);
  const extraSpecs = extraPlainSpecs(extras, base);
  return { ...buildRegistry([...served, ...extraSpecs, ...OWN_ROUTE_SPECS]), served: [...served, ...extraSpecs] };
}

/** Specs of declarations beside the domain's: their tables derive from them (declaredTable); `base` holds the targets their references may name. */
function extraPlainSpecs(extras: readonly ResourceDef[], base: Registry): ResourceSpec[] {
  return declaredSpecs(extras, base);
}
