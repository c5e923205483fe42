import { WebhookPatch } from "@treasury/contract";
import { IdParams, withUser } from "@/lib/bff/route";
import { treasury } from "@/lib/server/treasury";

/** GET /webhooks/{id} */
export const GET = withUser({ permission: "webhooks.manage", params: IdParams, company: "none" }, (ctx) =>
  treasury().getWebhook(ctx.read, ctx.params.id),
);

/** PATCH /webhooks/{id} — with rotate_secret the answer carries the new secret. */
export const PATCH = withUser(
  {
    permission: "webhooks.manage",
    params: IdParams,
    company: "none",
    body: WebhookPatch,
    audit: { action: "webhook.update", objectType: "webhook_endpoint" },
  },
  (ctx) => treasury().patchWebhook(ctx.write, ctx.params.id, ctx.body),
);

/** DELETE /webhooks/{id} — 204. */
export const DELETE = withUser(
  {
    permission: "webhooks.manage",
    params: IdParams,
    company: "none",
    audit: { action: "webhook.delete", objectType: "webhook_endpoint" },
  },
  async (ctx) => {
    await treasury().deleteWebhook(ctx.write, ctx.params.id);
  },
);
