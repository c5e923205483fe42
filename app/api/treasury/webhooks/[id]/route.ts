import { WebhookPatch } from "@/lib/contract";
import { IdParams, withUser } from "@/lib/bff/route";
import { deleteWebhook, getWebhook, patchWebhook } from "@/lib/bff/queries/webhooks";

/** GET /webhooks/{id} */
export const GET = withUser({ permission: "webhooks.manage", params: IdParams, company: "none" }, (ctx) =>
  getWebhook(ctx, ctx.params.id),
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
  (ctx) => patchWebhook(ctx, ctx.params.id, ctx.body),
);

/** DELETE /webhooks/{id} — 204. */
export const DELETE = withUser(
  {
    permission: "webhooks.manage",
    params: IdParams,
    company: "none",
    audit: { action: "webhook.delete", objectType: "webhook_endpoint" },
  },
  (ctx) => deleteWebhook(ctx, ctx.params.id),
);
