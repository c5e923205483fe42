/**
 * A throw-away PostgreSQL cluster on loopback, for benchmarks and the
 * `DATABASE_URL` tests: finds Debian's PostgreSQL binaries, runs `initdb` in a
 * temp folder (as the `postgres` user when running as root, since initdb
 * refuses root), starts it on 127.0.0.1 on a free port and removes it on stop.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./free-port";

export interface TempPostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  stop(): Promise<void>;
}

/** The folder holding initdb / pg_ctl, or null when PostgreSQL is not installed. */
export function findPostgresBin(): string | null {
  const which = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" });
  if (which.status === 0 && which.stdout.trim()) return path.dirname(which.stdout.trim());
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(path.join(base, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], "bin") : null;
}

/**
 * Starts a cluster. `settings` are extra `-c name=value` server settings.
 * @throws when PostgreSQL is not installed or does not start.
 */
export async function startTempPostgres(settings: Record<string, string> = {}): Promise<TempPostgres> {
  const bin = findPostgresBin();
  if (!bin) throw new Error("PostgreSQL binaries not found (install Debian's postgresql package)");
  const dir = mkdtempSync(path.join(os.tmpdir(), "treasury-pg-"));
  const data = path.join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    if (asRoot) execFileSync("runuser", ["-u", "postgres", "--", path.join(bin, cmd), ...args], { stdio: "pipe" });
    else execFileSync(path.join(bin, cmd), args, { stdio: "pipe" });
  };
  if (asRoot) {
    chmodSync(dir, 0o755);
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
  }
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const opts = [
    `-h 127.0.0.1`,
    `-p ${port}`,
    `-k ${dir}`,
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`),
  ].join(" ");
  run("pg_ctl", ["-D", data, "-o", opts, "-l", path.join(dir, "log"), "-w", "-t", "60", "start"]);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      try {
        run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
