/**
 * `npm run webhooks:subscribe -- https://dashboard.example.com`: registers the dashboard's webhook receiver
 * (`<url>/api/webhooks/treasury`) with the Treasury API the dashboard is configured for (TREASURY_API_BASE_URL and
 * the OAuth client of docs/configuration.md; the client needs scope `admin:public_api`), or rotates the secret of the
 * endpoint already registered there, and prints the `TREASURY_WEBHOOK_SECRET=…` line to put into the dashboard's
 * environment (docs/users-and-notifications.md#webhooks-from-the-treasury-api). Without an argument the URL is
 * NEXTAUTH_URL.
 */
import { parseDashboardEnv } from "../lib/server/env";
import { RECEIVER_PATH, subscribeReceiver } from "../lib/notify/subscribe";
import { createTreasuryClient } from "../lib/treasury-client";

async function main(): Promise<void> {
  const config = parseDashboardEnv(process.env);
  const base = process.argv[2] ?? config.NEXTAUTH_URL;
  if (!base || !/^https?:\/\//i.test(base))
    throw new Error("give the dashboard's public URL (npm run webhooks:subscribe -- https://…) or set NEXTAUTH_URL");
  const receiver = `${new URL(base).origin}${RECEIVER_PATH}`;
  const client = createTreasuryClient({
    baseUrl: config.TREASURY_API_BASE_URL,
    form: config.TREASURY_API_FORM,
    clientId: config.TREASURY_CLIENT_ID,
    clientSecret: config.TREASURY_CLIENT_SECRET,
    tenantId: config.TREASURY_TENANT_ID,
    scopes: config.TREASURY_SCOPES,
  });
  const r = await subscribeReceiver(client, receiver);
  process.stderr.write(`${r.created ? "Registered" : "Secret rotated for"} webhook endpoint ${r.id} -> ${receiver}\n`);
  process.stdout.write(`TREASURY_WEBHOOK_SECRET=${r.secret}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`webhooks:subscribe failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
