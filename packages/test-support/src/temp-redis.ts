/**
 * A throw-away redis-server on loopback, for the Redis-mode tests: finds
 * Debian's `redis-server` binary, starts it on 127.0.0.1 on a free port with
 * no persistence (`--save "" --appendonly no`), waits until it answers, and
 * can kill it (SIGKILL, to test an outage) or stop it.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { connect } from "node:net";
import { freePort } from "./free-port";

export interface TempRedis {
  /** redis://127.0.0.1:PORT */
  url: string;
  port: number;
  /** kill -9: the server vanishes without a goodbye, as in a crash. */
  kill(): void;
  stop(): Promise<void>;
}

/** The redis-server binary, or null when it is not installed. */
export function findRedisServer(): string | null {
  const which = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" });
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
  return existsSync("/usr/bin/redis-server") ? "/usr/bin/redis-server" : null;
}

/** True once a PING on `port` is answered with PONG. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, "127.0.0.1");
    s.setTimeout(500);
    s.once("connect", () => s.write("PING\r\n"));
    s.once("data", (d) => {
      resolve(d.toString().startsWith("+PONG"));
      s.destroy();
    });
    s.once("error", () => resolve(false));
    s.once("timeout", () => {
      resolve(false);
      s.destroy();
    });
  });
}

/**
 * Starts a server (within 10 s) on `port` (default: a free one; give the old one to restart after `kill`).
 * @throws when redis-server is not installed or does not answer.
 */
export async function startTempRedis(port?: number): Promise<TempRedis> {
  const bin = findRedisServer();
  if (!bin) throw new Error("redis-server not found (install Debian's redis-server package)");
  port ??= await freePort();
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
  const child: ChildProcess = spawn(bin, args, { stdio: "ignore" });
  const deadline = Date.now() + 10_000;
  while (!(await pings(port as number))) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill("SIGKILL");
      throw new Error(`redis-server did not start on port ${port}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: () => void child.kill("SIGKILL"),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
