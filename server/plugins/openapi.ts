/**
 * OpenAPI at /api/docs (UI) and /api/docs/json. Route schemas are documentation only: the
 * validator compiler is a no-op because bodies and queries are validated by the zod schemas
 * derived from domain/ (one source of truth, one error format).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';

/** JSON Schema of a zod schema for the docs (best effort: unrepresentable parts become {}). */
export function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  try {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as Record<string, unknown>;
    return rest;
  } catch {
    return {};
  }
}

export const openapiPlugin = fp(async (app: FastifyInstance) => {
  app.setValidatorCompiler(() => () => true);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Frontis API',
        version: '1',
        description:
          'Every call needs the headers `x-client-type: web|api` and `x-tenant-id: <tenant slug>`. ' + 'Errors are `{error: {code, message, fields?}}`.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'access_token' },
        },
      },
      security: [{ bearer: [] }, { cookie: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: false });
});
