/**
 * Demo webhook data: one registered endpoint that is
 * inactive, owned by the first Form B demo client, subscribed to every event
 * kind. Inactive because nothing listens at its loopback URL on a fresh
 * machine; an admin can point it at a receiver and switch it on (PATCH), or
 * try it with POST /webhooks/{id}/test. Its secret is random and never shown
 * (rotate it to get one).
 */
import { WEBHOOK_EVENT_TYPES } from "@treasury/contract/webhooks";
import type { Database } from "../db/client";
import { webhookEndpoints } from "../db/schema";
import { generateWebhookSecret } from "../webhooks/signing";
import { registerSeedStep, type DemoFixtures } from "./demo";
import { stableUuid } from "./prng";

/** Where the demo endpoint points (a receiver the user may start on this port). */
export const DEMO_WEBHOOK_URL = "http://127.0.0.1:4020/webhooks/treasury";

/** Inserts the inactive demo endpoint; returns its id, or null when there is no Form B client. */
export async function seedWebhooks(
  database: Database,
  fixtures: Pick<DemoFixtures, "clients" | "seed">,
): Promise<string | null> {
  const client =
    fixtures.clients.find((c) => c.form === "B" && c.allowed_scopes.includes("admin:public_api")) ??
    fixtures.clients.find((c) => c.form === "B");
  if (!client) return null;
  const id = stableUuid(fixtures.seed, "webhook-endpoint:demo");
  await database.db
    .insert(webhookEndpoints)
    .values({
      id,
      clientId: client.id,
      tenantId: client.tenant_id,
      url: DEMO_WEBHOOK_URL,
      active: false,
      events: [...WEBHOOK_EVENT_TYPES],
      secret: generateWebhookSecret(),
    })
    .onConflictDoNothing();
  return id;
}

registerSeedStep("webhooks", async (database, fixtures) => {
  await seedWebhooks(database, fixtures);
});
