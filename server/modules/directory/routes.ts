/**
 * The centre's directory (issue 3): every metadata-driven resource registered on the generic
 * CRUD module, plus the students' import. The registry is shared so delete rules see every
 * reference between them.
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { buildRegistry } from '../crud/registry';
import { crudRoutes } from '../crud/routes';
import { notesSpec } from '../notes/spec';
import { studentCustomFieldsSpec } from '../student-custom-fields/spec';
import { studentImportRoutes } from '../students/import';
import { studentsSpec } from '../students/spec';
import { teachersSpec } from '../teachers/spec';
import {
  classCategoriesSpec,
  classesSpec,
  contractCategoriesSpec,
  lessonTagsSpec,
  lessonTypesSpec,
  roomsSpec,
  subjectsSpec,
} from './specs';

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

export const directoryRegistry = buildRegistry(DIRECTORY_SPECS);

export async function directoryRoutes(app: FastifyInstance, { database }: { database: Database }) {
  // The import's static path is registered before /api/students/:id would be asked about it.
  await studentImportRoutes(app, database, directoryRegistry);
  for (const spec of DIRECTORY_SPECS) crudRoutes(app, database, directoryRegistry, spec);
}
