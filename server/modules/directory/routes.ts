/**
 * The centre's directory (issue 3): every metadata-driven resource registered on the generic
 * CRUD module, plus the students' import. The registry (modules/registry.ts) is shared with
 * lessons, so delete rules see every reference between them.
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { crudRoutes } from '../crud/routes';
import { DIRECTORY_SPECS, registry } from '../registry';
import { studentImportRoutes } from '../students/import';

export { DIRECTORY_SPECS };

export async function directoryRoutes(app: FastifyInstance, { database }: { database: Database }) {
  // The import's static path is registered before /api/students/:id would be asked about it.
  await studentImportRoutes(app, database, registry);
  for (const spec of DIRECTORY_SPECS) crudRoutes(app, database, registry, spec);
}
