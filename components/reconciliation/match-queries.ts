/** Query options and URL state of the reconciliation review (one module per resource). */
import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { createLoader, parseAsStringLiteral } from "nuqs/server";
import { parseAsBusinessDate, parseAsPage } from "@/lib/url-state/parsers";
import { endpointQuery } from "@/components/data/bff-fetch";
import { endpointKey } from "@/lib/bff/endpoint";
import { reconciliationEndpoints as e } from "@/lib/bff/areas/reconciliation/endpoints";

export const matchFilterParsers = {
  tab: parseAsStringLiteral(["proposed", "decided"] as const).withDefault("proposed"),
  band: parseAsStringLiteral(["high", "medium", "low"] as const),
  from: parseAsBusinessDate,
  to: parseAsBusinessDate,
  page: parseAsPage,
};
export const loadMatchFilters = createLoader(matchFilterParsers);

export interface MatchReviewFilters {
  tab: "proposed" | "decided";
  band?: "high" | "medium" | "low";
  from_date?: string;
  to_date?: string;
  page?: number;
}

/** The review filters of the URL state. */
export function reviewFilters(f: {
  tab: "proposed" | "decided";
  band: "high" | "medium" | "low" | null;
  from: string | null;
  to: string | null;
  page: number | null;
}): MatchReviewFilters {
  return {
    tab: f.tab,
    ...(f.band ? { band: f.band } : {}),
    ...(f.from ? { from_date: f.from } : {}),
    ...(f.to ? { to_date: f.to } : {}),
    ...(f.page && f.page > 1 ? { page: f.page } : {}),
  };
}

/**
 * The reconciliation review's React Query options, keyed by its endpoint (docs/architecture.md#the-bff-declared-per-area);
 * `keys()` reach every reconciliation read (review, unmatched, candidates): what a decision or a manual match refreshes.
 */
export const matchQueries = {
  keys: () => [endpointKey(e.review), endpointKey(e.unmatched), endpointKey(e.candidates)] as const,
  review: (filters: MatchReviewFilters) => queryOptions(endpointQuery(e.review, { query: { ...filters } })),
};

/** Refetches every reconciliation read (`matchQueries.keys()`), after a decision, an undo or a manual match. */
export function invalidateReconciliation(qc: QueryClient): Promise<void[]> {
  return Promise.all(matchQueries.keys().map((queryKey) => qc.invalidateQueries({ queryKey })));
}
