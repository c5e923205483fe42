/**
 * Query options per resource (STYLE.md: one module, used for the server
 * prefetch, the client hooks and invalidation; no literal keys elsewhere).
 * Keys start with the resource and the company, so switching company never
 * shows another company's cached rows.
 */
import { queryOptions } from "@tanstack/react-query";
import type { Account, Company, Koncern, Transaction } from "@/lib/contract";
import type { BffPage } from "@/lib/bff/inputs";
import type { AuditEventView } from "@/lib/bff/audit-view";
import { bffFetch, toQueryString } from "./bff-fetch";

export interface TransactionListFilters {
  page?: number;
  from_date?: string;
  to_date?: string;
  direction?: "credit" | "debit";
  account_id?: string;
}

export const accountQueries = {
  all: () => ["accounts"] as const,
  list: (companyId: string, filters: { page?: number } = {}) =>
    queryOptions({
      queryKey: [...accountQueries.all(), companyId, "list", filters] as const,
      queryFn: ({ signal }) =>
        bffFetch<BffPage<Account>>(`/api/treasury/accounts${toQueryString({ page: filters.page, page_size: 200 })}`, {
          signal,
        }),
    }),
};

export const transactionQueries = {
  all: () => ["transactions"] as const,
  list: (companyId: string, filters: TransactionListFilters = {}) =>
    queryOptions({
      queryKey: [...transactionQueries.all(), companyId, "list", filters] as const,
      queryFn: ({ signal }) =>
        bffFetch<BffPage<Transaction>>(`/api/treasury/transactions${toQueryString({ ...filters, page_size: 50 })}`, {
          signal,
        }),
    }),
};

export const organizationQueries = {
  companies: () =>
    queryOptions({
      queryKey: ["companies"] as const,
      queryFn: ({ signal }) => bffFetch<BffPage<Company>>("/api/treasury/companies", { signal }),
    }),
  koncerner: () =>
    queryOptions({
      queryKey: ["koncerner"] as const,
      queryFn: ({ signal }) => bffFetch<BffPage<Koncern>>("/api/treasury/koncerner", { signal }),
    }),
};

export const auditQueries = {
  list: (filters: { before?: string } = {}) =>
    queryOptions({
      queryKey: ["audit", filters] as const,
      queryFn: ({ signal }) => bffFetch<{ items: AuditEventView[] }>(`/api/audit${toQueryString(filters)}`, { signal }),
    }),
};
