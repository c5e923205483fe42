/**
 * The webhooks area's BFF routes (docs/architecture.md#the-bff-declared-per-area), declared against ./endpoints.ts:
 * the admin's webhook endpoints of the Treasury API (through the API) and the receiver of its signed webhooks, which
 * takes no session (docs/users-and-notifications.md#webhooks-from-the-treasury-api).
 */
import "server-only";
import type { NextRequest } from "next/server";
import { WebhookCreate, WebhookPatch } from "@treasury/contract";
import { EVENT_ID_HEADER, SIGNATURE_HEADER } from "@treasury/contract/webhook-signing";
import { DeliveriesQuery, PagingQuery } from "@/lib/bff/inputs";
import { listWebhooks } from "@/lib/bff/queries/webhooks";
import { declareOpenRoute, declareRoute, defineRoutes, IdParams } from "@/lib/bff/route";
import { emailEnabled, kickOutbox, publicBaseUrl } from "@/lib/notify/runtime";
import { receiveTreasuryWebhook } from "@/lib/notify/treasury-webhooks";
import { getConfig } from "@/lib/server/config";
import { dashboardDb } from "@/lib/server/db";
import { logger } from "@/lib/server/log";
import { treasury } from "@/lib/server/treasury";
import { apiPageById, readById, readByQuery, type ReadAccess } from "../read-routes";
import { webhooksEndpoints } from "./endpoints";

/** Largest delivery body accepted (bytes); the API's events are a few kilobytes. */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * POST /api/webhooks/treasury — the receiver of the Treasury API's signed webhooks
 * (docs/users-and-notifications.md#webhooks-from-the-treasury-api). No session: the `X-Service-Signature` HMAC with
 * `TREASURY_WEBHOOK_SECRET` is the authentication. 503 when that setting is unset; 401 for an absent, bad or stale
 * signature; 413 above 256 KiB; 400 naming the field of a malformed body; 204 for an event of no interest; 200
 * `{ received, duplicate, told }` otherwise. 500 only when the database fails (the API delivers again).
 */
async function receiveRoute(req: NextRequest): Promise<Response> {
  const length = Number(req.headers.get("content-length") ?? "0");
  if (length > MAX_BODY_BYTES) return Response.json({ error: "payload_too_large" }, { status: 413 });
  const rawBody = await req.text();
  if (Buffer.byteLength(rawBody) > MAX_BODY_BYTES)
    return Response.json({ error: "payload_too_large" }, { status: 413 });
  try {
    const answer = await receiveTreasuryWebhook(
      { rawBody, signature: req.headers.get(SIGNATURE_HEADER), eventId: req.headers.get(EVENT_ID_HEADER) },
      {
        secrets: getConfig().TREASURY_WEBHOOK_SECRET,
        db: await dashboardDb(),
        email: emailEnabled(),
        baseUrl: publicBaseUrl(req.nextUrl.origin),
      },
    );
    if (answer.status === 401) logger.warn({ requestId: req.headers.get("x-request-id") }, "webhook: bad signature");
    if (answer.emails) void kickOutbox();
    return answer.body === null ? new Response(null, { status: answer.status }) : Response.json(answer.body, answer);
  } catch (err) {
    logger.error({ err }, "webhook: not handled");
    return Response.json(
      { error: "internal_error", message: "The event was not recorded; deliver it again." },
      { status: 500 },
    );
  }
}

/** The admin's reads of the API's webhook endpoints (`webhooks.manage`, not company-scoped). */
const admin: ReadAccess = { permission: "webhooks.manage", company: "none" };

export const webhooksRoutes = defineRoutes(webhooksEndpoints, {
  /** GET /webhooks (admin) */
  list: readByQuery(webhooksEndpoints.list, { ...admin, query: PagingQuery }, listWebhooks),

  /** POST /webhooks — 201 with the signing secret, shown once to the admin's browser by design (admin). */
  create: declareRoute(
    webhooksEndpoints.create,
    {
      permission: "webhooks.manage",
      company: "none",
      body: WebhookCreate,
      status: 201,
      audit: { action: "webhook.create", objectType: "webhook_endpoint" },
    },
    (ctx) => treasury().createWebhook(ctx.write, ctx.body),
  ),

  /** GET /webhooks/{id} */
  get: readById(webhooksEndpoints.get, admin, (ctx, id) => treasury().getWebhook(ctx.read, id)),

  /** PATCH /webhooks/{id} — with rotate_secret the answer carries the new secret. */
  change: declareRoute(
    webhooksEndpoints.change,
    {
      permission: "webhooks.manage",
      params: IdParams,
      company: "none",
      body: WebhookPatch,
      audit: { action: "webhook.update", objectType: "webhook_endpoint" },
    },
    (ctx) => treasury().patchWebhook(ctx.write, ctx.params.id, ctx.body),
  ),

  /** DELETE /webhooks/{id} — 204. */
  remove: declareRoute(
    webhooksEndpoints.remove,
    {
      permission: "webhooks.manage",
      params: IdParams,
      company: "none",
      audit: { action: "webhook.delete", objectType: "webhook_endpoint" },
    },
    async (ctx) => {
      await treasury().deleteWebhook(ctx.write, ctx.params.id);
    },
  ),

  /** GET /webhooks/{id}/deliveries (extension) */
  deliveries: apiPageById(webhooksEndpoints.deliveries, { ...admin, query: DeliveriesQuery }, (r, id, f) =>
    treasury().listWebhookDeliveries(r, id, f),
  ),

  /** POST /webhooks/{id}/test (extension) — a signed test delivery now; audited on the endpoint, not the delivery. */
  test: declareRoute(
    webhooksEndpoints.test,
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
  ),

  receive: declareOpenRoute(webhooksEndpoints.receive, receiveRoute),
});
