/**
 * How the dashboard subscribes its webhook receiver to the Treasury API
 * (docs/users-and-notifications.md#webhooks-from-the-treasury-api): one endpoint of the dashboard's OAuth client at
 * `<dashboard>/api/webhooks/treasury` for the event types the receiver turns into notifications. Used by
 * `npm run dev` / `npm start` in demo mode (scripts/launch.ts) and by `npm run webhooks:subscribe`.
 */
import { randomUUID } from "node:crypto";
import { webhooksEndpoints } from "../bff/areas/webhooks/endpoints";
import type { TreasuryClient } from "../treasury-client";

/** The receiver's path in the dashboard. */
export const RECEIVER_PATH = webhooksEndpoints.receive.path;

/** The event types the receiver acts on (lib/notify/treasury-webhooks.ts). */
export const RECEIVER_EVENTS = ["bank_connection.failed", "statement.missing", "payment.status.updated"] as const;

/** The three webhook calls {@link subscribeReceiver} makes, as the Treasury client names them. */
export type WebhookCalls = Pick<TreasuryClient, "listWebhooks" | "createWebhook" | "patchWebhook">;

/**
 * The same calls over plain `fetch` with a Form B client-credentials token (scope `admin:public_api`), for the demo
 * launcher, which runs outside Next where the Treasury client (server-only) cannot be imported. First page (100
 * endpoints) only. `baseUrl` ends in `/public`.
 * @throws Error naming the call and its HTTP status
 */
export function formBWebhookCalls(baseUrl: string, clientId: string, clientSecret: string): WebhookCalls {
  let token: string | undefined;
  const call = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    if (!token) {
      const res = await fetch(`${baseUrl}/auth/token/`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "grant_type=client_credentials&scope=admin%3Apublic_api",
      });
      if (!res.ok) throw new Error(`token: HTTP ${res.status}`);
      token = ((await res.json()) as { access_token: string }).access_token;
    }
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json", "idempotency-key": randomUUID() }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const calls = {
    listWebhooks: async () => {
      const page = await call("GET", "/webhooks?page_size=100");
      return { items: (page.results ?? []) as { id: string; url: string }[] };
    },
    createWebhook: (_ctx: unknown, body: unknown) => call("POST", "/webhooks", body),
    patchWebhook: (_ctx: unknown, id: string, body: unknown) =>
      call("PATCH", `/webhooks/${encodeURIComponent(id)}`, body),
  };
  return calls as unknown as WebhookCalls;
}

/**
 * Registers the receiver at `receiverUrl` (absolute, ending in {@link RECEIVER_PATH}), or, when the client already
 * has an endpoint with that URL, makes it active for {@link RECEIVER_EVENTS} and rotates its secret (the old one
 * stays valid 24 hours; the API shows a secret only when it issues one).
 * @returns the endpoint id, its new signing secret (the value of TREASURY_WEBHOOK_SECRET) and whether it is new
 * @throws the Treasury client's errors (e.g. 403 without scope `admin:public_api`, 400 for a URL the API refuses)
 */
export async function subscribeReceiver(
  client: WebhookCalls,
  receiverUrl: string,
): Promise<{ id: string; secret: string; created: boolean }> {
  const existing = (await client.listWebhooks({}, { pageSize: 100 })).items.find((w) => w.url === receiverUrl);
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
