/** Webhooks area: wiring of routes to the repository and the delivery worker (spec §4 Webhooks). */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../lib/context";
import { listBody, resolvePaging } from "../../lib/lists";
import { deliverNow } from "../../webhooks/delivery";
import * as r from "./webhooks.routes";
import * as repo from "./webhooks.repo";

function owner(c: Context<AppEnv>): repo.EndpointOwner {
  const caller = c.get("caller");
  if (!caller) throw new Error("the route guard guarantees a caller");
  return { clientId: caller.clientId, tenantId: caller.tenantId };
}

export function registerWebhookRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(r.listWebhooksRoute, async (c) => {
    const paging = resolvePaging(c, c.req.valid("query"));
    const { rows, count } = await repo.listEndpoints(c.get("db"), owner(c), paging);
    return c.json(listBody(c, paging, rows, count), 200);
  });
  api.openapi(r.createWebhookRoute, async (c) => c.json(await repo.createEndpoint(c.get("db"), owner(c), c.req.valid("json")), 201));
  api.openapi(r.getWebhookRoute, async (c) => c.json(repo.toEndpoint(await repo.getEndpointRow(c.get("db"), owner(c), c.req.valid("param").id)), 200));
  api.openapi(r.patchWebhookRoute, async (c) => c.json(await repo.patchEndpoint(c.get("db"), owner(c), c.req.valid("param").id, c.req.valid("json")), 200));
  api.openapi(r.deleteWebhookRoute, async (c) => {
    await repo.deleteEndpoint(c.get("db"), owner(c), c.req.valid("param").id);
    return c.body(null, 204);
  });
  api.openapi(r.listDeliveriesRoute, async (c) => {
    const q = c.req.valid("query");
    const endpoint = await repo.getEndpointRow(c.get("db"), owner(c), c.req.valid("param").id);
    const paging = resolvePaging(c, q);
    const { rows, count } = await repo.listDeliveries(c.get("db"), owner(c), endpoint.id, { status: q.status }, paging);
    return c.json(listBody(c, paging, rows, count), 200);
  });
  api.openapi(r.testWebhookRoute, async (c) => {
    const db = c.get("db");
    const endpoint = await repo.getEndpointRow(db, owner(c), c.req.valid("param").id);
    const deliveryId = await repo.createTestDelivery(db, endpoint);
    await deliverNow(db, c.get("config"), deliveryId);
    return c.json(await repo.getDelivery(db, owner(c), deliveryId), 200);
  });
}
