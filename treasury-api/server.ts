/**
 * The local Treasury API server and its CLI.
 *
 *   npm run treasury-api -- [--port 4010] [--host 127.0.0.1] [--data DIR|memory]
 *                           [--seed demo|none] [--seed-scale N] [--seed-companies N]
 *                           [--seed-accounts-per-company M] [--rate-limit N]
 *                           [--bank-speed instant|fast|realistic|manual] [--quiet]
 *                           [--simulated-bank folder|direct]
 *                           [--allow-private-webhooks] [--trust-proxy]
 *                           [--four-eyes-threshold EUR=100000,NOK=1000000,...] [--workers N]
 *   npm run treasury-api -- import-statements --data DIR --company ID [--dry-run] [--json] [--accept-inconsistent]
 *     FILE...   (camt, MT940, MT942, BAI2; alias: import-camt053)
 *   npm run treasury-api -- --help            (or -h: the usage, exit 0)
 *
 * A new data folder is seeded with demo data by default and gets
 * `demo-fixtures.json` (for `memory` the fixtures are printed). `DATABASE_URL`
 * switches from PGlite to PostgreSQL; `TREASURY_API_ALLOW_PRIVATE_WEBHOOKS=1`
 * and `TRUST_PROXY=1` do what the flags of the same meaning do, and
 * `TREASURY_API_FOUR_EYES_THRESHOLD` what `--four-eyes-threshold` does (the flag wins); `METRICS_TOKEN` (16+
 * characters) lets a non-loopback scraper read `GET /metrics` as a bearer token. Webhook secrets are encrypted at rest
 * with `TREASURY_API_SECRET_KEY`, else with a key kept in the data folder's
 * `secret-key` file (lib/secret-box.ts). Ctrl-C / SIGTERM: stop accepting, finish
 * in-flight requests, stop workers, close the database.
 *
 * `--workers N` (docs/operations.md#worker-processes): N server processes on one port (node:cluster). The primary
 * migrates, seeds and prepares the secrets, then forks; each process serves requests and runs the background workers,
 * whose claims in the database (`FOR UPDATE SKIP LOCKED`, unique keys) keep work from running twice. Default: the
 * number of cores with PostgreSQL, 1 with PGlite (one process only).
 */
import cluster from "node:cluster";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serve, type ServerType } from "@hono/node-server";
import { eq } from "drizzle-orm";
import pino from "pino";
import { createApp } from "./app";
import { configFromEnv, resolveConfig, type AppConfig, type BankSpeed } from "./config";
import { parseFourEyesThresholds } from "./domain/four-eyes";
import { openDatabase, type Database } from "./db/client";
import { meta } from "./db/schema";
import { prepareSecretsAtRest, resolveSecretKey } from "./lib/secret-box";
import { seedDemo, writeDemoFixtures, type DemoFixtures } from "./seed";
import { resolveSeedSize, type SeedSize } from "./seed/size";
import { startWorkers, type Workers } from "./workers";
import { FOLDER_BANK_CONFIG } from "./bank/folder-bank";
import { wireDemoFolderBank } from "./bank/demo-wiring";
import { BANK_PACE } from "./domain/bank-simulator";

export interface ServerOptions {
  port: number;
  host: string;
  /** PGlite data folder, or "memory". Ignored when `databaseUrl` is set. */
  data: string;
  databaseUrl?: string;
  seed: "demo" | "none";
  seedScale: number;
  /** Organisation size of the demo seed (default: the demo's; see seed/size.ts). */
  seedSize?: SeedSize;
  rateLimit?: { limit: number; windowSeconds: number };
  bankSpeed?: BankSpeed;
  /**
   * Which simulated bank answers the demo's payments (docs/bank-channels.md "The simulated bank behind a channel"):
   * `folder` — the demo seed creates a folder connection per company under `<data>/bank` and the folder bank answers
   * through it (a temporary folder for `memory`); `direct` — no connection, the direct simulator writes into the
   * database. Default here `direct` (tests); the CLI and `npm run dev` default to `defaultSimulatedBank`.
   */
  simulatedBank?: SimulatedBank;
  /** Structured JSON request log on stdout (default true for the CLI, false in tests). */
  log?: boolean;
  config?: Partial<AppConfig>;
}

