import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

/**
 * Reloads a figure that no resource owns (the account's cards, a contract's month-by-month
 * status) after every successful write of the client: an expense added, a payment recorded, a
 * contract withdrawn all move it, and a write's own invalidation reaches only its resource.
 */
export function useRefetchAfterWrites(refetch: () => unknown) {
  const client = useQueryClient();
  const latest = useRef(refetch);
  latest.current = refetch;
  useEffect(
    () =>
      client.getMutationCache().subscribe((event) => {
        if (event.type === 'updated' && event.action.type === 'success') void latest.current();
      }),
    [client],
  );
}
