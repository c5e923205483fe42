/** Query options of the webhook admin (one module per resource). */
import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { endpointQuery } from "@/components/data/bff-fetch";
import { webhooksEndpoints } from "@/lib/bff/areas/webhooks/endpoints";
import { endpointKey } from "@/lib/bff/endpoint";

export const webhookQueries = {
  /** Refetches every webhook read (the list and each open delivery log) after a write. */
  invalidateAll: (qc: QueryClient) =>
    Promise.all([
      qc.invalidateQueries({ queryKey: endpointKey(webhooksEndpoints.list) }),
      qc.invalidateQueries({ queryKey: endpointKey(webhooksEndpoints.deliveries) }),
    ]),
  list: () => queryOptions(endpointQuery(webhooksEndpoints.list, { query: { page_size: 200 } })),
  deliveries: (id: string) =>
    queryOptions({
      ...endpointQuery(webhooksEndpoints.deliveries, { params: { id }, query: { page_size: 50 } }),
      // Retries are scheduled by the API: keep the log fresh while it is open.
      refetchInterval: 5_000,
    }),
};
