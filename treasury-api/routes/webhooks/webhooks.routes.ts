/**
 * Webhook endpoint routes (docs/treasury-api.md#webhook-endpoints, scope admin:public_api;
 * docs/architecture.md#webhooks): list / create / detail / PATCH (with `rotate_secret`) / DELETE,
 * plus the extensions GET /webhooks/{id}/deliveries and POST /webhooks/{id}/test.
 * Endpoints belong to the calling OAuth client; not company-scoped.
 */
import { z } from "zod";
import {
  WebhookCreate,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookPatch,
} from "@treasury/contract/webhooks";
import { idParams, json } from "../../lib/openapi";
import { DeliveryListQuery } from "@treasury/contract/list-queries";
import { defineRoute } from "../define-route";
import { listResponse, pagingQuery } from "../../lib/lists";

const secretDoc =
  "The signing secret (whsec_ + base64 of 32 random bytes) is returned only here; it is never shown again.";

export const listWebhooksRoute = defineRoute({
  method: "get",
  path: "/webhooks",
  tags: ["Webhooks"],
  summary: "List webhook endpoints",
  description: "The endpoints of the calling OAuth client, oldest first. Secrets are never listed.",
  scope: "admin:public_api",
  company: "none",
  request: { query: z.object(pagingQuery).strict() },
  responses: { 200: listResponse(WebhookEndpoint, "Webhook endpoints") },
});

export const createWebhookRoute = defineRoute({
  method: "post",
  path: "/webhooks",
  tags: ["Webhooks"],
  summary: "Register a webhook endpoint",
  description:
    `url must be https on a public address (400 on url otherwise; see Webhooks in the API description; ` +
    `development servers also allow http and private addresses). events (or, as in the Form B example, event_types ` +
    `— ` +
    `same meaning) lists the event kinds: transaction.created, payment.status.updated, reconciliation.match.created, ` +
    `reconciliation.match.updated; unknown kinds are 400. ${secretDoc}`,
  scope: "admin:public_api",
  company: "none",
  request: { body: { required: true, content: { "application/json": { schema: WebhookCreate } } } },
  responses: { 201: json(WebhookEndpointWithSecret, "Created; includes the secret once") },
});

export const getWebhookRoute = defineRoute({
  method: "get",
  path: "/webhooks/{id}",
  tags: ["Webhooks"],
  summary: "Get a webhook endpoint",
  scope: "admin:public_api",
  company: "none",
  request: { params: idParams },
  responses: { 200: json(WebhookEndpoint, "The endpoint (without its secret)") },
});

export const patchWebhookRoute = defineRoute({
  method: "patch",
  path: "/webhooks/{id}",
  tags: ["Webhooks"],
  summary: "Update a webhook endpoint or rotate its secret",
  description:
    `Any subset of url, active, events / event_types; a new url is checked like at creation. Extension: ` +
    `rotate_secret: true issues a new secret (returned in this response only); the old one stays valid for 24 hours ` +
    `and deliveries carry one v1= signature per valid secret. ${secretDoc}`,
  scope: "admin:public_api",
  company: "none",
  request: { params: idParams, body: { required: true, content: { "application/json": { schema: WebhookPatch } } } },
  responses: {
    200: json(
      z.union([WebhookEndpointWithSecret, WebhookEndpoint]),
      "The updated endpoint; with secret after a rotation",
    ),
  },
});

export const deleteWebhookRoute = defineRoute({
  method: "delete",
  path: "/webhooks/{id}",
  tags: ["Webhooks"],
  summary: "Delete a webhook endpoint",
  description: "Removes the endpoint with its delivery log; nothing more is delivered to it.",
  scope: "admin:public_api",
  company: "none",
  request: { params: idParams },
  responses: { 204: { description: "Deleted, no body" } },
});

export const listDeliveriesRoute = defineRoute({
  method: "get",
  path: "/webhooks/{id}/deliveries",
  tags: ["Webhooks"],
  summary: "Delivery log of a webhook endpoint (extension)",
  description:
    "Newest first. Each delivery lists every attempt (status code or error, duration). Filter status: pending, " +
    "delivered, failed.",
  scope: "admin:public_api",
  company: "none",
  request: {
    params: idParams,
    query: z.object({ ...pagingQuery, ...DeliveryListQuery.shape }).strict(),
  },
  responses: { 200: listResponse(WebhookDelivery, "Deliveries") },
});

export const testWebhookRoute = defineRoute({
  method: "post",
  path: "/webhooks/{id}/test",
  tags: ["Webhooks"],
  summary: "Send a signed test event (extension)",
  description:
    "Sends one event of type webhook.test ({ endpoint_id, message }) to the endpoint right away, signed like every " +
    "delivery, and answers with the delivery after that attempt. A failed test is retried on the normal schedule. " +
    "No body is needed. A target the policy refuses (see Webhooks in the API description) is not contacted; its " +
    'attempt records only the error "target not allowed".',
  scope: "admin:public_api",
  company: "none",
  request: { params: idParams },
  responses: { 200: json(WebhookDelivery, "The delivery after its first attempt") },
});