/** The two simulated banks (`--simulated-bank`). */
export type SimulatedBank = "folder" | "direct";

/**
 * The simulated bank the CLI and `npm run dev` use when none is named: `folder` for a data folder or PostgreSQL,
 * `direct` for a throw-away `memory` database (the e2e servers; docs/bank-channels.md says why).
 */
export function defaultSimulatedBank(opts: Pick<ServerOptions, "data" | "databaseUrl">): SimulatedBank {
  return opts.data === "memory" && !opts.databaseUrl ? "direct" : "folder";
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:4010 — the API's base address is `${url}/public`. */
  url: string;
  database: Database;
  /** Demo fixtures when this start seeded the database, else null. */
  fixtures: Awaited<ReturnType<typeof seedDemo>> | null;
  close(): Promise<void>;
}

/**
 * Opens the database (migrating it), seeds it when it is new and `opts.seed` is `demo`, and prepares the secrets at
 * rest: what `startServer` does before it listens, and what the primary of `--workers N` does before it forks.
 * @returns the open database, the fixtures when this call seeded, and the secret key
 * @throws when the secret key cannot be resolved (the database is closed first)
 */
export async function prepareDatabase(opts: ServerOptions): Promise<{
  database: Database;
  fixtures: RunningServer["fixtures"];
  secretKey: Buffer;
  /** The folder bank's folder when it has a configuration there, else null; `temporary` when made for `memory`. */
  folderBank: { dir: string; temporary: boolean } | null;
}> {
  const database = await openDatabase(opts.databaseUrl ? { url: opts.databaseUrl } : { dataDir: opts.data });
  let fixtures: RunningServer["fixtures"] = null;
  const [seeded] = await database.db.select().from(meta).where(eq(meta.key, "seed"));
  if (!seeded && opts.seed === "demo") {
    fixtures = await seedDemo(database, {
      scale: opts.seedScale,
      ...(opts.seedSize ? { size: opts.seedSize } : {}),
    });
    if (!opts.databaseUrl && opts.data !== "memory") writeDemoFixtures(opts.data, fixtures);
  }
  let secretKey: Buffer;
  let folderBank: { dir: string; temporary: boolean } | null = null;
  try {
    // With PostgreSQL and no TREASURY_API_SECRET_KEY the key file still lives in the --data folder.
    secretKey = opts.config?.secretKey ?? resolveSecretKey(process.env, opts.data).key;
    await prepareSecretsAtRest(database.db, secretKey);
    if (opts.simulatedBank === "folder") {
      // The demo's bank behind a folder channel: wired when the demo seed runs, and recorded in the database (meta
      // `folder_bank`), so that a server on a database the demo seed did not wire never runs a bank found on disk.
      const temporary = opts.data === "memory";
      if (fixtures) {
        const dir = temporary
          ? mkdtempSync(path.join(tmpdir(), "treasury-demo-bank-"))
          : path.resolve(opts.data, "bank");
        await wireDemoFolderBank(database.db, dir, secretKey);
        await database.db.insert(meta).values({ key: "folder_bank", value: { dir } }).onConflictDoNothing();
      }
      const [wired] = await database.db.select().from(meta).where(eq(meta.key, "folder_bank"));
      const dir = (wired?.value as { dir?: string } | undefined)?.dir;
      if (dir && existsSync(path.join(dir, FOLDER_BANK_CONFIG))) folderBank = { dir, temporary };
    }
  } catch (err) {
    await database.close();
    throw err;
  }
  return { database, fixtures, secretKey, folderBank };
}

