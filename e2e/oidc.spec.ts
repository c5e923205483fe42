/**
 * Single sign-on against a real OpenID Connect provider (issue 4 §3 "an
 * OIDC provider when OIDC_ISSUER is set"; the mapping rule is in
 * lib/auth/oidc-identity.ts).
 *
 * The spec starts `oidc-provider` on loopback (e2e/oidc-idp.ts) and a second
 * dashboard the way `npm start` does (scripts/launch.ts: the existing
 * production build, its own in-memory treasury-api and demo users) with
 * OIDC_ISSUER / OIDC_CLIENT_ID / OIDC_CLIENT_SECRET set. A second server is
 * needed because the Playwright web server runs without OIDC, and the
 * provider's port is only known once it listens. Chromium signs in through
 * the provider's own login and consent pages.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { freePort } from "../scripts/lib/free-port";
import { EXPECTED_AREAS, SCREENSHOTS, USERS } from "./fixtures";
import { startIdp, type IdpAccount, type RunningIdp } from "./oidc-idp";

const CLIENT_ID = "treasury-dashboard-e2e";
const CLIENT_SECRET = randomBytes(24).toString("base64url");

/** The IdP's accounts, keyed by login name (= `sub`). The dashboard's users are its demo users. */
const ACCOUNTS = {
  // A dashboard treasurer; no role claim at all; the IdP spells the e-mail in capitals and has its own display name.
  tomas: { email: "Treasurer@Demo.Local", email_verified: true, name: "T. Treasurer (IdP)" },
  // Known to the IdP, not to the dashboard.
  olga: { email: "olga.outsider@demo.local", email_verified: true, name: "Olga Outsider" },
  // A dashboard viewer whose IdP claims admin rights.
  vera: { email: "viewer@demo.local", email_verified: true, name: "Vera Viewer", roles: ["admin"], groups: ["treasury-admins"] },
  // Claims the admin's e-mail without the IdP having verified it (a self-service profile field, say).
  mallory: { email: "admin@demo.local", email_verified: false, name: "Mallory" },
  // Sends no e-mail at all.
  nomail: { name: "No Mail" },
} satisfies Record<string, IdpAccount>;
type Login = keyof typeof ACCOUNTS;

let idp: RunningIdp;
let dashboard: ChildProcess;
let base = "";
/** The second dashboard's stderr, for the failure message when it does not start. */
let dashboardLog = "";

test.describe.configure({ mode: "serial", timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  idp = await startIdp({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUri: `${base}/api/auth/callback/oidc`, accounts: ACCOUNTS });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    TREASURY_API_PORT: "0",
    TREASURY_API_DATA: "memory",
    DASHBOARD_DATA_DIR: "memory",
    NEXTAUTH_URL: base,
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    NEXT_TELEMETRY_DISABLED: "1",
    LOG_LEVEL: "warn",
  };
  // Demo mode with its own local treasury-api, whatever the caller's shell points at.
  delete env.TREASURY_API_BASE_URL;
  delete env.DATABASE_URL;
  delete env.NEXTAUTH_SECRET;
  dashboard = spawn(process.execPath, ["--import", "tsx", path.join("scripts", "launch.ts"), "start"], { env, stdio: ["ignore", "ignore", "pipe"] });
  dashboard.stderr?.on("data", (chunk: Buffer) => {
    dashboardLog = (dashboardLog + chunk.toString()).slice(-20_000);
  });
  for (let i = 0; i < 240; i++) {
    if (dashboard.exitCode !== null) break;
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the OIDC dashboard did not come up:\n${dashboardLog}`);
});

test.afterAll(async () => {
  if (dashboard && dashboard.exitCode === null) {
    const exited = new Promise((r) => dashboard.once("exit", r));
    // launch.ts passes SIGTERM to next and closes its treasury-api; SIGKILL only if it hangs.
    dashboard.kill("SIGTERM");
    const timer = setTimeout(() => dashboard.kill("SIGKILL"), 20_000);
    await exited;
    clearTimeout(timer);
  }
  await idp?.close();
});

/**
 * From the dashboard's sign-in page through the IdP's login and consent pages
 * (any password: the IdP's dev login) back to the dashboard.
 */
async function signInWithSso(page: Page, login: Login, loginScreenshot?: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByRole("button", { name: "Sign in with single sign-on" }).click();
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`));
  const loginName = page.locator('input[name="login"]');
  await loginName.fill(login);
  await page.locator('input[name="password"]').fill("any-password");
  if (loginScreenshot) await page.screenshot({ path: path.join(SCREENSHOTS, loginScreenshot) });
  await page.getByRole("button", { name: "Sign-in" }).click();
  // The consent step (first sign-in of this browser context).
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(new RegExp(`^${base}/`));
}

