import { keys, useInvalidate } from '@refinedev/core';
import { useCallback } from 'react';

// The money figures (a contract's status and paid/left, its reminders, the account's month)
// are answers of their own, keyed under the resource whose writes move them, so they reload
// the one way every list does: Refine's invalidation after a write.

/** The resources a money write (a payment, a refund, a receipt cancelled, a withdrawal) moves. */
const MONEY_RESOURCES = ['contracts', 'payments', 'receipts', 'expenses', 'history'] as const;

/** After a money write: the contracts, payments, receipts and expenses on screen, and the figures keyed under them, reload. */
export function useMoneyRefresh(): () => Promise<void> {
  const invalidate = useInvalidate();
  return useCallback(async () => {
    await Promise.all(MONEY_RESOURCES.map((resource) => invalidate({ resource, invalidates: ['resourceAll'] })));
  }, [invalidate]);
}

/** A contract's own answer (its status, its reminders): reloaded with the contract's row when it is saved. */
export const contractAnswerKey = (id: number, answer: 'status' | 'reminders') =>
  keys().data('default').resource('contracts').action('one').id(id).params({ answer }).get();

/** The account's month or year: reloaded with the expenses list when an expense is added, changed or deleted. */
export const accountKey = (period: { month: string } | { year: number }) =>
  keys().data('default').resource('expenses').action('list').params({ account: period }).get();
