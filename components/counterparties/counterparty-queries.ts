/** URL state and query options of the counterparties page (server and client alike). */
import { queryOptions } from "@tanstack/react-query";
import { createLoader, parseAsString, parseAsStringLiteral } from "nuqs/server";
import {
  COUNTERPARTY_STATUS_VALUES,
  type CounterpartyDetailView,
  type CounterpartyView,
} from "@/lib/views/counterparties";
import { bffFetch, toQueryString } from "@/components/data/bff-fetch";

/** Filters in the URL: `q` (part of the name or IBAN) and `status`. */
export const counterpartyFilterParsers = {
  q: parseAsString,
  status: parseAsStringLiteral(COUNTERPARTY_STATUS_VALUES),
};
export const loadCounterpartyFilters = createLoader(counterpartyFilterParsers);

export interface CounterpartyFilters {
  search?: string;
  status?: (typeof COUNTERPARTY_STATUS_VALUES)[number];
}

/** Up to this many counterparties are listed per search (the BFF's default). */
export const COUNTERPARTY_LIST_LIMIT = 200;

export const counterpartyQueries = {
  all: () => ["counterparties"] as const,
  /** The selected company's counterparties matching the filters (the company is part of the key). */
  list: (companyId: string, f: CounterpartyFilters) =>
    queryOptions({
      queryKey: [...counterpartyQueries.all(), "list", companyId, f.search ?? "", f.status ?? ""] as const,
      queryFn: ({ signal }) =>
        bffFetch<{ items: CounterpartyView[] }>(
          `/api/counterparties${toQueryString({ search: f.search, status: f.status, limit: COUNTERPARTY_LIST_LIMIT })}`,
          { signal },
        ),
      placeholderData: (prev) => prev,
    }),
  /** One counterparty with its history. */
  detail: (id: string) =>
    queryOptions({
      queryKey: [...counterpartyQueries.all(), "detail", id] as const,
      queryFn: ({ signal }) => bffFetch<CounterpartyDetailView>(`/api/counterparties/${id}`, { signal }),
    }),
};