/** Opens (and if new, seeds) the database, starts workers and listens. */
export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const logger = opts.log ? pino({ base: { service: "treasury-api" } }) : null;
  const { database, fixtures, secretKey, folderBank } = await prepareDatabase(opts);
  const config = resolveConfig({
    ...opts.config,
    secretKey,
    ...(opts.rateLimit ? { rateLimit: opts.rateLimit } : {}),
    ...(opts.bankSpeed ? { bankSpeed: opts.bankSpeed } : {}),
  });
  if (folderBank) {
    // The folder bank answers at the bank's pace; the API pulls and pushes as often as the bank ticks (5 s at most).
    config.folderBankDir = folderBank.dir;
    config.bankChannelPollMs = Math.min(config.bankChannelPollMs, BANK_PACE[config.bankSpeed].tickMs ?? 5_000);
  }
  const app = createApp({ database, config, logger });
  const workers: Workers = startWorkers({ database, config, logger });

  const inFlight = new Set<Promise<unknown>>();
  let server: ServerType | undefined;
  const url = await new Promise<string>((resolve, reject) => {
    server = serve(
      {
        fetch: (req, env) => {
          const p = Promise.resolve(app.fetch(req, env));
          inFlight.add(p);
          void p.finally(() => inFlight.delete(p)).catch(() => undefined);
          return p;
        },
        port: opts.port,
        hostname: opts.host,
      },
      (info) => resolve(`http://${opts.host.includes(":") ? `[${opts.host}]` : opts.host}:${info.port}`),
    );
    server.once("error", reject);
    // Idle keep-alive connections stay open 65 s, longer than clients and load balancers keep theirs, so a client
    // never sends on a socket the server is closing at that moment (docs/operations.md, "Keep-alive").
    if ("keepAliveTimeout" in server) {
      server.keepAliveTimeout = 65_000;
      server.headersTimeout = 66_000;
    }
  });

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      await new Promise<void>((resolve) => {
        if (!server) return resolve();
        server.close(() => resolve());
        // Idle keep-alive sockets would hold close() open; in-flight requests still finish.
        if ("closeIdleConnections" in server && typeof server.closeIdleConnections === "function")
          server.closeIdleConnections();
      });
      await Promise.allSettled([...inFlight]);
      await workers.stop();
      await database.close();
      if (folderBank?.temporary) rmSync(folderBank.dir, { recursive: true, force: true });
    })();
    return closing;
  };
  return { url, database, fixtures, close };
}

interface CliArgs {
  command: "serve" | "import-statements";
  opts: ServerOptions;
  rest: string[];
  /** Server processes (`--workers`; `resolveWorkers`). */
  workers: number;
}

/**
 * The number of server processes: `--workers` when given, else the number of cores with PostgreSQL and 1 with
 * PGlite. @throws Error naming `--workers` for more than one process on PGlite (it is one process only).
 */
export function resolveWorkers(flag: number | undefined, databaseUrl: string | undefined): number {
  if (flag === undefined) return databaseUrl ? availableParallelism() : 1;
  if (flag > 1 && !databaseUrl)
    throw new Error("--workers above 1 needs PostgreSQL (DATABASE_URL): PGlite is one process only");
  return flag;
}

const USAGE =
  "usage: npm run treasury-api -- [--port 4010] [--host 127.0.0.1] [--data DIR|memory] [--seed demo|none] " +
  "[--seed-scale N] [--seed-companies N] [--seed-accounts-per-company M] [--rate-limit N] [--bank-speed instant|fast|realistic|manual] [--quiet]\n" +
  "                           [--simulated-bank folder|direct  (default folder; direct for --data memory)]\n" +
  "                           [--allow-private-webhooks] [--trust-proxy]\n" +
  "                           [--four-eyes-threshold EUR=100000,NOK=1000000,...  (*=N: other currencies)]\n" +
  "                           [--workers N  (server processes on one port; default: cores with PostgreSQL, 1 with PGlite)]\n" +
  "       npm run treasury-api -- import-statements --company ID FILE...   (camt.052/053/054, MT940, MT942, BAI2; " +
  "[--data DIR] [--dry-run] [--json] [--accept-inconsistent]; alias: import-camt053 --company ID FILE...)\n" +
  "       npm run treasury-api -- --help\n";

