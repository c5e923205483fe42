/**
 * Opens the dashboard database and migrates it: embedded PGlite
 * in its own data folder (or in memory) by default, PostgreSQL through
 * node-postgres when `DATABASE_URL` is given. Same schema, same migrations.
 */
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { openMigratedDatabase, type MigratedDatabase } from "@treasury/contract/sql/open-database";
import * as schema from "./schema";

/** The drizzle database type shared by both drivers. */
export type DashboardDb = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The open dashboard database: `db`, `kind`, `close()`. */
export type DashboardDatabase = MigratedDatabase<typeof schema>;

export interface OpenDashboardOptions {
  /** PostgreSQL connection URL; when set, PGlite is not used. */
  url?: string;
  /** PGlite data folder, or "memory". */
  dataDir?: string;
}

/**
 * Migrations live next to this file. `process.cwd()` is used rather than
 * `import.meta.url` because Next bundles this module into `.next/`, where a
 * relative URL would no longer point at the source tree; every entry point
 * (Next, the launchers, vitest, the users CLI) runs from the repository root.
 */
export const DASHBOARD_MIGRATIONS = path.join(process.cwd(), "lib", "db", "migrations");

/**
 * Opens the dashboard database and applies its migrations.
 * @throws when the database cannot be reached or a migration fails.
 */
export async function openDashboardDb(opts: OpenDashboardOptions = {}): Promise<DashboardDatabase> {
  return openMigratedDatabase(schema, {
    ...opts,
    poolSize: 5,
    migrationsFolder: DASHBOARD_MIGRATIONS,
    migrationsTable: "__dashboard_migrations",
  });
}
