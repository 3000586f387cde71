/** Expenses and their categories: plain CRUD routes (spec.ts) under /api/expenses and /api/expense-categories. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Registry } from '../../engine/registry';
import type { Database } from '../../db/types';
import { crudRoutes } from '../../engine/routes';
import { expenseCategoriesSpec, expensesSpec } from './spec';

export const expenseRoutes: FastifyPluginAsyncZod<{ database: Database; registry: Registry }> = async (app, { database, registry }) => {
  for (const spec of [expenseCategoriesSpec, expensesSpec]) await app.register(crudRoutes, { prefix: `/api/${spec.def.name}`, database, registry, spec });
};
