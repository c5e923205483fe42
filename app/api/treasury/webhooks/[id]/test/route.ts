import { IdParams, withUser } from "@/lib/bff/route";
import { treasury } from "@/lib/server/treasury";

/** POST /webhooks/{id}/test (extension) — a signed test delivery now; audited on the endpoint, not the delivery. */
export const POST = withUser(
  {
    permission: "webhooks.manage",
    params: IdParams,
    company: "none",
    audit: { action: "webhook.test", objectType: "webhook_endpoint" },
  },
  async (ctx) => {
    const delivery = await treasury().testWebhook(ctx.write, ctx.params.id);
    ctx.audit.objectId = ctx.params.id;
    return delivery;
  },
);
