/**
 * The centre's expenses and their categories: plain resources, plus the with/without receipt
 * filter and the totals of the filtered rows that the account shows.
 */
import { sql } from 'drizzle-orm';
import { checkMoneyDate, DomainError, EXPENSE_CATEGORIES, EXPENSES, type FieldErrors } from '../../../domain/index';
import { expenseCategories, expenses } from '../../db/schema/index';
import type { ResourceSpec } from '../../engine/spec';
import { receiptWhere } from '../payments/spec';

export const expenseCategoriesSpec: ResourceSpec = { def: EXPENSE_CATEGORIES, table: expenseCategories, label: expenseCategories.name.getSQL() };

export const expensesSpec: ResourceSpec = {
  def: EXPENSES,
  table: expenses,
  label: sql`(to_char(expenses.date, 'YYYY-MM-DD') || ' ' || coalesce(expenses.description, ''))`,
  shown: { with_receipt: sql<boolean>`(expenses.bill_number is not null)` },
  totals: {
    amount: sql`sum(${expenses.amount})`,
    with_receipt: sql`sum(${expenses.amount}) filter (where ${expenses.billNumber} is not null)`,
    without_receipt: sql`sum(${expenses.amount}) filter (where ${expenses.billNumber} is null)`,
  },
  async listExtras() {
    return {
      fields: [{ name: 'with_receipt', type: 'BOOLEAN', filterable: true }],
      where: (query) => receiptWhere(sql`${expenses.billNumber}`, query),
    };
  },
  async beforeWrite({ input }) {
    const fields: FieldErrors = {};
    checkMoneyDate(fields, 'date', input.date);
    if (Object.keys(fields).length) throw new DomainError('validation', 'The expense date is not valid.', fields);
    return undefined;
  },
};
