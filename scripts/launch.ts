/**
 * `npm run dev` / `npm start`: starts the dashboard and — when
 * `TREASURY_API_BASE_URL` is not set — the local treasury-api with its
 * seeded demo data and the matching demo OAuth client first, so a fresh clone
 * works with no configuration. With `TREASURY_API_BASE_URL` set, only the
 * dashboard starts. The configuration is parsed with zod before Next starts;
 * a bad or missing variable stops it with a message naming the variable.
 *
 *   tsx scripts/launch.ts dev|start
 *
 * Demo-mode knobs: PORT (dashboard, default 3000), TREASURY_API_PORT
 * (default 4010; 0 = any free port), TREASURY_API_DATA (default
 * .data/treasury-api; "memory" for a throw-away database),
 * TREASURY_API_RATE_LIMIT (requests per 60 s per OAuth client; default the
 * API's 600 — the e2e suite raises it, since it pushes many users' traffic
 * through the one demo client in a few minutes), TREASURY_API_BANK_SPEED (the
 * simulated bank's pace: instant, fast (default), realistic or manual — nothing
 * is ever taken or booked; the e2e suite's quiet server uses it), TREASURY_API_SIMULATED_BANK (folder: the demo's
 * payments travel as files through a folder connection per company to the simulated bank under
 * <data>/bank — the default for a data folder; direct: the simulator writes into the API's database — the default
 * for "memory", which the e2e suite uses; docs/bank-channels.md). The local API allows webhooks
 * to http and private addresses here (receivers on this machine) and trusts
 * X-Forwarded-* only with TRUST_PROXY=1. Unless TREASURY_WEBHOOK_SECRET is set, the dashboard's webhook receiver is
 * subscribed to the local API and given its secret (lib/notify/subscribe.ts).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ConfigError, parseDashboardEnv } from "../lib/server/env";
import { demoCredentials } from "./demo-credentials";
import { nextArgs } from "./next-args";
import { RECEIVER_PATH, formBWebhookCalls, subscribeReceiver } from "../lib/notify/subscribe";
import type { BankSpeed } from "@treasury/api/config";
import type { SimulatedBank } from "@treasury/api/server";

/** The simulated bank's paces (treasury-api/domain/bank-simulator.ts `BANK_PACE`). */
const BANK_SPEEDS: readonly BankSpeed[] = ["instant", "fast", "realistic", "manual"];

function fail(message: string): never {
  process.stderr.write(`\n${message}\n`);
  process.exit(1);
}

