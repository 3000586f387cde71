/**
 * GET /api/resources/runtime: resource declarations (the JSON form of the domain's
 * ResourceDef) that the web client mounts at run time, without a rebuild: one per custom
 * entity of the centre, for whoever may read custom entities' records. Each carries its
 * labels in both languages beside the declaration.
 */
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { can, runtimeDeclaration } from '../../../domain/index';
import { actorOf, tenantOf } from '../../context';
import type { Database } from '../../db/types';
import { withTenant } from '../../db/doors';
import { customEntities } from '../../db/schema/index';
import { asEntity } from '../../engine/values/store';

const declarationList = {
  type: 'object',
  properties: { data: { type: 'array', items: { type: 'object', additionalProperties: true } } },
  required: ['data'],
} as const;

export async function runtimeResourceRoutes(app: FastifyInstance, { database }: { database: Database }) {
  app.get(
    '/runtime',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['resources'], summary: 'Resource declarations the client mounts at run time', response: { 200: declarationList } },
    },
    async (request) => {
      const actor = actorOf(request);
      if (!can(actor.role, 'customEntityRecords', 'read')) return { data: [] };
      const tenantId = tenantOf(request).id;
      const rows = await withTenant(database, tenantId, (tx) =>
        tx.select().from(customEntities).where(eq(customEntities.tenantId, tenantId)).orderBy(asc(customEntities.nameEl), asc(customEntities.id)),
      );
      return { data: rows.map((row) => runtimeDeclaration(asEntity(row))) };
    },
  );
}
