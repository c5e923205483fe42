import { DeliveriesQuery } from "@/lib/bff/inputs";
import { clientFilters, toBffPage } from "@/lib/bff/queries/page";
import { IdParams, withUser } from "@/lib/bff/route";
import { treasury } from "@/lib/server/treasury";

/** GET /webhooks/{id}/deliveries (extension) */
export const GET = withUser(
  { permission: "webhooks.manage", params: IdParams, company: "none", query: DeliveriesQuery },
  async (ctx) => toBffPage(await treasury().listWebhookDeliveries(ctx.read, ctx.params.id, clientFilters(ctx.query))),
);
