/**
 * The data-fetching settings (TanStack Query, through Refine). A query client gets three
 * retries with a doubling back-off capped at 30 s and keeps unused answers five minutes; the
 * app's own client asks once (a failed request already went through the session's refresh
 * and retry in ./http, and the screens show the error), and the signed-in user (`/me`, which
 * ./authProvider keeps until the session changes) never goes stale. tests/unit/spec-constants
 * reads these, the values the app uses.
 */
import { keys } from '@refinedev/core';
import { keepPreviousData, QueryClient, type QueryClientConfig } from '@tanstack/react-query';
import { setBusyProbe } from './busy';

/** min(1000·2^n, 30000) ms before retry n+1. */
export const retryDelay = (failureCount: number) => Math.min(1000 * 2 ** failureCount, 30_000);

export const QUERY_DEFAULTS = { retry: 3, retryDelay, gcTime: 5 * 60 * 1000 } as const;

/** Refine's key of the signed-in user's query (useGetIdentity). */
export const IDENTITY_KEY = keys().auth().action('identity').get();

export function createQueryClient(queries: NonNullable<QueryClientConfig['defaultOptions']>['queries'] = {}): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { ...QUERY_DEFAULTS, ...queries } } });
  client.setQueryDefaults(IDENTITY_KEY, { staleTime: Number.POSITIVE_INFINITY });
  return client;
}

/**
 * The app's client, one per mounted Refine (each sign-in starts with an empty cache). No
 * retries; Refine's own defaults (no refetch on window focus, the previous page kept while the
 * next loads) are restated since Refine applies them only to a client it builds itself.
 */
export const createAppQueryClient = () => {
  const client = createQueryClient({ retry: false, refetchOnWindowFocus: false, placeholderData: keepPreviousData });
  setBusyProbe(() => client.isFetching() > 0 || client.isMutating() > 0);
  return client;
};
