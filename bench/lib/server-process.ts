/**
 * The treasury-api as a child process for benchmarks: the same CLI a user
 * runs (`npm run treasury-api`), so the load generator (autocannon, in this
 * process) never shares the server's event loop and inflates its latency.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface ServerProcess {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** SIGTERM and wait for a clean exit. */
  stop(): Promise<void>;
}

/** Starts the CLI on a free loopback port against a data folder or a PostgreSQL URL, with no seeding. */
export async function startServerProcess(target: { dataDir?: string; url?: string }, extraArgs: string[] = []): Promise<ServerProcess> {
  const args = ["treasury-api/server.ts", "--port", "0", "--host", "127.0.0.1", "--seed", "none", "--quiet", ...extraArgs];
  if (!target.url) args.push("--data", target.dataDir ?? "memory");
  const child = spawn(path.join(ROOT, "node_modules", ".bin", "tsx"), args, {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: target.url ?? "", NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on (http:\/\/[^\s]+)\/public/.exec(out);
      if (m?.[1]) {
        clearInterval(timer);
        resolve(m[1]);
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`treasury-api exited (${code}) before listening: ${out.slice(-500)}`));
    });
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      const timeout = setTimeout(() => child.kill("SIGKILL"), 20_000);
      await exited;
      clearTimeout(timeout);
    },
  };
}
