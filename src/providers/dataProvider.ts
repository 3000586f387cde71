import type { BaseKey, BaseRecord, CrudFilters, CrudSorting, DataProvider, MetaQuery } from '@refinedev/core';
import { http, toApiError, type ApiErrorBody } from './http';
import { toHttpError, type TranslatedError } from './errors';

export const API_URL = '/api';

interface Row extends BaseRecord {
  version?: number;
}

/**
 * What every data hook rejects with: Refine's HttpError (translated `message`, `statusCode`,
 * field `errors`) plus the server's own answer in `body`, for errors that carry more than a
 * message (a 409 conflict names the lessons in the way in `body.error.details.lessons`).
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

/** Every character but letters, digits and `-_.~` percent-encoded (also `!'()*`). */
const encodeStrict = (value: unknown) => encodeURIComponent(String(value)).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * A query string the server's list parameters read: keys sorted, an array as the key repeated
 * (`id=1&id=2`), null as the bare key, undefined left out; `skipNull` and `skipEmptyString` also
 * leave out null and '' values. (The same text the query-string package makes by default.)
 */
export function stringify(query: Record<string, unknown>, options: { skipNull?: boolean; skipEmptyString?: boolean } = {}): string {
  const skipped = (value: unknown) => value === undefined || (options.skipNull && value === null) || (options.skipEmptyString && value === '');
  const parts: string[] = [];
  for (const key of Object.keys(query).sort()) {
    const value = query[key];
    if (skipped(value)) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (skipped(item)) continue;
      parts.push(item === null ? encodeStrict(key) : `${encodeStrict(key)}=${encodeStrict(item)}`);
    }
  }
  return parts.join('&');
}

/** Refine's filters as list parameters: `field`, `field_ne`, `field_gte`, `field_lte`, `field_like` (contains), and `q`. */
export function generateFilter(filters?: CrudFilters): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const filter of filters ?? []) {
    if (!('field' in filter)) throw new Error(`filters joined by "${filter.operator}" are not supported`);
    const { field, operator, value } = filter;
    if (field === 'q') query.q = value;
    else query[`${field}${operator === 'ne' || operator === 'gte' || operator === 'lte' ? `_${operator}` : operator === 'contains' ? '_like' : ''}`] = value;
  }
  return query;
}

/** Refine's sorters as `_sort` and `_order` (comma-separated), or nothing. */
function sortQuery(sorters?: CrudSorting): { _sort: string; _order: string } | undefined {
  if (!sorters?.length) return undefined;
  return { _sort: sorters.map((s) => s.field).join(','), _order: sorters.map((s) => s.order).join(',') };
}

// `meta.singleton`: a resource that is one row without an id in its path (/api/mydata).
const rowUrl = (resource: string, id: BaseKey | undefined, meta: MetaQuery | undefined) =>
  meta?.singleton ? `${API_URL}/${resource}` : `${API_URL}/${resource}/${id}`;

/**
 * simple-rest's query shape (_start, _end, _sort, _order, q, field, field_ne/_gte/_lte/_like)
 * with our envelopes: lists `{data, total}`, one row `{data}`, create `{id, data}`.
 */
export const dataProvider: DataProvider = {
  getList: ({ resource, pagination, filters, sorters, meta }) =>
    translated(async () => {
      const { currentPage = 1, pageSize = 25, mode = 'server' } = pagination ?? {};
      const query: Record<string, unknown> = { ...generateFilter(filters) };
      if (mode === 'server') {
        query._start = (currentPage - 1) * pageSize;
        query._end = currentPage * pageSize;
      }
      Object.assign(query, sortQuery(sorters));
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

  // `meta.query` rides along as query parameters (`?discard_values=true`, `?with_records=true`).
  deleteOne: ({ resource, id, meta }) =>
    translated(async () => {
      await http.delete(`${API_URL}/${resource}/${id}`, { params: meta?.query as Record<string, string> | undefined });
      return { data: { id } as never };
    }),

  // Any other call (Refine's useCustom, useCustomMutation): a GET carries sorters, filters and
  // query, each appended after `?&`; other methods send the payload as the body.
  custom: ({ url, method, filters, sorters, payload, query, headers }) =>
    translated(async () => {
      const config = { headers: headers as Record<string, string> | undefined };
      if (method === 'put' || method === 'post' || method === 'patch') return { data: (await http[method]<never>(url, payload, config)).data };
      if (method === 'delete') return { data: (await http.delete<never>(url, { ...config, data: payload })).data };
      let requestUrl = `${url}?`;
      const sort = sortQuery(sorters);
      if (sort) requestUrl += `&${stringify(sort)}`;
      if (filters) requestUrl += `&${stringify(generateFilter(filters))}`;
      if (query) requestUrl += `&${stringify(query as Record<string, unknown>)}`;
      return { data: (await http.get<never>(requestUrl, config)).data };
    }),

  getApiUrl: () => API_URL,
};