/** A NEXTAUTH_SECRET for demo mode, kept in the dashboard's data folder so sessions survive restarts. */
function demoSecret(dataDir: string): string {
  if (dataDir === "memory") return randomBytes(32).toString("base64url");
  const file = path.join(dataDir, "nextauth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret + "\n", { mode: 0o600 });
  return secret;
}

/** Calls /readyz until it answers, so the database (and demo users) are ready before the first sign-in. */
async function warmUp(base: string): Promise<void> {
  for (let i = 0; i < 240; i++) {
    try {
      const res = await fetch(`${base}/readyz`);
      if (res.ok) {
        process.stdout.write(`\nDashboard ready: ${base}\n`);
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  process.stderr.write(`Dashboard did not become ready; see the log above.\n`);
}

/** The demo API's knobs read from `env` (module comment), each checked; `fail`s naming the variable when bad. */
function demoKnobs(env: Record<string, string | undefined>) {
  const data = env.TREASURY_API_DATA ?? ".data/treasury-api";
  const apiPort = Number(env.TREASURY_API_PORT ?? "4010");
  const rateLimit = env.TREASURY_API_RATE_LIMIT?.trim();
  const perMinute = rateLimit ? Number(rateLimit) : undefined;
  if (perMinute !== undefined && (!Number.isInteger(perMinute) || perMinute < 1))
    fail(`TREASURY_API_RATE_LIMIT must be a positive whole number (requests per 60 s), got "${rateLimit}"`);
  const bankSpeed = env.TREASURY_API_BANK_SPEED?.trim() || undefined;
  if (bankSpeed !== undefined && !BANK_SPEEDS.includes(bankSpeed as BankSpeed))
    fail(`TREASURY_API_BANK_SPEED must be one of ${BANK_SPEEDS.join(", ")}, got "${bankSpeed}"`);
  const simulatedBank = env.TREASURY_API_SIMULATED_BANK?.trim() || undefined;
  if (simulatedBank !== undefined && simulatedBank !== "folder" && simulatedBank !== "direct")
    fail(`TREASURY_API_SIMULATED_BANK must be folder or direct, got "${simulatedBank}"`);
  return {
    data,
    apiPort,
    perMinute,
    bankSpeed: bankSpeed as BankSpeed | undefined,
    simulatedBank: simulatedBank as SimulatedBank | undefined,
  };
}

/**
 * The demo data's size (for benchmarks): TREASURY_API_SEED_SCALE (transaction volume, default 1, above 0 and at
 * most 1000) and TREASURY_API_SEED_COMPANIES / TREASURY_API_SEED_ACCOUNTS_PER_COMPANY (treasury-api/seed/size.ts);
 * `fail`s naming the variable when bad.
 */
async function demoSeed(env: Record<string, string | undefined>) {
  const scaleText = env.TREASURY_API_SEED_SCALE?.trim();
  const seedScale = scaleText ? Number(scaleText) : 1;
  if (!Number.isFinite(seedScale) || seedScale <= 0 || seedScale > 1000)
    fail(`TREASURY_API_SEED_SCALE must be a number above 0 and at most 1000, got "${scaleText}"`);
  const { seedSizeFromEnv } = await import("@treasury/api/seed/size");
  try {
    return { seedScale, seedSize: seedSizeFromEnv(env) };
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
}

/**
 * Starts the local Treasury API with its demo data and points `env` at it (base URL, Form B, the demo client's
 * credentials, demo mode, a kept NEXTAUTH_SECRET unless one is set). `fail`s naming the variable on a bad knob.
 * @returns the function that stops the API.
 */
async function startDemoApi(env: Record<string, string | undefined>): Promise<() => Promise<void>> {
  const { data, apiPort, perMinute, bankSpeed, simulatedBank } = demoKnobs(env);
  const { startServer, defaultSimulatedBank } = await import("@treasury/api/server");
  const creds = demoCredentials();
  const { configFromEnv } = await import("@treasury/api/config");
  let fromEnv: ReturnType<typeof configFromEnv>;
  try {
    fromEnv = configFromEnv(env);
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  const config = { ...fromEnv, allowPrivateWebhooks: true };
  const { seedScale, seedSize } = await demoSeed(env);
  const limits = perMinute ? { rateLimit: { limit: perMinute, windowSeconds: 60 } } : {};
  const api = await startServer({
    port: apiPort,
    host: "127.0.0.1",
    data,
    seed: "demo",
    seedScale,
    seedSize,
    log: false,
    config,
    ...limits,
    ...(bankSpeed ? { bankSpeed } : {}),
    simulatedBank: simulatedBank ?? defaultSimulatedBank({ data }),
  });
  env.TREASURY_API_BASE_URL = `${api.url}/public`;
  env.TREASURY_API_FORM = "B";
  env.TREASURY_CLIENT_ID = creds.clientId;
  env.TREASURY_CLIENT_SECRET = creds.clientSecret;
  env.DASHBOARD_DEMO = "1";
  env.NEXTAUTH_SECRET ??= demoSecret(env.DASHBOARD_DATA_DIR ?? ".data/dashboard");
  process.stdout.write(`Local Treasury API (demo data, ${data}): ${api.url}/public\n`);
  return api.close;
}

/**
 * Parses the dashboard's configuration before Next starts (docs/configuration.md) and prints what an IdP
 * administrator needs for single sign-on. On a bad or missing variable stops the demo API (`closeApi`) and `fail`s
 * with the message naming it; any other error is rethrown.
 */
async function checkConfig(env: Record<string, string | undefined>, closeApi?: () => Promise<void>): Promise<void> {
  try {
    const config = parseDashboardEnv(env);
    if (config.OIDC_ISSUER && config.NEXTAUTH_URL) {
      // What an IdP administrator needs to register the dashboard as a client.
      process.stdout.write(
        `Single sign-on: ${config.OIDC_ISSUER} (redirect URI: ` +
          `${config.NEXTAUTH_URL.replace(/\/+$/, "")}/api/auth/callback/oidc)\n`,
      );
    }
  } catch (err) {
    await closeApi?.();
    if (err instanceof ConfigError) fail(`${err.message}\n\nSee docs/configuration.md.`);
    throw err;
  }
}

/**
 * Demo mode: subscribes the dashboard's receiver (on `port`) to the local API's webhooks and keeps the secret in
 * `env.TREASURY_WEBHOOK_SECRET`, so bank rejections, failed bank connections and missing statements become
 * notifications (docs/users-and-notifications.md#webhooks-from-the-treasury-api). A failure is printed, not fatal.
 */
async function subscribeDemoWebhooks(env: Record<string, string | undefined>, port: string): Promise<void> {
  const receiver = `http://127.0.0.1:${port}${RECEIVER_PATH}`;
  try {
    const client = formBWebhookCalls(
      env.TREASURY_API_BASE_URL ?? "",
      env.TREASURY_CLIENT_ID ?? "",
      env.TREASURY_CLIENT_SECRET ?? "",
    );
    env.TREASURY_WEBHOOK_SECRET = (await subscribeReceiver(client, receiver)).secret;
    process.stdout.write(`Treasury API webhooks -> ${receiver}\n`);
  } catch (err) {
    process.stderr.write(`Webhook receiver not subscribed (${err instanceof Error ? err.message : String(err)})\n`);
  }
}

/**
 * Runs Next (`dev` or `start`) on `host`:`port` with `env`, warms it up, passes SIGINT / SIGTERM on once, and on
 * its exit stops the demo API (`closeApi`) and exits with Next's code.
 */
function runNext(
  mode: "dev" | "start",
  host: string,
  port: string,
  env: Record<string, string | undefined>,
  closeApi?: () => Promise<void>,
): void {
  // The dashboard's own bind address: GET /metrics serves without a token only when it is loopback
  // (lib/server/metrics-access.ts), never judged from request headers.
  env.HOSTNAME_BIND = host;
  const nextBin = path.join(process.cwd(), "node_modules", "next", "dist", "bin", "next");
  const child = spawn(process.execPath, [nextBin, ...nextArgs(mode, host, port)], {
    env: env as NodeJS.ProcessEnv,
    stdio: "inherit",
  });
  void warmUp(`http://${host}:${port}`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    child.kill(signal);
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  child.on("exit", (code, signal) => {
    void (async () => {
      await closeApi?.();
      process.exit(code ?? (signal ? 0 : 1));
    })();
  });
}

/** `tsx scripts/launch.ts dev|start` (module comment). */
async function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode !== "dev" && mode !== "start") fail("usage: tsx scripts/launch.ts dev|start");
  const port = process.env.PORT ?? "3000";
  const host = process.env.HOSTNAME_BIND ?? "127.0.0.1";
  const env: Record<string, string | undefined> = { NEXT_TELEMETRY_DISABLED: "1", ...process.env };
  const closeApi = env.TREASURY_API_BASE_URL?.trim() ? undefined : await startDemoApi(env);
  // Writes are accepted only from the dashboard's public URL (lib/bff/route.ts originAllowed). Without single sign-on
  // it defaults to the address the dashboard listens on; behind a proxy or another host name, set NEXTAUTH_URL.
  if (!env.NEXTAUTH_URL?.trim() && !env.OIDC_ISSUER?.trim()) {
    env.NEXTAUTH_URL = `http://${host}:${port}`;
    process.stdout.write(`Public URL ${env.NEXTAUTH_URL} (set NEXTAUTH_URL if people reach the dashboard elsewhere)\n`);
  }
  await checkConfig(env, closeApi);
  if (closeApi && !env.TREASURY_WEBHOOK_SECRET?.trim()) await subscribeDemoWebhooks(env, port);
  runNext(mode, host, port, env, closeApi);
}

main().catch((err: unknown) => fail(`Start failed: ${err instanceof Error ? err.message : String(err)}`));
