/**
 * Query options and URL state of the payments views (one module
 * per resource, used by the server prefetch, the client hooks and
 * invalidation). Keys start with the resource and the company.
 */
import { queryOptions } from "@tanstack/react-query";
import { createLoader, parseAsStringLiteral } from "nuqs/server";
import type { PaymentBatch } from "@/lib/contract";
import { BATCH_STATUSES } from "@/lib/contract/enums";
import type { BffPage } from "@/lib/views/bff-page";
import type { BatchView } from "@/lib/views/payments";
import type { DebtorAccountView } from "@/lib/views/payments";
import { parseAsBusinessDate, parseAsPage } from "@/lib/url-state/parsers";
import { bffFetch, toQueryString } from "@/components/data/bff-fetch";
import { MOVING_STATES } from "./status-badge";

/** The batches list's URL state: the spec filters `status`, `from_date`, `to_date` and the page. */
export const batchFilterParsers = {
  status: parseAsStringLiteral(BATCH_STATUSES),
  from: parseAsBusinessDate,
  to: parseAsBusinessDate,
  page: parseAsPage,
};
export const loadBatchFilters = createLoader(batchFilterParsers);

export interface BatchListFilters {
  status?: string;
  from_date?: string;
  to_date?: string;
  page?: number;
}

export const BATCHES_PAGE_SIZE = 50;

/** Polling period of a batch that is still moving (approvals, bank). */
export const BATCH_POLL_MS = 2_000;

export const paymentQueries = {
  all: () => ["payments"] as const,
  lists: (companyId: string) => [...paymentQueries.all(), companyId, "list"] as const,
  list: (companyId: string, filters: BatchListFilters) =>
    queryOptions({
      queryKey: [...paymentQueries.lists(companyId), filters] as const,
      queryFn: ({ signal }) =>
        bffFetch<BffPage<PaymentBatch>>(
          `/api/treasury/payments/batches${toQueryString({ ...filters, page_size: BATCHES_PAGE_SIZE })}`,
          { signal },
        ),
    }),
  view: (companyId: string, id: string) =>
    queryOptions({
      queryKey: [...paymentQueries.all(), companyId, "view", id] as const,
      queryFn: ({ signal }) => bffFetch<BatchView>(`/api/treasury/payments/batches/${id}/view`, { signal }),
      // Live while the batch is moving: approvals and the bank change it within seconds.
      refetchInterval: (q) =>
        q.state.data && MOVING_STATES.includes(q.state.data.batch.status) ? BATCH_POLL_MS : false,
    }),
  /** The account the batch is paid from (it changes only when accounts do). */
  debtor: (companyId: string, id: string) =>
    queryOptions({
      queryKey: [...paymentQueries.all(), companyId, "debtor", id] as const,
      queryFn: ({ signal }) =>
        bffFetch<{ account: DebtorAccountView | null; reason: string | null }>(
          `/api/treasury/payments/batches/${id}/debtor-account`,
          { signal },
        ),
      staleTime: 60_000,
    }),
};