function usage(message: string): never {
  process.stderr.write(`treasury-api: ${message}\n${USAGE}`);
  process.exit(2);
}

/** `--help` / `-h`: the usage on stdout, exit 0. */
function help(): never {
  process.stdout.write(
    `${USAGE}\nStarts the local Treasury API (base address http://HOST:PORT/public, OpenAPI document at ` +
      `/public/openapi.json);\n` +
      "a new data folder is seeded with demo data. DATABASE_URL selects PostgreSQL instead of the embedded PGlite.\n",
  );
  process.exit(0);
}

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** What the flags set while they are parsed. */
interface FlagState {
  opts: ServerOptions;
  sizeValues: { companies?: string; accountsPerCompany?: string };
  workersFlag?: number;
}

/**
 * One flag's effect on the parse state; `value()` takes the flag's value (exits with usage when there is none). A
 * bad value exits with a message naming the flag.
 */
type FlagHandler = (state: FlagState, value: () => string) => void;

/** The server's flags (docs/configuration.md), each with how it is checked and what it sets. */
const FLAGS: Record<string, FlagHandler> = {
  "--port": ({ opts }, value) => {
    const p = Number(value());
    if (!Number.isInteger(p) || p < 0 || p > 65535) usage("--port must be 0..65535");
    opts.port = p;
  },
  "--host": ({ opts }, value) => {
    opts.host = value();
  },
  "--data": ({ opts }, value) => {
    opts.data = value();
  },
  "--seed": ({ opts }, value) => {
    const s = value();
    if (s !== "demo" && s !== "none") usage("--seed must be demo or none");
    opts.seed = s;
  },
  "--seed-scale": ({ opts }, value) => {
    const n = Number(value());
    if (!Number.isFinite(n) || n <= 0 || n > 1000) usage("--seed-scale must be a number from 0 to 1000");
    opts.seedScale = n;
  },
  "--seed-companies": ({ sizeValues }, value) => {
    sizeValues.companies = value();
  },
  "--seed-accounts-per-company": ({ sizeValues }, value) => {
    sizeValues.accountsPerCompany = value();
  },
  "--rate-limit": ({ opts }, value) => {
    const n = Number(value());
    if (!Number.isInteger(n) || n < 1) usage("--rate-limit must be a positive whole number (requests per 60 s)");
    opts.rateLimit = { limit: n, windowSeconds: 60 };
  },
  "--bank-speed": ({ opts }, value) => {
    const s = value();
    if (!["instant", "fast", "realistic", "manual"].includes(s))
      usage("--bank-speed must be instant, fast, realistic or manual");
    opts.bankSpeed = s as BankSpeed;
  },
  "--simulated-bank": ({ opts }, value) => {
    const s = value();
    if (s !== "folder" && s !== "direct") usage("--simulated-bank must be folder or direct");
    opts.simulatedBank = s;
  },
  "--quiet": ({ opts }) => {
    opts.log = false;
  },
  // Development only: webhooks may use http and reach loopback / private addresses.
  "--allow-private-webhooks": (state) => {
    state.opts.config = { ...state.opts.config, allowPrivateWebhooks: true };
  },
  "--trust-proxy": (state) => {
    state.opts.config = { ...state.opts.config, trustProxy: true };
  },
  "--four-eyes-threshold": (state, value) => {
    const v = value();
    try {
      state.opts.config = { ...state.opts.config, fourEyesThresholds: parseFourEyesThresholds(v) };
    } catch (err) {
      usage(`--four-eyes-threshold: ${err instanceof Error ? err.message : String(err)}`);
    }
  },
  "--workers": (state, value) => {
    const n = Number(value());
    if (!Number.isInteger(n) || n < 1 || n > 256) usage("--workers must be a whole number from 1 to 256");
    state.workersFlag = n;
  },
};

