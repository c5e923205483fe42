/**
 * Opens the dashboard database and migrates it (issue 4 §4): embedded PGlite
 * in its own data folder (or in memory) by default, PostgreSQL through
 * node-postgres when `DATABASE_URL` is given. Same schema, same migrations.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import * as schema from "./schema";

/** The drizzle database type shared by both drivers. */
export type DashboardDb = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DashboardDatabase {
  db: DashboardDb;
  kind: "pglite" | "postgres";
  /** Closes the connection(s). Idempotent. */
  close(): Promise<void>;
}

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
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: 5 });
    await migratePg(drizzlePg(pool), { migrationsFolder: DASHBOARD_MIGRATIONS, migrationsTable: "__dashboard_migrations" });
    const db = drizzlePg(pool, { schema }) as unknown as DashboardDb;
    let closed = false;
    return {
      db,
      kind: "postgres",
      close: async () => {
        if (closed) return;
        closed = true;
        await pool.end();
      },
    };
  }
  const dir = opts.dataDir && opts.dataDir !== "memory" ? opts.dataDir : undefined;
  if (dir) mkdirSync(dir, { recursive: true });
  const client = dir ? new PGlite(dir) : new PGlite();
  await client.waitReady;
  await migratePglite(drizzlePglite(client), { migrationsFolder: DASHBOARD_MIGRATIONS, migrationsTable: "__dashboard_migrations" });
  const db = drizzlePglite(client, { schema }) as unknown as DashboardDb;
  let closed = false;
  return {
    db,
    kind: "pglite",
    close: async () => {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}
