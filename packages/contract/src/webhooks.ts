/** Webhook endpoints and deliveries (docs/treasury-api.md#webhook-endpoints and #webhooks; docs/architecture.md#webhooks). */
import { z } from "zod";
import { IsoDateTime, Uuid, plainString } from "./common";

export const WEBHOOK_EVENT_TYPES = [
  "transaction.created",
  "payment.status.updated",
  "reconciliation.match.created",
  "reconciliation.match.updated",
  // Extension: an account's statement is overdue (docs/bank-files.md "Missing statements"), once per statement.
  "statement.missing",
  // Extension: a bank connection's pull or push failed repeatedly (docs/bank-channels.md "Operations").
  "bank_connection.failed",
] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES, {
  message: `must be one of ${WEBHOOK_EVENT_TYPES.join(", ")}`,
});
export type WebhookEventType = z.infer<typeof WebhookEventType>;

const WebhookUrl = plainString()
  .max(2000, { message: "must be at most 2000 characters" })
  .url({ message: "must be an absolute URL" })
  .refine((u) => /^https?:\/\//i.test(u), { message: "must use http or https" });

export const WebhookEndpoint = z
  .object({
    id: Uuid,
    url: z.string(),
    active: z.boolean(),
    events: z.array(WebhookEventType),
    created_at: IsoDateTime.optional().meta({ description: "Extension" }),
  })
  .meta({ id: "WebhookEndpoint" });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** Create response: includes the signing `secret`, shown once. */
export const WebhookEndpointWithSecret = WebhookEndpoint.extend({ secret: z.string() }).meta({
  id: "WebhookEndpointWithSecret",
});

/** POST /webhooks: `events` or (Form B) `event_types`, same meaning. */
export const WebhookCreate = z
  .object({
    url: WebhookUrl,
    active: z.boolean().default(true),
    events: z.array(WebhookEventType).min(1).max(10).optional(),
    event_types: z.array(WebhookEventType).min(1).max(10).optional(),
  })
  .strict()
  .refine((b) => b.events !== undefined || b.event_types !== undefined, {
    message: "events (or event_types) is required",
    path: ["events"],
  })
  .meta({ id: "WebhookCreate" });
export type WebhookCreate = z.infer<typeof WebhookCreate>;

/** PATCH /webhooks/{id}: any subset; `rotate_secret: true` issues a new secret. */
export const WebhookPatch = z
  .object({
    url: WebhookUrl.optional(),
    active: z.boolean().optional(),
    events: z.array(WebhookEventType).min(1).max(10).optional(),
    event_types: z.array(WebhookEventType).min(1).max(10).optional(),
    rotate_secret: z.boolean().optional(),
  })
  .strict()
  .meta({ id: "WebhookPatch" });
export type WebhookPatch = z.infer<typeof WebhookPatch>;

/** Delivery body (docs/architecture.md#webhooks): `{ id, type, created_at, data }`. */
export const WebhookEvent = z
  .object({ id: Uuid, type: z.string(), created_at: IsoDateTime, data: z.record(z.string(), z.unknown()) })
  .meta({ id: "WebhookEvent" });
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/** Extension: one recorded attempt of a delivery. */
export const WebhookDeliveryAttempt = z
  .object({
    attempt: z.number().int().min(1),
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    duration_ms: z.number().int(),
    attempted_at: IsoDateTime,
  })
  .meta({ id: "WebhookDeliveryAttempt" });
export type WebhookDeliveryAttempt = z.infer<typeof WebhookDeliveryAttempt>;

/** Extension: one row of GET /webhooks/{id}/deliveries (and the answer of POST /webhooks/{id}/test). */
export const WebhookDelivery = z
  .object({
    id: Uuid,
    event_id: Uuid,
    event_type: z.string(),
    status: z.enum(["pending", "delivered", "failed"]),
    attempts: z.number().int(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    next_attempt_at: IsoDateTime.nullable(),
    created_at: IsoDateTime,
    delivered_at: IsoDateTime.nullable(),
    attempt_log: z.array(WebhookDeliveryAttempt).optional(),
  })
  .meta({ id: "WebhookDelivery" });

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
/** The event kind of the signed test event (POST /webhooks/{id}/test); never sent otherwise. */
export const WEBHOOK_TEST_EVENT_TYPE = "webhook.test";
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;
