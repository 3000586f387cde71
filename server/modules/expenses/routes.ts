/** Expenses and their categories: plain CRUD routes (spec.ts). */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { crudRoutes } from '../crud/routes';
import { registry } from '../registry';
import { expenseCategoriesSpec, expensesSpec } from './spec';

export async function expenseRoutes(app: FastifyInstance, { database }: { database: Database }) {
  crudRoutes(app, database, registry, expenseCategoriesSpec);
  crudRoutes(app, database, registry, expensesSpec);
}
