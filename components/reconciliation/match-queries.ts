/** Query options and URL state of the reconciliation review (one module per resource). */
import { queryOptions } from "@tanstack/react-query";
import { createLoader, parseAsStringLiteral } from "nuqs/server";
import type { MatchReviewPage } from "@/lib/views/reconciliation";
import { parseAsBusinessDate, parseAsPage } from "@/lib/url-state/parsers";
import { bffFetch, toQueryString } from "@/components/data/bff-fetch";

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

export const matchQueries = {
  all: () => ["reconciliation"] as const,
  review: (filters: MatchReviewFilters) =>
    queryOptions({
      queryKey: [...matchQueries.all(), "review", filters] as const,
      queryFn: ({ signal }) =>
        bffFetch<MatchReviewPage>(`/api/treasury/reconciliation/review${toQueryString({ ...filters })}`, {
          signal,
        }),
    }),
};
