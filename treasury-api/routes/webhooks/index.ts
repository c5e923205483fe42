/** Webhooks area: wiring of routes to the repository and the delivery worker (spec §4 Webhooks). */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../lib/context";
import { fieldError } from "../../lib/errors";
import { listBody, resolvePaging } from "../../lib/lists";
import { deliverNow } from "../../webhooks/delivery";
import { resolveRefusal, systemResolver, webhookUrlRefusal } from "../../webhooks/target-policy";
import * as r from "./webhooks.routes";
import * as repo from "../../db/repos/webhooks";

function owner(c: Context<AppEnv>): repo.EndpointOwner {
  const caller = c.get("caller");
  if (!caller) throw new Error("the route guard guarantees a caller");
  return { clientId: caller.clientId, tenantId: caller.tenantId };
}

/**
 * Refuses a target the delivery would refuse (DESIGN.md "Webhooks"): not
 * https, or on a loopback / private / link-local / reserved address, by the
 * URL or by what its host name resolves to now. Nothing when `url` is absent.
 * @throws 400 validation_error on `url`.
 */
async function checkTarget(c: Context<AppEnv>, url: string | undefined): Promise<void> {
  if (url === undefined) return;
  const { allowPrivateWebhooks: allow, webhookResolver } = c.get("config");
  const reason = webhookUrlRefusal(url, allow) ?? (await resolveRefusal(url, allow, webhookResolver ?? systemResolver));
  if (reason) throw fieldError("url", reason);
}

export function registerWebhookRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(r.listWebhooksRoute, async (c) => {
    const paging = resolvePaging(c, c.req.valid("query"));
    const { rows, count } = await repo.listEndpoints(c.get("db"), owner(c), paging);
    return c.json(listBody(c, paging, rows, count), 200);
  });
  api.openapi(r.createWebhookRoute, async (c) => {
    const body = c.req.valid("json");
    await checkTarget(c, body.url);
    return c.json(await repo.createEndpoint(c.get("db"), owner(c), body, c.get("config").secretKey), 201);
  });
  api.openapi(r.getWebhookRoute, async (c) =>
    c.json(repo.toEndpoint(await repo.getEndpointRow(c.get("db"), owner(c), c.req.valid("param").id)), 200),
  );
  api.openapi(r.patchWebhookRoute, async (c) => {
    const body = c.req.valid("json");
    await checkTarget(c, body.url);
    return c.json(
      await repo.patchEndpoint(c.get("db"), owner(c), c.req.valid("param").id, body, c.get("config").secretKey),
      200,
    );
  });
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
