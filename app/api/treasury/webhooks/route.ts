import { WebhookCreate } from "@treasury/contract";
import { PagingQuery } from "@/lib/bff/inputs";
import { listWebhooks } from "@/lib/bff/queries/webhooks";
import { withUser } from "@/lib/bff/route";
import { treasury } from "@/lib/server/treasury";

/** GET /webhooks (admin) */
export const GET = withUser({ permission: "webhooks.manage", company: "none", query: PagingQuery }, (ctx) =>
  listWebhooks(ctx, ctx.query),
);

/** POST /webhooks — 201 with the signing secret, shown once to the admin's browser by design (admin). */
export const POST = withUser(
  {
    permission: "webhooks.manage",
    company: "none",
    body: WebhookCreate,
    status: 201,
    audit: { action: "webhook.create", objectType: "webhook_endpoint" },
  },
  (ctx) => treasury().createWebhook(ctx.write, ctx.body),
);
