/** Query options of a batch's risk signals and a payee's payment history (one module per resource). */
import { queryOptions } from "@tanstack/react-query";
import { endpointQuery } from "@/components/data/bff-fetch";
import { paymentsEndpoints } from "@/lib/bff/areas/payments/endpoints";

export const riskQueries = {
  /** The signals of batch `batchId` in company `companyId` (an approver's queue spans companies). */
  batch: (companyId: string, batchId: string) =>
    queryOptions({
      ...endpointQuery(paymentsEndpoints.risk, { params: { id: batchId }, query: { company_id: companyId } }),
      // The server caches them for 30 s; re-reading sooner brings nothing new.
      staleTime: 30_000,
    }),
  /** The company's last 12 payments to `iban`. */
  payee: (companyId: string, batchId: string, iban: string) =>
    queryOptions({
      ...endpointQuery(paymentsEndpoints.payeeHistory, {
        params: { id: batchId },
        query: { iban, company_id: companyId },
      }),
      staleTime: 30_000,
    }),
};
