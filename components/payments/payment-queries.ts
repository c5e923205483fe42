/**
 * Query options and URL state of the payments views (one module
 * per resource, used by the server prefetch, the client hooks and
 * invalidation). Keys start with the resource and the company.
 */
import { queryOptions } from "@tanstack/react-query";
import { createLoader, parseAsStringLiteral } from "nuqs/server";
import { BATCH_STATUSES } from "@treasury/contract/enums";
import type { BffPage } from "@/lib/views/bff-page";
import type { BatchListRow, BatchView } from "@/lib/views/payments";
import type { DebtorAccountView } from "@/lib/views/payments";
import { parseAsBusinessDate, parseAsPage } from "@/lib/url-state/parsers";
import { bffFetch, toQueryString } from "@/components/data/bff-fetch";
import { MOVING_STATES } from "./status-badge";

/**
 * The batches list's URL state: the spec filters `status`, `from_date`, `to_date`, the page, and `companies=all`
 * for the batches of every company of the user.
 */
export const batchFilterParsers = {
  companies: parseAsStringLiteral(["all"] as const),
  status: parseAsStringLiteral(BATCH_STATUSES),
  from: parseAsBusinessDate,
  to: parseAsBusinessDate,
  page: parseAsPage,
};
export const loadBatchFilters = createLoader(batchFilterParsers);

export interface BatchListFilters {
  companies?: "all";
  status?: string;
  from_date?: string;
  to_date?: string;
  page?: number;
}

export const BATCHES_PAGE_SIZE = 50;

/** The list filters of the URL state as the BFF takes them (only those set; page 1 is the default). */
export function batchListFilters(f: {
  companies: "all" | null;
  status: string | null;
  from: string | null;
  to: string | null;
  page: number | null;
}): BatchListFilters {
  return {
    ...(f.companies ? { companies: f.companies } : {}),
    ...(f.status ? { status: f.status } : {}),
    ...(f.from ? { from_date: f.from } : {}),
    ...(f.to ? { to_date: f.to } : {}),
    ...(f.page && f.page > 1 ? { page: f.page } : {}),
  };
}

/** Polling period of a batch that is still moving (approvals, bank). */
export const BATCH_POLL_MS = 2_000;

/** Batch states the bank ends a batch in: each of its instructions is then settled, rejected or cancelled. */
const BANK_ENDED: readonly string[] = ["completed", "partially_completed", "failed"];

/**
 * True while the batch page's view can still change by itself, so the page keeps polling: the batch is moving
 * (awaiting approval, approved, processing), or the bank has ended it but some instruction still reads pending or
 * accepted. The view's batch and its instructions are separate API reads, each cached for a few seconds by the
 * upstream cache (docs/architecture.md#one-oauth-client-one-budget), so the batch's final status can arrive one read before its
 * instructions' statuses; without this the page stopped polling on "completed" with rows still "pending".
 */
export function batchViewMoving(view: Pick<BatchView, "batch" | "instructions">): boolean {
  if (MOVING_STATES.includes(view.batch.status)) return true;
  return (
    BANK_ENDED.includes(view.batch.status) &&
    view.instructions.some((i) => i.status === "pending" || i.status === "accepted")
  );
}

export const paymentQueries = {
  all: () => ["payments"] as const,
  lists: (companyId: string) => [...paymentQueries.all(), companyId, "list"] as const,
  list: (companyId: string, filters: BatchListFilters) =>
    queryOptions({
      queryKey: [...paymentQueries.lists(companyId), filters] as const,
      queryFn: ({ signal }) =>
        bffFetch<BffPage<BatchListRow>>(
          `/api/treasury/payments/batches${toQueryString({ ...filters, page_size: BATCHES_PAGE_SIZE })}`,
          { signal },
        ),
    }),
  view: (companyId: string, id: string) =>
    queryOptions({
      queryKey: [...paymentQueries.all(), companyId, "view", id] as const,
      queryFn: ({ signal }) => bffFetch<BatchView>(`/api/treasury/payments/batches/${id}/view`, { signal }),
      // Live while the batch is moving: approvals and the bank change it within seconds.
      refetchInterval: (q) => (q.state.data && batchViewMoving(q.state.data) ? BATCH_POLL_MS : false),
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
