/**
 * Single sign-on against a real OpenID Connect provider (used when
 * OIDC_ISSUER is set; the mapping rule is in
 * lib/auth/oidc-identity.ts).
 *
 * The spec starts `oidc-provider` on loopback (e2e/oidc-idp.ts) and a second
 * dashboard the way `npm start` does (e2e/second-dashboard.ts: the existing
 * production build, its own in-memory treasury-api and demo users) with
 * OIDC_ISSUER / OIDC_CLIENT_ID / OIDC_CLIENT_SECRET set. A second server is
 * needed because the Playwright web server runs without OIDC, and the
 * provider's port is only known once it listens. Chromium signs in through
 * the provider's own login and consent pages.
 *
 * The dashboard's database is a throw-away PostgreSQL cluster
 * (`DATABASE_URL`), so that `npm run users -- unlink-sso` can run against it
 * while the dashboard is up, as an administrator would; without PostgreSQL
 * installed it is in-memory PGlite and that one test is skipped.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { freePort } from "@treasury/test-support/free-port";
import { findPostgresBin, startTempPostgres, type TempPostgres } from "@treasury/test-support/temp-postgres";
import { listAudit } from "../lib/db/audit";
import { openDashboardDb } from "../lib/db/client";
import { findUserByEmail } from "../lib/db/users";
import { EXPECTED_AREAS, SCREENSHOTS, USERS } from "./fixtures";
import { startIdp, type IdpAccount, type RunningIdp } from "./oidc-idp";
import { startSecondDashboard, type SecondDashboard } from "./second-dashboard";

const CLIENT_ID = "treasury-dashboard-e2e";
const CLIENT_SECRET = randomBytes(24).toString("base64url");

/** The IdP's accounts, keyed by login name (= `sub` unless given). The dashboard's users are its demo users. */
const ACCOUNTS = {
  // A dashboard treasurer; no role claim at all; the IdP spells the e-mail in capitals and has its own display name.
  tomas: { email: "Treasurer@Demo.Local", email_verified: true, name: "T. Treasurer (IdP)" },
  // Known to the IdP, not to the dashboard.
  olga: { email: "olga.outsider@demo.local", email_verified: true, name: "Olga Outsider" },
  // A dashboard viewer whose IdP claims admin rights.
  vera: {
    email: "viewer@demo.local",
    email_verified: true,
    name: "Vera Viewer",
    roles: ["admin"],
    groups: ["treasury-admins"],
  },
  // Claims the admin's e-mail without the IdP having verified it (a self-service profile field, say).
  mallory: { email: "admin@demo.local", email_verified: false, name: "Mallory" },
  // Sends no e-mail at all.
  nomail: { name: "No Mail" },
  // A dashboard approver whose IdP account is deleted and re-created (same login and e-mail, new `sub`) during a test.
  anna: { email: "approver@demo.local", email_verified: true, name: "Anna Approver (IdP)", sub: "anna-original-0001" },
} satisfies Record<string, IdpAccount>;
type Login = keyof typeof ACCOUNTS;

let idp: RunningIdp;
let dashboard: SecondDashboard | undefined;
let postgres: TempPostgres | undefined;
let base = "";

test.describe.configure({ mode: "serial", timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  idp = await startIdp({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUri: `${base}/api/auth/callback/oidc`,
    accounts: ACCOUNTS,
  });
  if (findPostgresBin()) postgres = await startTempPostgres();
  dashboard = await startSecondDashboard({
    port,
    env: {
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    },
  });
});

test.afterAll(async () => {
  await dashboard?.stop();
  await postgres?.stop();
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

test(
  "a dashboard user signs in through the IdP: the dashboard's name and role, the role's areas; sign-out ends the " +
    "session",
  async ({ page }) => {
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
    expect(await nav.locator("a[data-area]").evaluateAll((as) => as.map((a) => a.getAttribute("data-area")))).toEqual(
      EXPECTED_AREAS.treasurer,
    );
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
  },
);

test("an IdP role claim grants nothing: a viewer whose IdP says admin stays a viewer", async ({ page }) => {
  await signInWithSso(page, "vera");
  await expect(page.getByTestId("user-name")).toHaveText(USERS.viewer.name);
  await expect(page.getByTestId("user-roles")).toHaveText("viewer");
  const nav = page.getByRole("navigation", { name: "Main" });
  expect(await nav.locator("a[data-area]").evaluateAll((as) => as.map((a) => a.getAttribute("data-area")))).toEqual(
    EXPECTED_AREAS.viewer,
  );
  await page.goto(`${base}/webhooks`);
  await expect(page.getByTestId("problem-state")).toContainText("No access");
  expect((await page.request.get(`${base}/api/treasury/webhooks`)).status()).toBe(403);
  // The claim did reach the dashboard (so the test is not passing because it never saw it).
  expect(idp.userinfo).toContainEqual(expect.objectContaining({ roles: ["admin"], groups: ["treasury-admins"] }));
});

const REFUSED: { login: Login; why: string; message: RegExp }[] = [
  { login: "olga", why: "an IdP user the dashboard does not know", message: /not set up for this dashboard/ },
  {
    login: "mallory",
    why: "an e-mail the IdP has not verified (even one of a dashboard admin)",
    message: /has not verified your e-mail address/,
  },
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

const execFileP = promisify(execFile);

/** `s` as a literal inside a RegExp. */
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The second dashboard's JSON log lines (pino) so far. */
function serverLog(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of (dashboard?.log() ?? "").split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      out.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // a line cut by the log's size bound
    }
  }
  return out;
}

/**
 * `npm run users -- <args>` against the second dashboard's database, as an administrator runs it next to a running
 * dashboard; its stdout.
 */
async function usersCli(...args: string[]): Promise<string> {
  if (!postgres) throw new Error("needs the PostgreSQL database");
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: postgres.url };
  const { stdout } = await execFileP("npm", ["run", "--silent", "users", "--", ...args], { env, timeout: 60_000 });
  return stdout;
}

