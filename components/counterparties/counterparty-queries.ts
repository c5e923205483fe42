/** URL state and query options of the counterparties page (server and client alike). */
import { queryOptions } from "@tanstack/react-query";
import { createLoader, parseAsString, parseAsStringLiteral } from "nuqs/server";
import type { QueryClient } from "@tanstack/react-query";
import { COUNTERPARTY_STATUS_VALUES } from "@/lib/views/counterparties";
import { endpointQuery } from "@/components/data/bff-fetch";
import { counterpartiesEndpoints as e } from "@/lib/bff/areas/counterparties/endpoints";
import { endpointKey } from "@/lib/bff/endpoint";

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
  /** Refetches every counterparty read (the lists and the details) after a write. */
  invalidateAll: (qc: QueryClient) =>
    Promise.all([e.list, e.get, e.history].map((x) => qc.invalidateQueries({ queryKey: endpointKey(x) }))),
  /** The selected company's counterparties matching the filters (the company is part of the key). */
  list: (companyId: string, f: CounterpartyFilters) =>
    queryOptions({
      ...endpointQuery(e.list, {
        query: { search: f.search, status: f.status, limit: COUNTERPARTY_LIST_LIMIT },
        scope: { company: companyId },
      }),
      placeholderData: (prev) => prev,
    }),
  /** One counterparty with its history. */
  detail: (id: string) => queryOptions(endpointQuery(e.get, { params: { id } })),
};
