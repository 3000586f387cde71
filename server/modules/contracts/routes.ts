/**
 * Contracts, registered under /api/contracts: the CRUD routes (figures and filters in spec.ts)
 * and the month-by-month status of one contract: the registration and each month with what is
 * owed, paid and left.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Registry } from '../../engine/registry';
import { z } from 'zod';
import {
  CONTRACTS,
  ContractRemindersAnswer,
  ContractStatusAnswer,
  contractFigures,
  contractLines,
  DomainError,
  RecordRow,
  RESOURCE_AREA,
} from '../../../domain/index';

const RecordAnswer = z.object({ data: RecordRow });
const RecordListAnswer = z.object({ data: z.array(RecordRow) });
import type { Database } from '../../db/types';
import { withTenant } from '../../db/doors';
import { findRow } from '../../engine/read';
import { crudRoutes, ctxOf, rowSchemaOf } from '../../engine/routes';
import { answerSchema } from '../../engine/answers';
import { IdParams } from '../../engine/params';
import { contractPayments, contractsSpec, termsOf } from './spec';
import { contractReminders } from './reminders';
import { ReinstateBody, reinstateContract, WithdrawBody, withdrawContract, WithdrawManyBody, withdrawStudent } from './lifecycle';

export const contractRoutes: FastifyPluginAsyncZod<{ database: Database; registry: Registry }> = async (app, { database, registry }) => {
  const area = RESOURCE_AREA[CONTRACTS.name] ?? CONTRACTS.area;
  app.get(
    '/:id/status',
    {
      config: { access: { area, action: 'read' } },
      schema: {
        tags: ['contracts'],
        summary: 'The contract month by month: registration and each month with owed, paid and left; the extra charges; credit to refund and refunded',
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
        const credit = Number(contract.credit ?? figures.credit);
        const refunded = Number(contract.refunded ?? figures.refunded);
        return {
          data: {
            contract,
            lines: contractLines(terms, paid),
            extras: paid.filter((p) => p.kind === 'EXTRA'),
            payments: paid,
            total_cost: figures.total_cost,
            total_paid: figures.total_paid,
            rest: figures.rest,
            credit,
            refunded,
          },
        };
      });
    },
  );
  const row = rowSchemaOf(contractsSpec);
  app.post(
    '/:id/withdraw',
    {
      config: { access: { area, action: 'update' } },
      schema: {
        tags: ['contracts'],
        summary: 'Withdraw the contract on a date ({on, reason}): that month stays due, later months stop being owed; payments for them become credit',
        params: IdParams,
        body: WithdrawBody,
        response: { 200: answerSchema(RecordAnswer, row) },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      return { data: await withTenant(database, ctx.tenantId, (tx) => withdrawContract(tx, registry, ctx, request.params.id, request.body)) };
    },
  );
  app.post(
    '/:id/reinstate',
    {
      config: { access: { area, action: 'update' } },
      schema: {
        tags: ['contracts'],
        summary: 'Undo a withdrawal (ADMIN): the contract owes its months again',
        params: IdParams,
        body: ReinstateBody,
        response: { 200: answerSchema(RecordAnswer, row) },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      return { data: await withTenant(database, ctx.tenantId, (tx) => reinstateContract(tx, registry, ctx, request.params.id, request.body)) };
    },
  );
  app.post(
    '/withdraw',
    {
      config: { access: { area, action: 'update' } },
      schema: {
        tags: ['contracts'],
        summary: 'Withdraw every active contract of a student running on a date ({student_id, on, reason}): when she leaves',
        body: WithdrawManyBody,
        response: { 200: answerSchema(RecordListAnswer, row) },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      return { data: await withTenant(database, ctx.tenantId, (tx) => withdrawStudent(tx, registry, ctx, request.body)) };
    },
  );
  app.get(
    '/:id/reminders',
    {
      config: { access: { area, action: 'read' } },
      schema: {
        tags: ['contracts'],
        summary: 'The reminders of unpaid months written for the contract, to whom and when, sent or not (ADMIN)',
        params: IdParams,
        response: { 200: answerSchema(ContractRemindersAnswer) },
      },
    },
    async (request) => {
      const ctx = ctxOf(request);
      return { data: await withTenant(database, ctx.tenantId, (tx) => contractReminders(tx, registry, ctx, request.params.id)) };
    },
  );
  await app.register(crudRoutes, { database, registry, spec: contractsSpec });
};
