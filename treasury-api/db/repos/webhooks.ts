/**
 * Webhook endpoint repository (docs/treasury-api.md#webhook-endpoints; docs/architecture.md#webhooks).
 * Endpoints belong to an OAuth client and the tenant its token is bound to:
 * every function takes that owner and puts it into every `where`, so another
 * client's endpoint is 404.
 */
import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type {
  WebhookCreate,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEventType,
  WebhookPatch,
} from "@treasury/contract/webhooks";
import { WEBHOOK_TEST_EVENT_TYPE } from "@treasury/contract/webhooks";
import type { Db } from "../client";
import { webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints, webhookEvents } from "../schema";
import { ApiError, notFound } from "../../lib/errors";
import { isoTimestamp } from "../../lib/format";
import { newId } from "../../lib/secrets";
import { isSealed, sealSecret } from "../../lib/secret-box";
import { generateWebhookSecret } from "../../webhooks/signing";

/** Who owns endpoints: the OAuth client (internal id) within the token's tenant. */
export interface EndpointOwner {
  clientId: string;
  tenantId: string;
}

/** How long the previous secret keeps signing after a rotation (docs/architecture.md#webhooks: 24 hours). */
export const PREVIOUS_SECRET_TTL_MS = 24 * 3600 * 1000;

type EndpointRow = typeof webhookEndpoints.$inferSelect;

export function toEndpoint(r: EndpointRow): WebhookEndpoint {
  return {
    id: r.id,
    url: r.url,
    active: r.active,
    events: r.events as WebhookEventType[],
    created_at: isoTimestamp(r.createdAt),
  };
}

const ownerWhere = (o: EndpointOwner): SQL[] => [
  eq(webhookEndpoints.clientId, o.clientId),
  eq(webhookEndpoints.tenantId, o.tenantId),
];

/**
 * `events` and `event_types` mean the same; when both are sent they must agree.
 * Returns the kinds deduplicated in their first order, or undefined when neither was sent.
 * @throws 400 when both are sent with different kinds.
 */
export function eventKinds(b: {
  events?: WebhookEventType[];
  event_types?: WebhookEventType[];
}): WebhookEventType[] | undefined {
  if (b.events && b.event_types) {
    const a = new Set(b.events);
    const c = new Set(b.event_types);
    if (a.size !== c.size || [...a].some((k) => !c.has(k))) {
      throw new ApiError("validation_error", "events and event_types name different event kinds; send one of them", {
        errors: { event_types: ["must equal events when both are sent"] },
      });
    }
  }
  const kinds = b.events ?? b.event_types;
  return kinds ? [...new Set(kinds)] : undefined;
}

export async function listEndpoints(
  db: Db,
  o: EndpointOwner,
  page: { limit: number; offset: number },
): Promise<{ rows: WebhookEndpoint[]; count: number }> {
  const where = and(...ownerWhere(o));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(webhookEndpoints)
      .where(where)
      .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(webhookEndpoints)
      .where(where),
  ]);
  return { rows: rows.map(toEndpoint), count: Number(total?.n ?? 0) };
}

export async function getEndpointRow(db: Db, o: EndpointOwner, id: string): Promise<EndpointRow> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), ...ownerWhere(o)));
  if (!row) throw notFound("Webhook endpoint");
  return row;
}

/**
 * Creates an endpoint; the answer carries the new secret (shown once), the row holds it encrypted with `secretKey`
 * (lib/secret-box.ts).
 */
export async function createEndpoint(
  db: Db,
  o: EndpointOwner,
  body: WebhookCreate,
  secretKey: Buffer,
): Promise<WebhookEndpoint & { secret: string }> {
  const events = eventKinds(body) ?? [];
  const secret = generateWebhookSecret();
  const [row] = await db
    .insert(webhookEndpoints)
    .values({
      id: newId(),
      clientId: o.clientId,
      tenantId: o.tenantId,
      url: body.url,
      active: body.active,
      events,
      secret: sealSecret(secretKey, secret),
    })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return { ...toEndpoint(row), secret };
}

/**
 * Updates url / active / events; `rotate_secret: true` moves the current secret
 * to `previous_secret` (valid 24 h more) and returns the new one.
 * @throws 400 for an empty patch; 404 for another client's endpoint.
 */
export async function patchEndpoint(
  db: Db,
  o: EndpointOwner,
  id: string,
  body: WebhookPatch,
  secretKey: Buffer,
): Promise<WebhookEndpoint & { secret?: string }> {
  const events = eventKinds(body);
  if (body.url === undefined && body.active === undefined && events === undefined && body.rotate_secret === undefined) {
    throw new ApiError("validation_error", "Send at least one of url, active, events (event_types), rotate_secret", {
      errors: { body: ["has no field to change"] },
    });
  }
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), ...ownerWhere(o)))
      .for("update");
    if (!current) throw notFound("Webhook endpoint");
    const now = new Date();
    const set: Partial<typeof webhookEndpoints.$inferInsert> = { updatedAt: now.toISOString() };
    if (body.url !== undefined) set.url = body.url;
    if (body.active !== undefined) set.active = body.active;
    if (events !== undefined) set.events = events;
    let secret: string | undefined;
    if (body.rotate_secret) {
      secret = generateWebhookSecret();
      set.secret = sealSecret(secretKey, secret);
      set.previousSecret = isSealed(current.secret) ? current.secret : sealSecret(secretKey, current.secret);
      set.previousSecretExpiresAt = new Date(now.getTime() + PREVIOUS_SECRET_TTL_MS).toISOString();
    }
    const [row] = await tx.update(webhookEndpoints).set(set).where(eq(webhookEndpoints.id, id)).returning();
    if (!row) throw notFound("Webhook endpoint");
    return secret ? { ...toEndpoint(row), secret } : toEndpoint(row);
  });
}

