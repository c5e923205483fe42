/**
 * The databases a benchmark runs against: embedded PGlite in a temp data
 * folder, and a throw-away PostgreSQL cluster (Debian's binaries, via
 * packages/test-support/src/temp-postgres.ts: initdb as the `postgres` user when running as
 * root, 127.0.0.1 on a free port). Both are removed by the cleanup registry.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { findPostgresBin, startTempPostgres } from "@treasury/test-support/temp-postgres";
import { onCleanup } from "./cleanup";

export type DbKind = "pglite" | "postgres";

/** Where the server and the seeder find a database. */
export interface BenchDatabase {
  kind: DbKind;
  /** PGlite data folder (PGlite only). */
  dataDir?: string;
  /** Connection URL (PostgreSQL only). */
  url?: string;
  /** What it is, for the report. */
  description: string;
  /** Stops / removes it. */
  dispose(): Promise<void>;
}

/** True when PostgreSQL's initdb / pg_ctl are installed. */
export function postgresAvailable(): string | null {
  return findPostgresBin();
}

/** A fresh database of `kind`. @throws when PostgreSQL is missing or does not start. */
export async function createBenchDatabase(kind: DbKind): Promise<BenchDatabase> {
  if (kind === "pglite") {
    const dir = mkdtempSync(path.join(os.tmpdir(), "treasury-bench-pglite-"));
    const dispose = onCleanup(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
    return { kind, dataDir: dir, description: `PGlite (data folder ${dir})`, dispose };
  }
  const bin = findPostgresBin();
  const pg = await startTempPostgres();
  const dispose = onCleanup("stop temp PostgreSQL", () => pg.stop());
  return {
    kind,
    url: pg.url,
    description: `PostgreSQL (${bin ?? "?"}, temp cluster ${pg.url.replace(/^postgres:\/\/[^@]*@/, "")})`,
    dispose,
  };
}
