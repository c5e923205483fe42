/**
 * Query options for the transactions list (one module per
 * resource, shared by prefetch, hooks and invalidation). Pages of 1,000 rows
 * (docs/treasury-api.md#limits maximum) are loaded one after another as the list scrolls.
 */
import { infiniteQueryOptions } from "@tanstack/react-query";
import type { Transaction } from "@treasury/contract";
import type { BffPage } from "@/lib/views/bff-page";
import { bffFetch, toQueryString } from "@/components/data/bff-fetch";

/** The spec filters of `/transactions` (docs/treasury-api.md#list-conventions: from_date, to_date, account_id, direction, currency). */
export interface TransactionQueryFilters {
  from_date: string;
  to_date: string;
  direction?: "credit" | "debit";
  currency?: string;
  account_id?: string;
}

export const TRANSACTIONS_PAGE_SIZE = 1000;

export const transactionListQueries = {
  all: () => ["transactions", "infinite"] as const,
  infinite: (companyId: string, filters: TransactionQueryFilters) =>
    infiniteQueryOptions({
      queryKey: [...transactionListQueries.all(), companyId, filters] as const,
      queryFn: ({ pageParam, signal }) =>
        bffFetch<BffPage<Transaction>>(
          `/api/treasury/transactions${toQueryString({
            ...filters,
            page: pageParam,
            page_size: TRANSACTIONS_PAGE_SIZE,
          })}`,
          { signal },
        ),
      initialPageParam: 1,
      getNextPageParam: (last) => (last.has_next ? last.page + 1 : undefined),
    }),
};

/** The export URL of the same filter plus the text search. */
export function transactionsExportUrl(filters: TransactionQueryFilters, q: string | null): string {
  return `/api/treasury/transactions/export${toQueryString({ ...filters, q })}`;
}