/** One sign-in in a browser context of its own (its own IdP session); the context is closed after `then`. */
async function inFreshBrowser(browser: Browser, then: (page: Page) => Promise<void>): Promise<void> {
  const context = await browser.newContext();
  try {
    await then(await context.newPage());
  } finally {
    await context.close();
  }
}

test(
  "a dashboard user is tied to the IdP account of their first sign-in: the same e-mail from a re-created account " +
    "is refused until `users unlink-sso`",
  async ({ browser }) => {
    test.skip(
      !postgres,
      "PostgreSQL is not installed: the users CLI cannot reach the running dashboard's embedded database",
    );
    const issuer = idp.issuer;
    const email = USERS.approver.email;

    // 1. The first single sign-on ties the approver to the IdP account.
    await inFreshBrowser(browser, async (page) => {
      await signInWithSso(page, "anna");
      await expect(page.getByTestId("user-name")).toHaveText(USERS.approver.name);
    });
    expect(await usersCli("list")).toMatch(
      new RegExp(`${escapeRe(email)}\\s.*sso anna-original-0001 @ ${escapeRe(issuer)} since `),
    );

    // 2. The IdP deletes and re-creates the account: same login, same e-mail, a new subject.
    ACCOUNTS.anna.sub = "anna-recreated-0002";
    await inFreshBrowser(browser, async (page) => {
      await signInWithSso(page, "anna");
      await expect(page).toHaveURL(/\/login\?error=SsoAccountMismatch/);
      await expect(page.locator("#login-error")).toHaveText(
        /tied to a different single sign-on account .* ask a dashboard administrator to unlink the old one/,
      );
      await page.screenshot({ path: path.join(SCREENSHOTS, "oidc-account-mismatch.png") });
      await page.goto(`${base}/approvals`);
      await expect(page).toHaveURL(/\/login/);
      expect((await page.request.get(`${base}/api/treasury/companies`)).status()).toBe(401);
    });
    // The server log says which accounts differ.
    const refusal = serverLog().find((e) => e.msg === "single sign-on refused" && e.reason === "SsoAccountMismatch");
    expect(refusal).toMatchObject({
      issuer,
      subject: "anna-recreated-0002",
      tiedIssuer: issuer,
      tiedSubject: "anna-original-0001",
    });
    expect(await usersCli("list")).toMatch(new RegExp(`${escapeRe(email)}\\s.*sso anna-original-0001 @ `));

    // 3. A dashboard administrator confirms it is the same person and clears the tie, with the dashboard running.
    expect(await usersCli("unlink-sso", "--email", email)).toMatch(
      new RegExp(
        `^unlinked ${escapeRe(email)} \\(was sso anna-original-0001 @ ${escapeRe(issuer)} since \\S+\\); the next ` +
          `single sign-on ties it again\n$`,
      ),
    );
    expect(await usersCli("list")).toMatch(new RegExp(`${escapeRe(email)}\\s.*sso not tied`));

    // 4. The re-created account signs in, and is now the one the approver is tied to.
    await inFreshBrowser(browser, async (page) => {
      await signInWithSso(page, "anna");
      await expect(page.getByTestId("user-name")).toHaveText(USERS.approver.name);
      await expect(page.getByTestId("user-roles")).toHaveText("approver");
    });
    expect(await usersCli("list")).toMatch(
      new RegExp(`${escapeRe(email)}\\s.*sso anna-recreated-0002 @ ${escapeRe(issuer)} since `),
    );

    // Both ties and the unlink are in the append-only audit log (events on the user object), with who did them.
    const database = await openDashboardDb({ url: postgres?.url ?? "" });
    try {
      const user = await findUserByEmail(database.db, email);
      const mine = (await listAudit(database.db, { companyIds: null, objectIds: [user?.id ?? "none"] })).reverse();
      expect(mine.map((e) => [e.action, e.details.subject])).toEqual([
        ["user.sso_link", "anna-original-0001"],
        ["user.sso_unlink", "anna-original-0001"],
        ["user.sso_link", "anna-recreated-0002"],
      ]);
      expect(mine[0]).toMatchObject({ userId: user?.id, userEmail: email, details: { issuer } });
      expect(mine[1]).toMatchObject({ userId: null, userEmail: expect.stringMatching(/^users-cli:/) });
    } finally {
      await database.close();
    }
  },
);
