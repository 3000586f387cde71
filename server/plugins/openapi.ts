/**
 * Route schemas are zod schemas derived from domain/, validated by Fastify before the handler
 * runs (typed request.body/params/query through the zod type provider), and published as
 * OpenAPI at /api/docs (UI) and /api/docs/json. Response schemas are JSON Schema, so
 * Fastify's fast-json-stringify writes them: quicker than JSON.stringify, and a name the
 * schema does not list never leaves the server.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { DomainError, zodIssuesToFields } from '../../domain/index';
import { documentObject, documentRoute } from './openapi-document';

/**
 * Our own compiler rather than the provider's: the field codes need zod's `reportInput`
 * (a missing field is `required`, a wrong one `invalid-type`), and failures leave as our
 * DomainError. A malformed path id names no row: 404, as for an id that does not exist.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data, { reportInput: true });
    if (result.success) return { value: result.data };
    if (httpPart === 'params') return { error: new DomainError('not-found') };
    const fields = zodIssuesToFields(result.error.issues);
    const message =
      httpPart === 'querystring'
        ? 'The query is not valid.'
        : Object.keys(fields).join() === '_' && data !== undefined
          ? 'The body must be a JSON object.'
          : undefined;
    return { error: new DomainError('validation', message, fields) };
  };

type Transform = typeof jsonSchemaTransform;

/** The provider turns zod into JSON Schema for the docs; response schemas already are JSON Schema. */
const transform: Transform = (document) => {
  const { response, ...rest } = (document.schema ?? {}) as Record<string, unknown>;
  const out = jsonSchemaTransform({ ...document, schema: rest } as Parameters<Transform>[0]);
  if (response && !(out.schema as { hide?: boolean }).hide) (out.schema as Record<string, unknown>).response = response;
  return documentRoute({ ...out, route: document.route });
};

export const openapiPlugin = fp(async (app: FastifyInstance) => {
  app.setValidatorCompiler(validatorCompiler);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Frontis API',
        version: '1',
        description:
          'Every call needs the headers `x-client-type: web|api` and `x-tenant-id: <tenant slug>`. ' +
          'Errors are `{error: {code, message, fields?, details?}}` (components.schemas.Error); whatever an error says beyond its code (counts, conflicting lessons, refused import rows) is in `details`.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'access_token' },
        },
      },
      security: [{ bearer: [] }, { cookie: [] }],
    },
    transform,
    transformObject: (input) => ('openapiObject' in input ? documentObject(input) : input.swaggerObject),
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: false });
});
