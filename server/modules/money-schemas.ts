/**
 * JSON Schemas of the money answers that are not plain rows: a receipt split, the account's
 * month, the analytics and a contract's status. Fastify writes answers through them, so only
 * what is named here leaves the server.
 */
import type { JsonSchema } from '../../domain/index';

const int: JsonSchema = { type: 'integer' };
const str: JsonSchema = { type: 'string' };
const object = (properties: Record<string, JsonSchema>): JsonSchema => ({ type: 'object', properties });
const array = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

export const SPLIT = object({ with_receipt: int, without_receipt: int, total: int });

const figures = { income: SPLIT, expenses: SPLIT, expected: SPLIT, net: SPLIT };
export const MONTH_FIGURES = object({ month: str, ...figures });
export const YEAR_FIGURES = object({ year: int, months: array(MONTH_FIGURES), totals: object(figures) });

const outstanding = array(object({ id: { type: ['integer', 'null'] }, name: { type: ['string', 'null'] }, expected: int, collected: int, outstanding: int }));
export const CONTRACT_ANALYTICS = object({
  from: str,
  to: str,
  months: array(
    object({
      month: str,
      new_contracts: int,
      active_contracts: int,
      expected: int,
      collected: int,
      outstanding: int,
      collection_rate: { type: ['number', 'null'] },
    }),
  ),
  by_category: outstanding,
  by_class: outstanding,
});

const payment = object({ id: int, kind: str, month: { type: ['string', 'null'] }, amount: int, bill_number: { type: ['string', 'null'] }, paid_on: str });
export const contractStatusSchema = (contract: JsonSchema) =>
  object({
    contract,
    lines: array(object({ kind: str, month: str, owed: int, paid: int, left: int })),
    extras: array(payment),
    payments: array(payment),
    total_cost: int,
    total_paid: int,
    rest: int,
  });

export const data = (schema: JsonSchema): JsonSchema => object({ data: schema });
