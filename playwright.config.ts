import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "./scripts/chromium";

/**
 * Playwright e2e in the Chromium scripts/chromium.ts finds
 * (PLAYWRIGHT_CHROMIUM_EXECUTABLE, Playwright's own, then the system's;
 * `npm run test:e2e` installs Debian's first when there is none and it may),
 * against the production build served by `npm start`, which also starts the
 * local treasury-api on in-memory storage (no leftovers between runs).
 * `E2E_SKIP_BUILD=1` reuses an existing build.
 *
 * The main server's treasury-api listens on E2E_PORT + 3 and keeps the direct bank simulator (`memory` data;
 * docs/bank-channels.md "The simulated bank behind a channel" says why); the folder channel's journey brings its own
 * bank (e2e/iso20022.spec.ts).
 *
 * A second, quiet server (e2e/quiet-stack.ts) runs beside it on E2E_PORT + 1, its treasury-api on E2E_PORT + 2: the
 * same build and demo data, its simulated bank on `manual`, and no spec writes to its API, so the specs that compare
 * the page's figures with their own sums of the API's read data that does not move meanwhile.
 */
const PORT = Number(process.env.E2E_PORT ?? 3210);
export const BASE_URL = `http://127.0.0.1:${PORT}`;
/** The quiet server's dashboard and its treasury-api (`…/public`). */
export const QUIET_BASE_URL = `http://127.0.0.1:${PORT + 1}`;
export const QUIET_API_URL = `http://127.0.0.1:${PORT + 2}`;
/**
 * The main server's treasury-api (`…/public`): e2e/iso20022.spec.ts creates a folder bank connection there (an admin
 * API call the dashboard does not offer) and plays the bank on its far side.
 */
export const MAIN_API_URL = `http://127.0.0.1:${PORT + 3}`;

/** The environment both servers share. */
const SERVER_ENV = {
  TREASURY_API_DATA: "memory",
  // One demo OAuth client carries every test user's traffic (figures are checked against
  // the API through the BFF too); the API's default 600 per minute is the real limit and
  // its 429 path is tested by vitest against the real server.
  TREASURY_API_RATE_LIMIT: "6000",
  // The local API's four-eyes threshold as it was before thresholds were per currency (100,000 in every demo
  // currency): the journeys' batches were sized for it. The per-currency defaults are tested in treasury-api/test.
  TREASURY_API_FOUR_EYES_THRESHOLD: "NOK=100000,SEK=100000,DKK=100000,EUR=100000,USD=100000",
  // The journeys approve four-eyes-sized batches to payees the empty demo register has not verified; the rule that
  // makes such payments a high signal needing an acknowledgement (DASHBOARD_RISK_UNVERIFIED_HIGH) is tested in
  // lib/payments/risk-signals.test.ts, and the acknowledgement path by e2e/risk-signals.spec.ts's duplicate.
  DASHBOARD_RISK_UNVERIFIED_HIGH: "none",
  DASHBOARD_DATA_DIR: "memory",
  // The test seam e2e/cash-forecast.spec.ts stores a past week's forecast snapshot through (docs/forecast.md#variance).
  DASHBOARD_TEST_SEAMS: "1",
  // Every spec opens its pages with the sessions auth.setup.ts saved once at the start; a context's activity never
  // reaches that file, so under the default 30-minute idle timeout every saved session died 30 minutes into the run
  // (a suite that ran longer on a busy machine failed from then on). The idle timeout itself is tested by vitest
  // (lib/auth); here it is the whole session's 12 hours.
  DASHBOARD_IDLE_MINUTES: "720",
  NEXT_TELEMETRY_DISABLED: "1",
  LOG_LEVEL: "warn",
};

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: BASE_URL,
    launchOptions: {
      executablePath: findChromium(),
      args: CHROMIUM_ARGS,
    },
    viewport: { width: 1360, height: 860 },
    screenshot: "only-on-failure",
    trace: "off",
  },
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts$/ },
    { name: "e2e", testMatch: /\.spec\.ts$/, dependencies: ["setup"] },
  ],
  // Started one after the other: the quiet server runs the build the first one made.
  webServer: [
    {
      command: process.env.E2E_SKIP_BUILD ? "npm start" : "npm run build && npm start",
      url: `${BASE_URL}/readyz`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: { ...SERVER_ENV, PORT: String(PORT), TREASURY_API_PORT: String(PORT + 3), NEXTAUTH_URL: BASE_URL },
    },
    {
      command: "npm start",
      url: `${QUIET_BASE_URL}/readyz`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        ...SERVER_ENV,
        PORT: String(PORT + 1),
        TREASURY_API_PORT: String(PORT + 2),
        TREASURY_API_BANK_SPEED: "manual",
        NEXTAUTH_URL: QUIET_BASE_URL,
      },
    },
  ],
});
