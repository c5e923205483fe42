/** Query options and URL state of the unmatched view and its counterparts (manual match). */
import { queryOptions } from "@tanstack/react-query";
import { createLoader, parseAsStringLiteral } from "nuqs/server";
import { AGE_BUCKET_KEYS, UNMATCHED_VIEW_SORTS } from "@/lib/views/unmatched";
import { UNMATCHED_KINDS, type UnmatchedKind } from "@treasury/contract/unmatched";
import { parseAsPage, parseAsSearchText, parseAsUuid } from "@/lib/url-state/parsers";
import { endpointQuery } from "@/components/data/bff-fetch";
import { reconciliationEndpoints as e } from "@/lib/bff/areas/reconciliation/endpoints";

export const unmatchedFilterParsers = {
  kind: parseAsStringLiteral(UNMATCHED_KINDS).withDefault("instruction"),
  age: parseAsStringLiteral(AGE_BUCKET_KEYS),
  company: parseAsUuid,
  q: parseAsSearchText,
  sort: parseAsStringLiteral(UNMATCHED_VIEW_SORTS).withDefault("oldest"),
  page: parseAsPage,
};
export const loadUnmatchedFilters = createLoader(unmatchedFilterParsers);

/** The view's query as the BFF route takes it (defaults left out, so the server's and the browser's keys agree). */
export interface UnmatchedFilters {
  kind: UnmatchedKind;
  age?: string;
  company_id?: string;
  q?: string;
  sort?: string;
  page?: number;
}

/** The filters of the URL state. */
export function unmatchedFilters(f: {
  kind: UnmatchedKind;
  age: string | null;
  company: string | null;
  q: string | null;
  sort: string;
  page: number | null;
}): UnmatchedFilters {
  return {
    kind: f.kind,
    ...(f.age ? { age: f.age } : {}),
    ...(f.company ? { company_id: f.company } : {}),
    ...(f.q ? { q: f.q } : {}),
    ...(f.sort !== "oldest" ? { sort: f.sort } : {}),
    ...(f.page && f.page > 1 ? { page: f.page } : {}),
  };
}

/** What the counterparts of one item are looked up by. */
export interface CandidateFilters {
  for_kind: Exclude<UnmatchedKind, "rejected">;
  company_id: string;
  currency: string;
  amount: string;
  date: string;
  q?: string;
}

// Keyed by their endpoints; `matchQueries.keys()` includes them, so every match decision (and a manual match)
// refreshes these too.
export const unmatchedQueries = {
  page: (filters: UnmatchedFilters) => queryOptions(endpointQuery(e.unmatched, { query: { ...filters } })),
  candidates: (filters: CandidateFilters) => queryOptions(endpointQuery(e.candidates, { query: { ...filters } })),
};
