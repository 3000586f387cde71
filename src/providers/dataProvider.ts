import type { BaseRecord, DataProvider } from '@refinedev/core';
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

export function toProviderError(error: unknown): ProviderError {
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
      const { data } = await http.get<{ data: never[]; total: number }>(`${API_URL}/${resource}${qs ? `?${qs}` : ''}`, {
        headers: meta?.headers as Record<string, string> | undefined,
      });
      return { data: data.data, total: data.total };
    }),

  getMany: ({ resource, ids }) =>
    translated(async () => {
      const { data } = await http.get<{ data: never[] }>(`${API_URL}/${resource}?${stringify({ id: ids, _end: ids.length })}`);
      return { data: data.data };
    }),

  getOne: ({ resource, id }) =>
    translated(async () => {
      const { data } = await http.get<{ data: never }>(`${API_URL}/${resource}/${id}`);
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
      const { data } = await http.patch<{ data: never }>(`${API_URL}/${resource}/${id}`, body);
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
