/**
 * The treasury-api as a real child process for crash tests: the CLI
 * (`node --import tsx treasury-api/server.ts`) on a free loopback port against a
 * file-backed PGlite folder or a PostgreSQL URL, no seeding (tests insert the
 * harness fixture first), failpoints armed through the environment
 * (`treasury-api/lib/failpoints.ts`). It runs with NODE_ENV=test by default
 * (failpoints are inert in production) and reports how the process ended, so a
 * test can wait for a SIGKILL it provoked. The benchmarks start their server
 * through it too (bench/lib/server-process.ts, NODE_ENV=production).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CLIENTS, type ClientKey } from "./harness";
import { clientToken } from "./loopback";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Where the child keeps its data: a PGlite folder or a PostgreSQL URL. */
export type ChildTarget = { dataDir: string } | { url: string };

export interface ChildServer {
  /** e.g. http://127.0.0.1:41234 (the API is under /public). */
  url: string;
  /** Resolves with the exit code and signal once the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** stdout and stderr so far. */
  output(): string;
  /** SIGTERM (clean shutdown) and wait; SIGKILL after 20 s. */
  stop(): Promise<void>;
  /** SIGKILL from outside (kill -9) and wait. */
  kill(): Promise<void>;
}

export interface ChildOptions {
  /** Failpoints to arm (`TREASURY_API_FAILPOINT`), e.g. "idempotency.after-commit" or "bank.after-step@3". */
  failpoint?: string;
  /** Extra CLI flags, e.g. ["--bank-speed", "instant"]; without `--workers` in them the server is one process. */
  args?: string[];
  /** Extra environment. */
  env?: Record<string, string>;
  /** Keep the CLI's JSON request log on stdout (read it through `output()`); default off (`--quiet`). */
  requestLog?: boolean;
}

/**
 * Starts the server and resolves once it listens.
 * @throws when the process exits before listening (the message carries its output).
 */
export async function startChildServer(target: ChildTarget, opts: ChildOptions = {}): Promise<ChildServer> {
  const args = [
    "treasury-api/server.ts",
    "--port",
    "0",
    "--host",
    "127.0.0.1",
    "--seed",
    "none",
    ...(opts.requestLog ? [] : ["--quiet"]),
    ...(opts.args ?? []),
  ];
  // One process unless asked: a failpoint's SIGKILL then ends the server itself (a cluster primary would fork anew).
  if (!args.includes("--workers")) args.push("--workers", "1");
  if ("dataDir" in target) args.push("--data", target.dataDir);
  // `node --import tsx` rather than the tsx binary: the spawned pid is the server itself, so a SIGKILL (ours or a
  // failpoint's) ends the server, and the exit reports that signal.
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "test",
      DATABASE_URL: "url" in target ? target.url : "",
      TREASURY_API_TEST_FAILPOINTS: opts.failpoint ? "1" : "",
      TREASURY_API_FAILPOINT: opts.failpoint ?? "",
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on (http:\/\/[^\s]+)\/public/.exec(out);
      if (m?.[1]) {
        clearInterval(timer);
        resolve(m[1]);
      }
    }, 25);
    void exited.then(({ code, signal }) => {
      clearInterval(timer);
      reject(new Error(`treasury-api exited (${code ?? signal}) before listening: ${out.slice(-2000)}`));
    });
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    url,
    exited,
    output: () => out,
    stop: async () => {
      if (!running()) return;
      child.kill("SIGTERM");
      const timeout = setTimeout(() => child.kill("SIGKILL"), 20_000);
      await exited;
      clearTimeout(timeout);
    },
    kill: async () => {
      if (!running()) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
}

/** A Form B access token of a harness client with every scope it has. */
export async function childToken(base: string, client: ClientKey = "fullB"): Promise<string> {
  return clientToken(base, CLIENTS[client].clientId, CLIENTS[client].secret);
}
