/** Webhooks area: each route declaration wired to its handler. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/context";
import * as h from "./webhooks.handlers";
import * as r from "./webhooks.routes";

export function registerWebhookRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(r.listWebhooksRoute, h.listWebhooks);
  api.openapi(r.createWebhookRoute, h.createWebhook);
  api.openapi(r.getWebhookRoute, h.getWebhook);
  api.openapi(r.patchWebhookRoute, h.patchWebhook);
  api.openapi(r.deleteWebhookRoute, h.deleteWebhook);
  api.openapi(r.listDeliveriesRoute, h.listDeliveries);
  api.openapi(r.testWebhookRoute, h.testWebhook);
}
