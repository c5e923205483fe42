/**
 * The treasury-api as a child process for benchmarks: the same CLI a user
 * runs (`npm run treasury-api`), so the load generator (autocannon, in this
 * process) never shares the server's event loop and inflates its latency.
 * Started by the crash tests' starter (treasury-api/test/child-server.ts) with
 * NODE_ENV=production, so no failpoint can be armed.
 */
import { startChildServer } from "@treasury/api/test/child-server";

export interface ServerProcess {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** SIGTERM and wait for a clean exit. */
  stop(): Promise<void>;
  /** stdout and stderr so far (with `requestLog`, one JSON line per request). */
  output(): string;
}

/**
 * Starts the CLI on a free loopback port against a data folder or a PostgreSQL URL, with no seeding unless
 * `extraArgs` say `--seed demo`; `requestLog` keeps the CLI's request log (one JSON line per request) in `output()`.
 */
export async function startServerProcess(
  target: { dataDir?: string; url?: string },
  extraArgs: string[] = [],
  opts: { requestLog?: boolean } = {},
): Promise<ServerProcess> {
  const child = await startChildServer(target.url ? { url: target.url } : { dataDir: target.dataDir ?? "memory" }, {
    args: extraArgs,
    env: { NODE_ENV: "production" },
    requestLog: opts.requestLog,
  });
  return { url: child.url, stop: () => child.stop(), output: () => child.output() };
}
