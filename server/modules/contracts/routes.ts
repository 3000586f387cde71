/**
 * Contracts: the CRUD routes (figures and filters in spec.ts) and the month-by-month status of
 * one contract: the registration and each month with what is owed, paid and left.
 */
import type { FastifyInstance } from 'fastify';
import { contractFigures, contractLines, DomainError, RESOURCE_AREA, type ContractTerms } from '../../../domain/index';
import { withTenant, type Database } from '../../db/client';
import { findRow } from '../crud/read';
import { crudRoutes, ctxOf } from '../crud/routes';
import { parseId } from '../params';
import { registry } from '../registry';
import { contractPayments, contractsSpec } from './spec';

export async function contractRoutes(app: FastifyInstance, { database }: { database: Database }) {
  const area = RESOURCE_AREA.contracts!;
  app.get(
    '/api/contracts/:id/status',
    {
      config: { access: { area, action: 'read' } },
      schema: { tags: ['contracts'], summary: 'The contract month by month: registration and each month with owed, paid and left; the extra charges' },
    },
    async (request) => {
      const id = parseId((request.params as { id?: string }).id);
      const ctx = ctxOf(request);
      return withTenant(database, ctx.tenantId, async (tx) => {
        const contract = await findRow(tx, registry, ctx, contractsSpec, id);
        if (!contract) throw new DomainError('not-found');
        const terms = contract as unknown as ContractTerms;
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
  crudRoutes(app, database, registry, contractsSpec);
}
