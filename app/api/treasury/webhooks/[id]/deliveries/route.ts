import { DeliveriesQuery } from "@/lib/bff/inputs";
import { IdParams, withUser } from "@/lib/bff/route";
import { listWebhookDeliveries } from "@/lib/bff/queries/webhooks";

/** GET /webhooks/{id}/deliveries (extension) */
export const GET = withUser(
  { permission: "webhooks.manage", params: IdParams, company: "none", query: DeliveriesQuery },
  (ctx) => listWebhookDeliveries(ctx, ctx.params.id, ctx.query),
);
