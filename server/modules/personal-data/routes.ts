/**
 * A person's data (docs/rules.md, Personal data), for ADMIN and ROOT alone:
 * GET /api/students/:id/personal-data and /api/guardians/:id/personal-data answer everything
 * the centre holds about the person as one JSON document; POST …/:id/erase forgets the person
 * while keeping what the law asks for (erase.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/types';
import { withTenant } from '../../db/doors';
import { IdParams } from '../../engine/params';
import type { Registry } from '../../engine/registry';
import { ctxOf } from '../../engine/routes';
import { forgetAttemptNames } from '../auth/login-attempts';
import { collectGuardian, collectStudent, type PersonKind } from './collect';
import { erasePerson } from './erase';

const Document = {
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'object', additionalProperties: true } },
} as const;
const Erased = {
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'object', required: ['id', 'erased'], properties: { id: { type: 'integer' }, erased: { type: 'boolean' } } } },
} as const;

const COLLECT = { students: collectStudent, guardians: collectGuardian } as const;

export const personalDataRoutes: FastifyPluginAsyncZod<{ database: Database; registry: Registry }> = async (app, { database, registry }) => {
  for (const kind of ['students', 'guardians'] as const satisfies readonly PersonKind[]) {
    app.get(
      `/api/${kind}/:id/personal-data`,
      {
        config: { access: { area: 'personalData', action: 'read' } },
        schema: {
          tags: [kind],
          summary: 'Everything the centre holds about the person, as one document',
          params: IdParams,
          response: { 200: Document },
        },
      },
      async (request) => {
        const ctx = ctxOf(request);
        return { data: await withTenant(database, ctx.tenantId, (tx) => COLLECT[kind](tx, registry, ctx.tenantId, request.params.id)) };
      },
    );
    app.post(
      `/api/${kind}/:id/erase`,
      {
        config: { access: { area: 'personalData', action: 'update' } },
        schema: {
          tags: [kind],
          summary: 'Erase the person: names, contacts and free text replaced; money and receipts kept as the law requires',
          params: IdParams,
          response: { 200: Erased },
        },
      },
      async (request) => {
        const ctx = ctxOf(request);
        const id = request.params.id;
        const { signInNames } = await withTenant(database, ctx.tenantId, (tx) => erasePerson(tx, registry, ctx.tenantId, ctx.actor, kind, id));
        // the platform's sign-in records, once the centre's erasure is committed
        await forgetAttemptNames(database, ctx.tenantId, signInNames);
        return { data: { id, erased: true as const } };
      },
    );
  }
};
