/** Webhook handlers: the calling client's endpoints, their delivery log and test events. */
import type { Context } from "hono";
import { requireCaller, type AppEnv, type AppRouteHandler } from "../../lib/context";
import { fieldError } from "../../lib/errors";
import { listHandler } from "../../lib/lists";
import { deliverNow } from "../../webhooks/delivery";
import { resolveRefusal, systemResolver, webhookUrlRefusal } from "../../webhooks/target-policy";
import * as repo from "../../db/repos/webhooks";
import * as r from "./webhooks.routes";

/** Endpoints belong to the calling OAuth client within its tenant. */
function owner(c: Context<AppEnv>): repo.EndpointOwner {
  const caller = requireCaller(c);
  return { clientId: caller.clientId, tenantId: caller.tenantId };
}

/**
 * Refuses a target the delivery would refuse: not https, or on a loopback /
 * private / link-local / reserved address, by the URL or by what its host
 * name resolves to now. Nothing when `url` is absent.
 * @throws 400 validation_error on `url`.
 */
async function checkTarget(c: Context<AppEnv>, url: string | undefined): Promise<void> {
  if (url === undefined) return;
  const { allowPrivateWebhooks: allow, webhookResolver } = c.get("config");
  const reason = webhookUrlRefusal(url, allow) ?? (await resolveRefusal(url, allow, webhookResolver ?? systemResolver));
  if (reason) throw fieldError("url", reason);
}

export const listWebhooks = listHandler(r.listWebhooksRoute, {
  load: (c, _q, paging) => repo.listEndpoints(c.get("db"), owner(c), paging),
});

export const createWebhook: AppRouteHandler<typeof r.createWebhookRoute> = async (c) => {
  const body = c.req.valid("json");
  await checkTarget(c, body.url);
  return c.json(await repo.createEndpoint(c.get("db"), owner(c), body, c.get("config").secretKey), 201);
};

export const getWebhook: AppRouteHandler<typeof r.getWebhookRoute> = async (c) =>
  c.json(repo.toEndpoint(await repo.getEndpointRow(c.get("db"), owner(c), c.req.valid("param").id)), 200);

export const patchWebhook: AppRouteHandler<typeof r.patchWebhookRoute> = async (c) => {
  const body = c.req.valid("json");
  await checkTarget(c, body.url);
  return c.json(
    await repo.patchEndpoint(c.get("db"), owner(c), c.req.valid("param").id, body, c.get("config").secretKey),
    200,
  );
};

export const deleteWebhook: AppRouteHandler<typeof r.deleteWebhookRoute> = async (c) => {
  await repo.deleteEndpoint(c.get("db"), owner(c), c.req.valid("param").id);
  return c.body(null, 204);
};

export const listDeliveries = listHandler(r.listDeliveriesRoute, {
  parent: (c) => repo.getEndpointRow(c.get("db"), owner(c), c.req.valid("param").id),
  load: (c, q, paging, endpoint) =>
    repo.listDeliveries(c.get("db"), owner(c), endpoint.id, { status: q.status }, paging),
});

export const testWebhook: AppRouteHandler<typeof r.testWebhookRoute> = async (c) => {
  const db = c.get("db");
  const endpoint = await repo.getEndpointRow(db, owner(c), c.req.valid("param").id);
  const deliveryId = await repo.createTestDelivery(db, endpoint);
  await deliverNow(db, c.get("config"), deliveryId);
  return c.json(await repo.getDelivery(db, owner(c), deliveryId), 200);
};
