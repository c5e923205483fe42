/** Query options of a batch's risk signals and a payee's payment history (one module per resource). */
import { queryOptions } from "@tanstack/react-query";
import type { BatchRisk, PayeePayment } from "@/lib/views/payments";
import { bffFetch, toQueryString } from "@/components/data/bff-fetch";

export const riskQueries = {
  all: () => ["risk"] as const,
  /** The signals of batch `batchId` in company `companyId` (an approver's queue spans companies). */
  batch: (companyId: string, batchId: string) =>
    queryOptions({
      queryKey: [...riskQueries.all(), companyId, batchId] as const,
      queryFn: ({ signal }) =>
        bffFetch<BatchRisk>(
          `/api/treasury/payments/batches/${batchId}/risk${toQueryString({ company_id: companyId })}`,
          {
            signal,
          },
        ),
      // The server caches them for 30 s; re-reading sooner brings nothing new.
      staleTime: 30_000,
    }),
  /** The company's last 12 payments to `iban`. */
  payee: (companyId: string, batchId: string, iban: string) =>
    queryOptions({
      queryKey: [...riskQueries.all(), companyId, "payee", iban] as const,
      queryFn: ({ signal }) =>
        bffFetch<{ iban: string; payments: PayeePayment[] }>(
          `/api/treasury/payments/batches/${batchId}/payee-history${toQueryString({ iban, company_id: companyId })}`,
          { signal },
        ),
      staleTime: 30_000,
    }),
};
