/** Query options of the webhook admin (one module per resource). */
import { queryOptions } from "@tanstack/react-query";
import type { WebhookDelivery, WebhookEndpoint } from "@treasury/contract";
import type { BffPage } from "@/lib/views/bff-page";
import { bffFetch } from "@/components/data/bff-fetch";

export const webhookQueries = {
  all: () => ["webhooks"] as const,
  list: () =>
    queryOptions({
      queryKey: [...webhookQueries.all(), "list"] as const,
      queryFn: ({ signal }) => bffFetch<BffPage<WebhookEndpoint>>("/api/treasury/webhooks?page_size=200", { signal }),
    }),
  deliveries: (id: string) =>
    queryOptions({
      queryKey: [...webhookQueries.all(), "deliveries", id] as const,
      queryFn: ({ signal }) =>
        bffFetch<BffPage<WebhookDelivery>>(`/api/treasury/webhooks/${id}/deliveries?page_size=50`, { signal }),
      // Retries are scheduled by the API: keep the log fresh while it is open.
      refetchInterval: 5_000,
    }),
};
