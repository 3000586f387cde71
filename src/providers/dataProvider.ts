import type { BaseKey, BaseRecord, DataProvider, MetaQuery } from '@refinedev/core';
import simpleRest, { generateFilter, generateSort, stringify } from '@refinedev/simple-rest';
import { http, toApiError, type ApiErrorBody } from './http';
import { toHttpError, type TranslatedError } from './errors';

export const API_URL = '/api';

interface Row extends BaseRecord {
  version?: number;
}

/**
 * What every data hook rejects with: Refine's HttpError (translated `message`, `statusCode`,
 * field `errors`) plus the server's own answer in `body`, for errors that carry more than a
 * message (a 409 conflict names the lessons in the way in `body.error.lessons`).
 */
export interface ProviderError extends TranslatedError {
  body: ApiErrorBody | undefined;
}

const isProviderError = (error: unknown): error is ProviderError =>
  typeof error === 'object' && error !== null && !(error instanceof Error) && 'statusCode' in error && 'message' in error;

/** Any failure as the data provider's error (one already translated stays as it is). */
export function toProviderError(error: unknown): ProviderError {
  if (isProviderError(error)) return error;
  const apiError = toApiError(error);
  return { ...toHttpError(apiError), body: apiError.body as ApiErrorBody | undefined };
}

async function translated<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toProviderError(error);
  }
}

const base = simpleRest(API_URL, http);

// `meta.singleton`: a resource that is one row without an id in its path (/api/mydata).
const rowUrl = (resource: string, id: BaseKey | undefined, meta: MetaQuery | undefined) =>
  meta?.singleton ? `${API_URL}/${resource}` : `${API_URL}/${resource}/${id}`;

/**
 * simple-rest's query shape (_start, _end, _sort, _order, q, field, field_ne/_gte/_lte/_like)
 * with our envelopes: lists `{data, total}`, one row `{data}`, create `{id, data}`.
 */
export const dataProvider: DataProvider = {
  ...base,

  getList: ({ resource, pagination, filters, sorters, meta }) =>
    translated(async () => {
      const { currentPage = 1, pageSize = 25, mode = 'server' } = pagination ?? {};
      const query: Record<string, unknown> = { ...generateFilter(filters) };
      if (mode === 'server') {
        query._start = (currentPage - 1) * pageSize;
        query._end = currentPage * pageSize;
      }
      const sort = generateSort(sorters);
      if (sort) {
        query._sort = sort._sort.join(',');
        query._order = sort._order.join(',');
      }
      const qs = stringify(query, { skipEmptyString: true, skipNull: true });
      const { data } = await http.get<{ data: never[]; total: number; totals?: Record<string, number> }>(`${API_URL}/${resource}${qs ? `?${qs}` : ''}`, {
        headers: meta?.headers as Record<string, string> | undefined,
      });
      // Money lists sum every matching row beside the page (`totals`).
      return data.totals ? { data: data.data, total: data.total, totals: data.totals } : { data: data.data, total: data.total };
    }),

  getMany: ({ resource, ids }) =>
    translated(async () => {
      const { data } = await http.get<{ data: never[] }>(`${API_URL}/${resource}?${stringify({ id: ids, _end: ids.length })}`);
      return { data: data.data };
    }),

  getOne: ({ resource, id, meta }) =>
    translated(async () => {
      const { data } = await http.get<{ data: never }>(rowUrl(resource, id, meta));
      return { data: data.data };
    }),

  create: ({ resource, variables }) =>
    translated(async () => {
      const { data } = await http.post<{ id: number; data: never }>(`${API_URL}/${resource}`, variables);
      return { data: data.data };
    }),

  // The row's version travels with every update; a stale one answers 409 stale.
  update: ({ resource, id, variables, meta }) =>
    translated(async () => {
      const body = { ...(variables as Row) };
      if (body.version === undefined && typeof meta?.version === 'number') body.version = meta.version;
      const { data } = await http.patch<{ data: never }>(rowUrl(resource, id, meta), body);
      return { data: data.data };
    }),

  deleteOne: ({ resource, id }) =>
    translated(async () => {
      await http.delete(`${API_URL}/${resource}/${id}`);
      return { data: { id } as never };
    }),

  custom: (params) => translated(() => base.custom(params)),

  getApiUrl: () => API_URL,
};