test("a dashboard user signs in through the IdP: the dashboard's name and role, the role's areas; sign-out ends the session", async ({ page }) => {
  await page.goto(base);
  await expect(page).toHaveURL(/\/login/);
  await signInWithSso(page, "tomas", "oidc-idp-login.png");
  await expect(page).toHaveURL(`${base}/`);
  // Name and role come from the dashboard's user, not from the IdP's claims.
  await expect(page.getByTestId("user-name")).toHaveText(USERS.treasurer.name);
  await expect(page.getByTestId("user-roles")).toHaveText("treasurer");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Overview");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.locator("a[data-area]")).toHaveCount(EXPECTED_AREAS.treasurer.length);
  expect(await nav.locator("a[data-area]").evaluateAll((as) => as.map((a) => a.getAttribute("data-area")))).toEqual(EXPECTED_AREAS.treasurer);
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: path.join(SCREENSHOTS, "oidc-signed-in.png") });

  // A BFF call works with this session (the session names the dashboard user id).
  const companies = await page.request.get(`${base}/api/treasury/companies`);
  expect(companies.status()).toBe(200);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto(`${base}/accounts`);
  await expect(page).toHaveURL(/\/login/);
  expect((await page.request.get(`${base}/api/treasury/companies`)).status()).toBe(401);
});

test("an IdP role claim grants nothing: a viewer whose IdP says admin stays a viewer", async ({ page }) => {
  await signInWithSso(page, "vera");
  await expect(page.getByTestId("user-name")).toHaveText(USERS.viewer.name);
  await expect(page.getByTestId("user-roles")).toHaveText("viewer");
  const nav = page.getByRole("navigation", { name: "Main" });
  expect(await nav.locator("a[data-area]").evaluateAll((as) => as.map((a) => a.getAttribute("data-area")))).toEqual(EXPECTED_AREAS.viewer);
  await page.goto(`${base}/webhooks`);
  await expect(page.getByTestId("problem-state")).toContainText("No access");
  expect((await page.request.get(`${base}/api/treasury/webhooks`)).status()).toBe(403);
  // The claim did reach the dashboard (so the test is not passing because it never saw it).
  expect(idp.userinfo).toContainEqual(expect.objectContaining({ roles: ["admin"], groups: ["treasury-admins"] }));
});

const REFUSED: { login: Login; why: string; message: RegExp }[] = [
  { login: "olga", why: "an IdP user the dashboard does not know", message: /not set up for this dashboard/ },
  { login: "mallory", why: "an e-mail the IdP has not verified (even one of a dashboard admin)", message: /has not verified your e-mail address/ },
  { login: "nomail", why: "no e-mail claim", message: /did not send an e-mail address/ },
];

for (const r of REFUSED) {
  test(`refused with a clear message: ${r.why}`, async ({ page }) => {
    await signInWithSso(page, r.login);
    await expect(page).toHaveURL(/\/login\?error=/);
    // (Next's route announcer is a role=alert too, so the form's message is found by id.)
    await expect(page.locator("#login-error")).toHaveText(r.message);
    if (r.login === "olga") await page.screenshot({ path: path.join(SCREENSHOTS, "oidc-refused.png") });
    await page.goto(`${base}/`);
    await expect(page).toHaveURL(/\/login/);
    expect((await page.request.get(`${base}/api/treasury/companies`)).status()).toBe(401);
  });
}
