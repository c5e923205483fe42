/**
 * Query options and URL state of the payments views (one module
 * per resource, used by the server prefetch, the client hooks and
 * invalidation). Keys start with the resource and the company.
 */
import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { createLoader, parseAsStringLiteral } from "nuqs/server";
import { BATCH_STATUSES } from "@treasury/contract/enums";
import type { BatchView } from "@/lib/views/payments";
import { parseAsBusinessDate, parseAsPage } from "@/lib/url-state/parsers";
import { endpointQuery } from "@/components/data/bff-fetch";
import { endpointKey } from "@/lib/bff/endpoint";
import { paymentsEndpoints } from "@/lib/bff/areas/payments/endpoints";
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

/**
 * The payments reads' React Query options, keyed by their endpoints (docs/architecture.md#the-bff-declared-per-area)
 * and scoped by the company; `keys()` are the prefixes that reach every cached list, view and debtor account (what a
 * batch write invalidates).
 */
export const paymentQueries = {
  keys: () =>
    [
      endpointKey(paymentsEndpoints.batches),
      endpointKey(paymentsEndpoints.view),
      endpointKey(paymentsEndpoints.debtorAccount),
    ] as const,
  list: (companyId: string, filters: BatchListFilters) =>
    queryOptions(
      endpointQuery(paymentsEndpoints.batches, {
        query: { ...filters, page_size: BATCHES_PAGE_SIZE },
        scope: { company: companyId },
      }),
    ),
  view: (companyId: string, id: string) =>
    queryOptions({
      ...endpointQuery(paymentsEndpoints.view, { params: { id }, scope: { company: companyId } }),
      // Live while the batch is moving: approvals and the bank change it within seconds.
      refetchInterval: (q: { state: { data?: BatchView } }) =>
        q.state.data && batchViewMoving(q.state.data) ? BATCH_POLL_MS : false,
    }),
  /** The account the batch is paid from (it changes only when accounts do). */
  debtor: (companyId: string, id: string) =>
    queryOptions({
      ...endpointQuery(paymentsEndpoints.debtorAccount, { params: { id }, scope: { company: companyId } }),
      staleTime: 60_000,
    }),
};

/** Invalidates every cached payments read (after a batch is created, edited, discarded, submitted or decided). */
export function invalidatePayments(qc: QueryClient): Promise<void> {
  return Promise.all(paymentQueries.keys().map((queryKey) => qc.invalidateQueries({ queryKey }))).then(() => undefined);
}
