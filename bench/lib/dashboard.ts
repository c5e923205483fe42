/**
 * The production dashboard for benchmarks (bench:ui, bench:bff): start
 * `scripts/launch.ts start` as a child process, wait until it is ready, sign
 * in (in headless Chromium through the sign-in form, or over plain HTTP for
 * load generators), and print markdown tables.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../../lib/db/demo-users";

export { CHROMIUM_ARGS } from "../../scripts/chromium";

/** Polls `url` every 500 ms until it answers 2xx. @throws after `ms` milliseconds. */
export async function waitReady(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`server not ready at ${url}`);
}

/** @throws when there is no production build (`.next/BUILD_ID`). */
export function requireBuild(): void {
  if (!existsSync(".next/BUILD_ID"))
    throw new Error("No production build: run `npm run build` first (or BENCH_BUILD=1).");
}

export interface DashboardProcess {
  /** e.g. http://127.0.0.1:3230 */
  base: string;
  child: ChildProcess;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

/**
 * Starts the production dashboard (`scripts/launch.ts start`) on `port` with `env` on top of this process's
 * environment (no TREASURY_API_BASE_URL: launch.ts starts the local treasury-api with demo data in its own process)
 * and waits for /readyz (up to 5 minutes). Its stderr goes to ours.
 * @throws when something already answers on `port`, or the dashboard does not become ready.
 */
export async function startDashboard(port: number, env: Record<string, string>): Promise<DashboardProcess> {
  const base = `http://127.0.0.1:${port}`;
  const taken = await fetch(`${base}/readyz`).then(
    () => true,
    () => false,
  );
  // Another server on the port would answer /readyz and be measured instead.
  if (taken) throw new Error(`port ${port} is in use: set BENCH_PORT to a free port`);
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/launch.ts", "start"], {
    env: {
      ...process.env,
      PORT: String(port),
      NEXTAUTH_URL: base,
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    await exited;
  };
  try {
    await waitReady(`${base}/readyz`, 300_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { base, child, stop };
}

/** A page in its own browser context, signed in as `email` (demo password) through the sign-in form. */
export async function signInPage(browser: Browser, base: string, email: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"), { timeout: 60_000 });
  return page;
}

/** `name=value` pairs of the Set-Cookie headers of `res`. */
function cookiesOf(res: Response): string[] {
  return res.headers.getSetCookie().map((c) => c.split(";")[0] ?? "");
}

/**
 * Signs in as `email` (demo password) over HTTP, the way the sign-in form does (next-auth's CSRF token, then the
 * credentials callback), without rendering a page. Returns the session's `Cookie` header value.
 * @throws when the sign-in is refused.
 */
export async function signInHttp(base: string, email: string): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = cookiesOf(csrf);
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: jar.join("; "),
      origin: base,
    },
    body: new URLSearchParams({ csrfToken, email, password: DEMO_PASSWORD, json: "true", callbackUrl: base }),
  });
  const session = cookiesOf(res).filter((c) => c.includes("session-token") && !c.endsWith("="));
  if (session.length === 0) throw new Error(`sign-in as ${email} refused (${res.status})`);
  return [...jar, ...session].join("; ");
}

/** A markdown table: first column left-aligned, the others right-aligned, padded to the widest cell. */
export function markdownTable(head: string[], body: string[][]): string {
  const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? "").length)));
  const line = (c: string[]) =>
    `| ${c.map((x, i) => (i === 0 ? x.padEnd(w[i] ?? 0) : x.padStart(w[i] ?? 0))).join(" | ")} |`;
  return [line(head), `|${w.map((n) => "-".repeat(n + 2)).join("|")}|`, ...body.map(line)].join("\n");
}