/** Deletes the endpoint with its deliveries and their attempts. */
export async function deleteEndpoint(db: Db, o: EndpointOwner, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), ...ownerWhere(o)))
      .for("update");
    if (!row) throw notFound("Webhook endpoint");
    const deliveries = tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, id));
    await tx.delete(webhookDeliveryAttempts).where(inArray(webhookDeliveryAttempts.deliveryId, deliveries));
    await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id));
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  });
}

/**
 * The delivery log of an endpoint of the owner, newest first, each with its
 * attempts; another client's endpoint id yields nothing.
 */
export async function listDeliveries(
  db: Db,
  o: EndpointOwner,
  endpointId: string,
  f: { status?: "pending" | "delivered" | "failed" },
  page: { limit: number; offset: number },
): Promise<{ rows: WebhookDelivery[]; count: number }> {
  const conds: SQL[] = [eq(webhookDeliveries.endpointId, endpointId), ...ownerWhere(o)];
  if (f.status) conds.push(eq(webhookDeliveries.status, f.status));
  const where = and(...conds);
  const [rows, [total]] = await Promise.all([
    db
      .select({ d: webhookDeliveries, type: webhookEvents.type })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(where),
  ]);
  return { rows: await withAttempts(db, rows), count: Number(total?.n ?? 0) };
}

type DeliveryJoin = { d: typeof webhookDeliveries.$inferSelect; type: string };

async function withAttempts(db: Db, rows: DeliveryJoin[]): Promise<WebhookDelivery[]> {
  const ids = rows.map((r) => r.d.id);
  const attempts = ids.length
    ? await db
        .select()
        .from(webhookDeliveryAttempts)
        .where(inArray(webhookDeliveryAttempts.deliveryId, ids))
        .orderBy(asc(webhookDeliveryAttempts.attempt))
    : [];
  return rows.map(({ d, type }) => ({
    id: d.id,
    event_id: d.eventId,
    event_type: type,
    status: d.status,
    attempts: d.attempts,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    next_attempt_at: d.nextAttemptAt ? isoTimestamp(d.nextAttemptAt) : null,
    created_at: isoTimestamp(d.createdAt),
    delivered_at: d.deliveredAt ? isoTimestamp(d.deliveredAt) : null,
    attempt_log: attempts
      .filter((a) => a.deliveryId === d.id)
      .map((a) => ({
        attempt: a.attempt,
        status_code: a.statusCode,
        error: a.error,
        duration_ms: a.durationMs,
        attempted_at: isoTimestamp(a.attemptedAt),
      })),
  }));
}

/** One delivery to an endpoint of the owner, with its attempts, else 404. */
export async function getDelivery(db: Db, o: EndpointOwner, deliveryId: string): Promise<WebhookDelivery> {
  const rows = await db
    .select({ d: webhookDeliveries, type: webhookEvents.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.id, deliveryId), ...ownerWhere(o)));
  const [out] = await withAttempts(db, rows);
  if (!out) throw notFound("Webhook delivery");
  return out;
}

/**
 * Creates a `webhook.test` event addressed to this endpoint only (already
 * dispatched, so the fan-out never sends it elsewhere) and its delivery.
 * Returns the delivery id.
 */
export async function createTestDelivery(db: Db, endpoint: EndpointRow): Promise<string> {
  const eventId = newId();
  const deliveryId = newId();
  const now = new Date().toISOString();
  const payload = {
    id: eventId,
    type: WEBHOOK_TEST_EVENT_TYPE,
    created_at: now,
    data: { endpoint_id: endpoint.id, message: "Test event from the Treasury API" },
  };
  await db.transaction(async (tx) => {
    await tx.insert(webhookEvents).values({
      id: eventId,
      tenantId: endpoint.tenantId,
      companyId: null,
      type: WEBHOOK_TEST_EVENT_TYPE,
      payload,
      dispatchedAt: now,
      createdAt: now,
    });
    // Leased from the start, so the worker leaves it to the request that sends it now.
    const lockedUntil = new Date(Date.now() + 60_000).toISOString();
    await tx.insert(webhookDeliveries).values({
      id: deliveryId,
      eventId,
      endpointId: endpoint.id,
      status: "pending",
      attempts: 0,
      nextAttemptAt: now,
      lockedUntil,
      createdAt: now,
    });
  });
  return deliveryId;
}
