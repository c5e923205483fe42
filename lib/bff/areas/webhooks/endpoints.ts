/**
 * The webhooks area's BFF endpoints (docs/architecture.md#the-bff-declared-per-area): the admin's webhook endpoints
 * of the Treasury API and their deliveries, and the dashboard's own receiver of the API's signed webhooks
 * (docs/users-and-notifications.md#webhooks-from-the-treasury-api). Isomorphic: the browser derives its URLs and
 * query keys from these.
 */
import type { WebhookDelivery, WebhookEndpoint } from "@treasury/contract";
import type { BffPage } from "@/lib/views/bff-page";
import { endpoint } from "../../endpoint";

export const webhooksEndpoints = {
  list: endpoint("GET", "/api/treasury/webhooks").returns<BffPage<WebhookEndpoint>>(),
  create: endpoint("POST", "/api/treasury/webhooks").returns<WebhookEndpoint & { secret: string }>(),
  get: endpoint("GET", "/api/treasury/webhooks/[id]").returns<WebhookEndpoint>(),
  change: endpoint("PATCH", "/api/treasury/webhooks/[id]").returns<WebhookEndpoint & { secret?: string }>(),
  remove: endpoint("DELETE", "/api/treasury/webhooks/[id]"),
  deliveries: endpoint("GET", "/api/treasury/webhooks/[id]/deliveries").returns<BffPage<WebhookDelivery>>(),
  test: endpoint("POST", "/api/treasury/webhooks/[id]/test"),
  receive: endpoint("POST", "/api/webhooks/treasury"),
};
