/** Calls a spec makes to a treasury-api itself, as the demo OAuth client (imported only by the specs that need it). */
import { expect } from "@playwright/test";
import { DEMO_TREASURY_B } from "@treasury/test-support/local-api";
/**
 * An access token of the demo OAuth client (Form B, every scope) from the treasury-api at `base` (without
 * `/public`), for a spec that calls the API itself: an admin call the dashboard does not offer, or a read to compare.
 */
export async function demoApiToken(base: string): Promise<string> {
  const token = await fetch(`${base}/public/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: DEMO_TREASURY_B.clientId,
      client_secret: DEMO_TREASURY_B.clientSecret,
    }).toString(),
  });
  expect(token.status).toBe(200);
  return ((await token.json()) as { access_token: string }).access_token;
}
