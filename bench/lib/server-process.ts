/**
 * The treasury-api as a child process for benchmarks: the same CLI a user
 * runs (`npm run treasury-api`), so the load generator (autocannon, in this
 * process) never shares the server's event loop and inflates its latency.
 * Started by the crash tests' starter (treasury-api/test/child-server.ts) with
 * NODE_ENV=production, so no failpoint can be armed.
 */
import { startChildServer } from "../../treasury-api/test/child-server";

export interface ServerProcess {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** SIGTERM and wait for a clean exit. */
  stop(): Promise<void>;
}

/** Starts the CLI on a free loopback port against a data folder or a PostgreSQL URL, with no seeding. */
export async function startServerProcess(
  target: { dataDir?: string; url?: string },
  extraArgs: string[] = [],
): Promise<ServerProcess> {
  const child = await startChildServer(target.url ? { url: target.url } : { dataDir: target.dataDir ?? "memory" }, {
    args: extraArgs,
    env: { NODE_ENV: "production" },
  });
  return { url: child.url, stop: () => child.stop() };
}
