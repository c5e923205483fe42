/**
 * The quiet server, for the specs that compare the page's figures with figures computed independently from the API:
 * demo data that no spec writes to and that nothing moves while it is read.
 *
 * On the shared e2e server other specs create, approve and import payments and statements, and the simulated bank
 * books them the moment they settle, so today's balances and flows of the demo companies change between two reads of
 * one test (the page's figure and the test's own sum). playwright.config.ts therefore starts a second server from the
 * same build: its dashboard on `QUIET_BASE_URL` (own in-memory database and demo users), its treasury-api on
 * `QUIET_API_URL` (in memory, demo data, the simulated bank on `manual`: no batch is ever taken or booked).
 *
 * Rules for the specs on it: never write to its treasury-api (no payment, statement, account or webhook); what they
 * change in its dashboard is their own user's (reporting currency, selected company) or removed when they end (a
 * category rule of their own). e2e/group-failure.spec.ts reads the same API through a proxy of its own.
 */
import { randomBytes } from "node:crypto";
import { expect, test as base, type Browser, type Page } from "@playwright/test";
import { QUIET_API_URL, QUIET_BASE_URL } from "../playwright.config";
import { freePort } from "../scripts/lib/free-port";
import { DEMO_TREASURY_B } from "@treasury/test-support/local-api";
import { USERS, type RoleKey } from "./fixtures";
import { signInOn, startSecondDashboard, type SecondDashboard } from "./second-dashboard";

export { QUIET_API_URL, QUIET_BASE_URL };

export interface QuietStack {
  /** The quiet dashboard's `http://127.0.0.1:<port>`. */
  base: string;
  /** A page in a fresh browser context on the quiet dashboard, signed in as the demo user of `role`. */
  signIn(browser: Browser, role: RoleKey): Promise<Page>;
  /** Headers of a BFF write on the quiet dashboard: its Origin and a fresh Idempotency-Key. */
  writeHeaders(): Record<string, string>;
}

/** The quiet server of this run. */
export const quietStack: QuietStack = {
  base: QUIET_BASE_URL,
  signIn: (browser, role) => signInOn(browser, QUIET_BASE_URL, USERS[role].email),
  writeHeaders: () => ({ Origin: QUIET_BASE_URL, "Idempotency-Key": crypto.randomUUID() }),
};

/**
 * A dashboard of a spec's own (demo users, the demo OAuth client) on `apiBase` (a treasury-api's `…/public` address,
 * or a proxy's in front of it), on a free port unless `port` is given.
 * @throws Error with the dashboard's log when it does not come up (e2e/second-dashboard.ts)
 */
export async function startQuietDashboard(apiBase: string, port?: number): Promise<SecondDashboard> {
  return startSecondDashboard({
    port: port ?? (await freePort()),
    env: {
      TREASURY_API_BASE_URL: apiBase,
      TREASURY_CLIENT_ID: DEMO_TREASURY_B.clientId,
      TREASURY_CLIENT_SECRET: DEMO_TREASURY_B.clientSecret,
      DASHBOARD_DEMO: "1",
      NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
    },
  });
}

/** `test` with the fixture `quietStack` (the quiet server of the run). */
export const test = base.extend<{ quietStack: QuietStack }>({
  // Playwright reads a fixture's dependencies from this pattern: this one has none.
  // eslint-disable-next-line no-empty-pattern
  quietStack: async ({}, use) => use(quietStack),
});

export { expect };