/** `fn()`'s answer; exits with usage and its error's message when it throws. */
function orUsage<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    usage(err instanceof Error ? err.message : String(err));
  }
}

/** Parses the CLI flags ({@link FLAGS}); exits with a message naming the bad flag. */
export function parseArgs(argv: string[]): CliArgs {
  const opts: ServerOptions = {
    port: 4010,
    host: "127.0.0.1",
    data: path.join(REPO_ROOT, ".data", "treasury-api"),
    databaseUrl: process.env.DATABASE_URL || undefined,
    seed: "demo",
    seedScale: 1,
    log: true,
  };
  opts.config = orUsage(() => configFromEnv(process.env));
  let command: CliArgs["command"] = "serve";
  const rest: string[] = [];
  const state: FlagState = { opts, sizeValues: {} };
  const args = [...argv];
  if (args[0] === "import-statements" || args[0] === "import-camt053") {
    command = "import-statements";
    args.shift();
  }
  while (args.length) {
    const a = args.shift() as string;
    const value = () => {
      const v = args.shift();
      if (v === undefined) usage(`${a} needs a value`);
      return v;
    };
    const flag = Object.hasOwn(FLAGS, a) ? FLAGS[a] : undefined;
    if (flag) flag(state, value);
    else if (a === "--help" || a === "-h") {
      // The import command prints its own usage.
      if (command === "serve") help();
      rest.push(a);
    } else {
      if (a.startsWith("--") && command === "serve") usage(`unknown flag ${a}`);
      rest.push(a);
    }
  }
  opts.simulatedBank ??= defaultSimulatedBank(opts);
  opts.seedSize = orUsage(() => resolveSeedSize(state.sizeValues, process.env));
  const workers = orUsage(() => resolveWorkers(state.workersFlag, opts.databaseUrl));
  return { command, opts, rest, workers };
}

/** The message a cluster worker sends its primary once it listens. */
interface ListeningMessage {
  type: "treasury-api:listening";
  url: string;
}

/** A cluster worker (`--workers` above 1): the server on the port the primary shares, no seeding (the primary did). */
async function runClusterWorker(opts: ServerOptions): Promise<void> {
  const running = await startServer({ ...opts, seed: "none" });
  process.send?.({ type: "treasury-api:listening", url: running.url } satisfies ListeningMessage);
  const shutdown = () =>
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`treasury-api: worker ${process.pid}: shutdown failed: ${String(err)}\n`);
        process.exit(1);
      },
    );
  process.once("SIGINT", () => undefined); // the primary decides; it sends SIGTERM
  process.once("SIGTERM", shutdown);
}

/**
 * The primary of `--workers N` (docs/operations.md#worker-processes): migrates, seeds and prepares the secrets, then
 * forks N workers on one port and says so once all listen. A worker that dies is replaced; Ctrl-C / SIGTERM is passed
 * to every worker (each finishes its requests and stops its background work at a safe point) and the primary exits
 * when all have. A worker that ends before all listen ends the start (exit 1).
 */
