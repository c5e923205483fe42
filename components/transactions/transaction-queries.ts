/**
 * Query options for the transactions list (one module per
 * resource, shared by prefetch, hooks and invalidation). Pages of 1,000 rows
 * (docs/treasury-api.md#limits maximum) are loaded one after another as the list scrolls.
 */
import { infiniteQueryOptions } from "@tanstack/react-query";
import { callBff } from "@/components/data/bff-fetch";
import { endpointKey, endpointUrl } from "@/lib/bff/endpoint";
import { ledgerEndpoints } from "@/lib/bff/areas/ledger/endpoints";

/** The spec filters of `/transactions` (docs/treasury-api.md#list-conventions: from_date, to_date, account_id, direction, currency). */
export interface TransactionQueryFilters {
  from_date: string;
  to_date: string;
  direction?: "credit" | "debit";
  currency?: string;
  account_id?: string;
}

export const TRANSACTIONS_PAGE_SIZE = 1000;

/** The transactions list's infinite query, keyed by its endpoint and scoped by company and filters. */
export const transactionListQueries = {
  infinite: (companyId: string, filters: TransactionQueryFilters) =>
    infiniteQueryOptions({
      queryKey: endpointKey(ledgerEndpoints.transactions, { company: companyId, query: filters }),
      queryFn: ({ pageParam, signal }: { pageParam: number; signal?: AbortSignal }) =>
        callBff(ledgerEndpoints.transactions, {
          query: { ...filters, page: pageParam, page_size: TRANSACTIONS_PAGE_SIZE },
          signal,
        }),
      initialPageParam: 1,
      getNextPageParam: (last) => (last.has_next ? last.page + 1 : undefined),
    }),
};

/** The export URL of the same filter plus the text search and the category (each left out when empty). */
export function transactionsExportUrl(
  filters: TransactionQueryFilters,
  q: string | null,
  category?: string | null,
): string {
  return endpointUrl(ledgerEndpoints.exportTransactions, undefined, { ...filters, q, category });
}
