/**
 * How the dashboard subscribes its webhook receiver to the Treasury API
 * (docs/users-and-notifications.md#webhooks-from-the-treasury-api): one endpoint of the dashboard's OAuth client at
 * `<dashboard>/api/webhooks/treasury` for the event types the receiver turns into notifications. Used by
 * `npm run dev` / `npm start` in demo mode (scripts/launch.ts) and by `npm run webhooks:subscribe`.
 */
import { randomUUID } from "node:crypto";
import { collectAll, type TreasuryClient } from "../treasury-client";

/** The receiver's path in the dashboard. */
export const RECEIVER_PATH = "/api/webhooks/treasury";

/** The event types the receiver acts on (lib/notify/treasury-webhooks.ts). */
export const RECEIVER_EVENTS = ["bank_connection.failed", "statement.missing", "payment.status.updated"] as const;

/**
 * Registers the receiver at `receiverUrl` (absolute, ending in {@link RECEIVER_PATH}), or, when the client already
 * has an endpoint with that URL, makes it active for {@link RECEIVER_EVENTS} and rotates its secret (the old one
 * stays valid 24 hours; the API shows a secret only when it issues one).
 * @returns the endpoint id, its new signing secret (the value of TREASURY_WEBHOOK_SECRET) and whether it is new
 * @throws the Treasury client's errors (e.g. 403 without scope `admin:public_api`, 400 for a URL the API refuses)
 */
export async function subscribeReceiver(
  client: Pick<TreasuryClient, "listWebhooks" | "createWebhook" | "patchWebhook">,
  receiverUrl: string,
): Promise<{ id: string; secret: string; created: boolean }> {
  const existing = (await collectAll(client.listWebhooks({}, { pageSize: 100 }))).find((w) => w.url === receiverUrl);
  const events = [...RECEIVER_EVENTS];
  if (existing) {
    const patched = await client.patchWebhook({ idempotencyKey: randomUUID() }, existing.id, {
      events,
      active: true,
      rotate_secret: true,
    });
    if (!patched.secret) throw new Error("the Treasury API rotated the secret but did not return it");
    return { id: existing.id, secret: patched.secret, created: false };
  }
  const made = await client.createWebhook({ idempotencyKey: randomUUID() }, { url: receiverUrl, events, active: true });
  return { id: made.id, secret: made.secret, created: true };
}
