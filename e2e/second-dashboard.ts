/**
 * A second production dashboard for specs that need their own configuration
 * (single sign-on, a treasury-api the test process can inspect): started the
 * way `npm start` starts it (scripts/launch.ts on the existing build, which
 * validates the configuration first) on 127.0.0.1. Without
 * `TREASURY_API_BASE_URL` in `env`, launch.ts also starts its own in-memory
 * treasury-api with demo data and demo users.
 *
 * The caller's shell does not leak in: `TREASURY_API_BASE_URL`,
 * `DATABASE_URL` and `NEXTAUTH_SECRET` are taken only from `env`.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { expect, type Browser, type Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../lib/db/demo-users";
import { freePort } from "@treasury/test-support/free-port";

export interface SecondDashboardOptions {
  /**
   * Port to listen on (when the base URL must be known beforehand, e.g. for an IdP's redirect URI); default a free
   * one.
   */
  port?: number;
  /** Environment on top of the defaults (in-memory data, warn logging, NEXTAUTH_URL of the port). */
  env?: Record<string, string>;
  /** How long to wait for `/readyz`, in milliseconds (default 120 000). */
  readyTimeoutMs?: number;
}

export interface SecondDashboard {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /**
   * The last 50 000 characters of its output, stdout and stderr (the server's JSON log lines, and what a failing test
   * should show).
   */
  log(): string;
  /**
   * SIGTERM (launch.ts stops Next and its treasury-api), SIGKILL after 20 s; resolves once it has exited. Idempotent.
   */
  stop(): Promise<void>;
}

/**
 * Starts the dashboard and waits until `/readyz` answers 200.
 * @throws Error with its log when it exits or is not ready in time (it is stopped first).
 */
export async function startSecondDashboard(opts: SecondDashboardOptions = {}): Promise<SecondDashboard> {
  const port = opts.port ?? (await freePort());
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.TREASURY_API_BASE_URL;
  delete env.DATABASE_URL;
  delete env.NEXTAUTH_SECRET;
  Object.assign(env, {
    PORT: String(port),
    HOSTNAME_BIND: "127.0.0.1",
    TREASURY_API_PORT: "0",
    TREASURY_API_DATA: "memory",
    DASHBOARD_DATA_DIR: "memory",
    NEXTAUTH_URL: base,
    NEXT_TELEMETRY_DISABLED: "1",
    LOG_LEVEL: "warn",
    ...opts.env,
  });
  const child = spawn(process.execPath, ["--import", "tsx", path.join("scripts", "launch.ts"), "start"], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const append = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-50_000);
  };
  child.stdout.on("data", append);
  child.stderr.on("data", append);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      await exited;
      clearTimeout(timer);
    })();
    return stopping;
  };

  const deadline = Date.now() + (opts.readyTimeoutMs ?? 120_000);
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return { base, log: () => log, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  await stop();
  throw new Error(`the second dashboard (${base}) did not come up:\n${log}`);
}

/**
 * A page in a fresh browser context on `base` (its `baseURL`), signed in as the demo user `email` through the login
 * form; resolves once the signed-in shell shows the user's name.
 */
export async function signInOn(browser: Browser, base: string, email: string): Promise<Page> {
  const ctx = await browser.newContext({ baseURL: base });
  const page = await ctx.newPage();
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("user-name")).toBeVisible();
  return page;
}
