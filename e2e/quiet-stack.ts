/**
 * A dashboard and treasury-api of their own for the specs that compare the page's figures with figures computed
 * independently from the API: demo data that no other spec writes to and that nothing moves while it is read.
 *
 * On the shared e2e server other specs create, approve and import payments and statements, and the simulated bank
 * books them the moment they settle, so today's balances and flows of the demo companies change between two reads of
 * one test (the page's figure and the test's own sum). Here:
 * - the treasury-api runs in memory with the demo seed (`startQuietApi`) and its simulated bank on `manual` (no
 *   worker takes or settles a batch, so no booking and no balance changes after the seed);
 * - its dashboard (e2e/second-dashboard.ts) has its own in-memory database and demo users;
 * - `quietStack` is a worker fixture: started the first time a test of the worker asks for it and shared by that
 *   worker's later tests (which run one at a time), stopped when the worker ends. Tests on it write nothing to the
 *   API; what they change in the dashboard (a user's reporting currency, a category rule of their own) is their own
 *   user's or removed when they end.
 */
import { randomBytes } from "node:crypto";
import { expect, test as base, type Browser, type Page } from "@playwright/test";
import { freePort } from "../scripts/lib/free-port";
import { startServer, type RunningServer } from "../treasury-api/server";
import { DEMO_TREASURY_B } from "../treasury-api/seed/demo-clients";
import { USERS, type RoleKey } from "./fixtures";
import { signInOn, startSecondDashboard, type SecondDashboard } from "./second-dashboard";

export interface QuietStack {
  /** The dashboard's `http://127.0.0.1:<port>`. */
  base: string;
  api: RunningServer;
  dashboard: SecondDashboard;
  /** A page in a fresh browser context on the dashboard, signed in as the demo user of `role`. */
  signIn(browser: Browser, role: RoleKey): Promise<Page>;
  /** Headers of a BFF write on this dashboard: its Origin and a fresh Idempotency-Key. */
  writeHeaders(): Record<string, string>;
}

/**
 * The treasury-api of a quiet stack: in memory, demo data (seed scale 1), the simulated bank on `manual`.
 * @param port 0 (default) for any free port
 * @param rateLimit requests per 60 s per OAuth client (default the API's own, 600)
 */
export async function startQuietApi(opts: { port?: number; rateLimit?: number } = {}): Promise<RunningServer> {
  return startServer({
    port: opts.port ?? 0,
    host: "127.0.0.1",
    data: "memory",
    seed: "demo",
    seedScale: 1,
    bankSpeed: "manual",
    log: false,
    ...(opts.rateLimit ? { rateLimit: { limit: opts.rateLimit, windowSeconds: 60 } } : {}),
  });
}

/**
 * The dashboard (demo users, the demo OAuth client) on `apiBase` (the API's `…/public` address, or a proxy's).
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

/** Starts a quiet stack (API, then its dashboard). The API's limit is the shared e2e server's (6000 a minute). */
export async function startQuietStack(): Promise<QuietStack & { stop(): Promise<void> }> {
  const api = await startQuietApi({ rateLimit: 6000 });
  let dashboard: SecondDashboard;
  try {
    dashboard = await startQuietDashboard(`${api.url}/public`);
  } catch (err) {
    await api.close();
    throw err;
  }
  const origin = dashboard.base;
  return {
    base: origin,
    api,
    dashboard,
    signIn: (browser, role) => signInOn(browser, origin, USERS[role].email),
    writeHeaders: () => ({ Origin: origin, "Idempotency-Key": crypto.randomUUID() }),
    stop: async () => {
      await dashboard.stop();
      await api.close();
    },
  };
}

/** `test` with the worker fixture `quietStack` (see the module comment). */
export const test = base.extend<object, { quietStack: QuietStack }>({
  quietStack: [
    async ({}, use) => {
      const stack = await startQuietStack();
      try {
        await use(stack);
      } finally {
        await stack.stop();
      }
    },
    // Seeding the demo data and starting Next take minutes on a loaded machine.
    { scope: "worker", timeout: 300_000 },
  ],
});

export { expect };
