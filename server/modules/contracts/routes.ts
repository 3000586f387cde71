/**
 * Contracts, registered under /api/contracts: the CRUD routes (figures and filters in spec.ts)
 * and the month-by-month status of one contract: the registration and each month with what is
 * owed, paid and left.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Registry } from '../../engine/registry';
import { CONTRACTS, ContractStatusAnswer, contractFigures, contractLines, DomainError, RESOURCE_AREA } from '../../../domain/index';
import { withTenant, type Database } from '../../db/client';
import { findRow } from '../../engine/read';
import { crudRoutes, ctxOf, rowSchemaOf } from '../../engine/routes';
import { answerSchema } from '../../engine/answers';
import { IdParams } from '../../engine/params';
import { contractPayments, contractsSpec, termsOf } from './spec';

export const contractRoutes: FastifyPluginAsyncZod<{ database: Database; registry: Registry }> = async (app, { database, registry }) => {
  const area = RESOURCE_AREA[CONTRACTS.name] ?? CONTRACTS.area;
  app.get(
    '/:id/status',
    {
      config: { access: { area, action: 'read' } },
      schema: {
        tags: ['contracts'],
        summary: 'The contract month by month: registration and each month with owed, paid and left; the extra charges',
        params: IdParams,
        response: { 200: answerSchema(ContractStatusAnswer, rowSchemaOf(contractsSpec)) },
      },
    },
    async (request) => {
      const id = request.params.id;
      const ctx = ctxOf(request);
      return withTenant(database, ctx.tenantId, async (tx) => {
        const contract = await findRow(tx, registry, ctx, contractsSpec, id);
        if (!contract) throw new DomainError('not-found');
        const terms = termsOf(contract);
        const paid = await contractPayments(tx, ctx.tenantId, id);
        const figures = contractFigures(terms, paid);
        return {
          data: {
            contract,
            lines: contractLines(terms, paid),
            extras: paid.filter((p) => p.kind === 'EXTRA'),
            payments: paid,
            total_cost: figures.total_cost,
            total_paid: figures.total_paid,
            rest: figures.rest,
          },
        };
      });
    },
  );
  await app.register(crudRoutes, { database, registry, spec: contractsSpec });
};