async function runPrimary(opts: ServerOptions, workers: number, isNew: boolean, where: string): Promise<void> {
  const { database, fixtures } = await prepareDatabase(opts);
  await database.close();
  // Forked workers start with seed none: they find the folder bank the primary wired in the data folder.
  let stopping = false;
  const listening = new Map<number, string>();
  let announced = false;
  const fork = () => {
    const w = cluster.fork();
    w.on("message", (m: ListeningMessage) => {
      if (m?.type !== "treasury-api:listening") return;
      listening.set(w.id, m.url);
      if (announced || listening.size < workers) return;
      announced = true;
      process.stdout.write(
        `treasury-api listening on ${m.url}/public (data: ${where}${isNew ? ", new" : ""}; ${workers} worker ` +
          `processes, node:cluster)\n`,
      );
      if (fixtures) process.stdout.write(announceFixtures(opts, fixtures));
    });
  };
  cluster.on("exit", (w, code, signal) => {
    listening.delete(w.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    if (!announced) {
      // A worker that cannot start (port taken, database gone) would fail again: stop rather than fork forever.
      process.stderr.write(`treasury-api: worker ${w.process.pid} ended (${signal ?? code}) before listening\n`);
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill("SIGTERM");
      process.exit(1);
    }
    process.stderr.write(`treasury-api: worker ${w.process.pid} ended (${signal ?? code}); starting another\n`);
    fork();
  });
  process.stdout.write(`treasury-api: starting ${workers} worker processes (PostgreSQL)\n`);
  for (let i = 0; i < workers; i++) fork();
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`treasury-api: ${signal}, shutting down ${workers} worker processes\n`);
    const alive = Object.values(cluster.workers ?? {});
    if (alive.length === 0) process.exit(0);
    for (const w of alive) w?.process.kill("SIGTERM");
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
}

async function main(): Promise<void> {
  const { command, opts, rest, workers } = parseArgs(process.argv.slice(2));
  if (command === "import-statements") {
    const { runImportCli } = await import("./import/cli");
    const database = await openDatabase(opts.databaseUrl ? { url: opts.databaseUrl } : { dataDir: opts.data });
    try {
      process.exitCode = await runImportCli(database.db, rest);
    } finally {
      await database.close();
    }
    return;
  }
  if (cluster.isWorker) return runClusterWorker(opts);
  const isNew = !opts.databaseUrl && opts.data !== "memory" && !existsSync(path.join(opts.data, "PG_VERSION"));
  const where = opts.databaseUrl ? "PostgreSQL (DATABASE_URL)" : opts.data === "memory" ? "memory" : opts.data;
  if (workers > 1) return runPrimary(opts, workers, isNew, where);
  const running = await startServer(opts);
  const one = opts.databaseUrl ? "1 process (--workers 1)" : "1 process: PGlite is single-process";
  process.stdout.write(
    `treasury-api listening on ${running.url}/public (data: ${where}${isNew ? ", new" : ""}; ${one})\n`,
  );
  if (running.fixtures) process.stdout.write(announceFixtures(opts, running.fixtures));
  const shutdown = (signal: string) => {
    process.stdout.write(`treasury-api: ${signal}, shutting down\n`);
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`treasury-api: shutdown failed: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
}

/**
 * What the CLI prints after seeding demo data, never a demo client's secret (the log may be collected):
 * - PostgreSQL (`databaseUrl`): the fixtures, secrets included, are written to `<data>/demo-fixtures.json` (the folder
 *   that also holds the key file) and the text says where;
 * - `memory`: the fixtures without the clients' secrets, and where the secrets are (treasury-api/seed/demo-clients.ts);
 * - a data folder: where `startServer` wrote the fixtures file.
 * @returns the text to print (ends with a newline)
 */
export function announceFixtures(opts: { databaseUrl?: string; data: string }, fixtures: DemoFixtures): string {
  if (opts.data === "memory") {
    const shown = { ...fixtures, clients: fixtures.clients.map(({ client_secret: _secret, ...rest }) => rest) };
    return (
      `${JSON.stringify(shown, null, 2)}\n` + "demo client secrets: treasury-api/seed/demo-clients.ts (not printed)\n"
    );
  }
  const file = opts.databaseUrl ? writeDemoFixtures(opts.data, fixtures) : path.join(opts.data, "demo-fixtures.json");
  return `demo fixtures (client ids and secrets included) written to ${file}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`treasury-api: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
