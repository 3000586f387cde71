/**
 * GET /api/resources/runtime: resource declarations (the JSON form of the domain's
 * ResourceDef) that the web client mounts at run time, without a rebuild. Custom entities will
 * answer here; until then the list is empty.
 */
import type { FastifyInstance } from 'fastify';

const declarationList = {
  type: 'object',
  properties: { data: { type: 'array', items: { type: 'object', additionalProperties: true } } },
  required: ['data'],
} as const;

export async function runtimeResourceRoutes(app: FastifyInstance) {
  app.get(
    '/runtime',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['resources'], summary: 'Resource declarations the client mounts at run time', response: { 200: declarationList } },
    },
    async () => ({ data: [] }),
  );
}
