import { IdParams, withUser } from "@/lib/bff/route";
import { testWebhook } from "@/lib/bff/queries/webhooks";

/** POST /webhooks/{id}/test (extension) — a signed test delivery now. */
export const POST = withUser(
  {
    permission: "webhooks.manage",
    params: IdParams,
    company: "none",
    audit: { action: "webhook.test", objectType: "webhook_endpoint" },
  },
  async (ctx) => {
    const delivery = await testWebhook(ctx, ctx.params.id);
    ctx.audit.objectId = ctx.params.id;
    return delivery;
  },
);
