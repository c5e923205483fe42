/**
 * Security: with the production build, neither the API client
 * secret nor any access token appears in the client bundles, the HTML or
 * any BFF response; and every page carries the CSP and security headers.
 *
 * This test starts its own treasury-api in this process (in memory) so that
 * it can read the hashes of every access token the API issued, and its own
 * dashboard pointed at it (e2e/second-dashboard.ts). Every token-shaped
 * string seen anywhere is hashed and compared with the issued tokens.
 */
import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { expect, test } from "@playwright/test";
import { startLoopbackServer, type RunningServer } from "@treasury/test-support/local-api";
import { DEMO_TREASURY_B } from "@treasury/test-support/local-api";
import { PASSWORD, USERS } from "./fixtures";
import { startSecondDashboard, type SecondDashboard } from "./second-dashboard";

const SECRET = DEMO_TREASURY_B.clientSecret;
const NEXTAUTH_SECRET = randomBytes(32).toString("base64url");

let api: RunningServer;
let dashboard: SecondDashboard | undefined;
let base = "";

test.describe.configure({ mode: "serial", timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  api = await startLoopbackServer({ seed: "demo" });
  dashboard = await startSecondDashboard({
    env: {
      TREASURY_API_BASE_URL: `${api.url}/public`,
      TREASURY_CLIENT_ID: DEMO_TREASURY_B.clientId,
      TREASURY_CLIENT_SECRET: SECRET,
      DASHBOARD_DEMO: "1",
      NEXTAUTH_SECRET,
    },
  });
  base = dashboard.base;
});

test.afterAll(async () => {
  await dashboard?.stop();
  await api?.close();
});

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) yield* walk(p);
    else yield p;
  }
}

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

test("no client secret or access token in bundles, HTML or BFF responses; security headers on pages", async ({
  page,
}) => {
  const seen: { where: string; text: string }[] = [];
  page.on("response", async (res) => {
    try {
      seen.push({ where: res.url(), text: (await res.text()) + JSON.stringify(await res.allHeaders()) });
    } catch {
      // redirects and aborted responses have no body
    }
  });

  const login = await page.goto(`${base}/login`);
  const headers = (await login?.allHeaders()) ?? {};
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  // The nonce is on Next's scripts, so the page hydrates under the CSP.
  const nonce = /'nonce-([^']+)'/.exec(headers["content-security-policy"] ?? "")?.[1];
  expect(await page.locator(`script[nonce]`).count()).toBeGreaterThan(0);
  expect(nonce).toBeTruthy();

  await page.getByLabel("E-mail").fill(USERS.admin.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("user-name")).toHaveText(USERS.admin.name);
  for (const area of [
    "/",
    "/accounts",
    "/transactions",
    "/reports",
    "/payments",
    "/reconciliation",
    "/webhooks",
    "/organization",
    "/audit",
  ]) {
    await page.goto(`${base}${area}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
  const bff = [
    "/api/treasury/companies",
    "/api/treasury/accounts",
    "/api/treasury/transactions?page_size=20",
    "/api/treasury/koncerner",
    "/api/treasury/payments/batches",
    "/api/treasury/payments/status-events",
    "/api/treasury/reporting/cashflow/daily",
    "/api/treasury/reporting/positions/daily",
    "/api/treasury/reporting/forecast",
    "/api/treasury/webhooks",
    "/api/treasury/reconciliation/matches",
    "/api/audit",
    "/api/auth/session",
  ];
  for (const p of bff) {
    const res = await page.request.get(`${base}${p}`);
    seen.push({ where: p, text: (await res.text()) + JSON.stringify(res.headers()) });
  }
  for (const file of walk(path.join(".next", "static"))) {
    if (/\.(js|css|html|json|txt|map)$/.test(file)) seen.push({ where: file, text: readFileSync(file, "utf8") });
  }

  const rows = (await api.database.db.execute(sql`select token_hash from access_tokens`)) as unknown as
    { rows?: { token_hash: string }[] } | { token_hash: string }[];
  const list = Array.isArray(rows) ? rows : (rows.rows ?? []);
  const issued = new Set(list.map((r) => r.token_hash));
  expect(issued.size).toBeGreaterThan(0);

  expect(seen.length).toBeGreaterThan(30);
  for (const { where, text } of seen) {
    expect(text.includes(SECRET), `client secret in ${where}`).toBe(false);
    expect(text.includes(NEXTAUTH_SECRET), `session secret in ${where}`).toBe(false);
    expect(/access_token/.test(text) && where.includes("/api/"), `access_token field in ${where}`).toBe(false);
    // Every 43-character window of every base64url run: a token inside a longer run is found too.
    for (const m of text.matchAll(/[A-Za-z0-9_-]{43,}/g)) {
      for (let i = 0; i + 43 <= m[0].length; i++) {
        if (issued.has(sha256(m[0].slice(i, i + 43)))) throw new Error(`an access token appears in ${where}`);
      }
    }
  }
});
