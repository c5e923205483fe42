/**
 * The webhook retry schedule as wired (docs/architecture.md#webhooks): with the
 * default configuration (scale 1) a failing delivery is retried after 1 min,
 * 5 min, 30 min, 2 h, 6 h, 12 h and 24 h, each ± 20 % jitter, and the 8th
 * failure is final. Other tests scale the schedule to ~0; this one reads the
 * real `next_attempt_at` the worker writes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { DEFAULT_CONFIG, resolveConfig } from "../config";
import * as s from "../db/schema";
import { CLIENTS, IDS, createHarness, insertWebhookEvent, type Harness } from "../test/harness";
import { runWebhooksOnce } from "./delivery";

const MIN = 60_000;
const HOUR = 60 * MIN;
/** The schedule in words, written out here rather than read from the code under test. */
const SCHEDULE_MS = [1 * MIN, 5 * MIN, 30 * MIN, 2 * HOUR, 6 * HOUR, 12 * HOUR, 24 * HOUR];

describe("the worker with the default configuration", () => {
  let h: Harness;
  const deliveryId = "a1000000-0000-4000-8000-000000000001";

  beforeAll(async () => {
    h = await createHarness();
    const db = h.database.db;
    const endpointId = crypto.randomUUID();
    const eventId = crypto.randomUUID();
    const now = new Date().toISOString();
    // Port 9 (discard) on loopback: nothing listens, every attempt fails at once.
    await db.insert(s.webhookEndpoints).values({
      id: endpointId,
      clientId: CLIENTS.fullB.id,
      tenantId: IDS.tenant,
      url: "http://127.0.0.1:9/hook",
      events: ["transaction.created"],
      secret: "whsec_test",
    });
    await insertWebhookEvent(db, eventId, now);
    await db.insert(s.webhookDeliveries).values({
      id: deliveryId,
      eventId,
      endpointId,
      status: "pending",
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it(
    "waits 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h (±20 %) between attempts; the 8th failure is " + "final",
    async () => {
      const db = h.database.db;
      expect(DEFAULT_CONFIG.webhookRetryScale).toBe(1);
      const config = resolveConfig({ webhookTimeoutMs: 2_000, allowPrivateWebhooks: true });
      for (let attempt = 1; attempt <= 8; attempt++) {
        // Make the delivery due now, as if its wait had passed.
        await db.execute(sql`update webhook_deliveries set next_attempt_at = now() where id = ${deliveryId}::uuid`);
        const before = Date.now();
        const r = await runWebhooksOnce(db, config);
        const after = Date.now();
        expect(r.attempted, `attempt ${attempt}`).toBe(1);
        const [d] = await db.select().from(s.webhookDeliveries).where(eq(s.webhookDeliveries.id, deliveryId));
        expect(d?.attempts).toBe(attempt);
        if (attempt < 8) {
          expect(d?.status).toBe("pending");
          const wait = SCHEDULE_MS[attempt - 1] ?? 0;
          const next = new Date(d?.nextAttemptAt ?? 0).getTime();
          expect(next, `attempt ${attempt}: earliest`).toBeGreaterThanOrEqual(before + wait * 0.8 - 1000);
          expect(next, `attempt ${attempt}: latest`).toBeLessThanOrEqual(after + wait * 1.2 + 1000);
        } else {
          expect(d?.status).toBe("failed");
          expect(d?.nextAttemptAt).toBeNull();
        }
      }
      const attempts = await db
        .select()
        .from(s.webhookDeliveryAttempts)
        .where(eq(s.webhookDeliveryAttempts.deliveryId, deliveryId));
      expect(attempts.map((a) => a.attempt).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    },
  );
});
