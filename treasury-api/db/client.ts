/**
 * Opens the treasury-api database and applies the migrations at start:
 * embedded PGlite in a data folder (or in memory) by default,
 * PostgreSQL through node-postgres when a connection URL is given. Same
 * schema, same migrations on both.
 */
import { fileURLToPath } from "node:url";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { SQL } from "drizzle-orm";
import { openMigratedDatabase, type MigratedDatabase } from "@treasury/contract/sql/open-database";
import * as schema from "./schema";

/** The drizzle database type shared by both drivers. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction handle or the database itself: repositories accept either. */
export type DbOrTx = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The open treasury-api database: `db`, `kind`, `exec(sql)`, `close()`. */
export type Database = MigratedDatabase<typeof schema>;

export interface OpenOptions {
  /** PostgreSQL connection URL; when set, PGlite is not used. */
  url?: string;
  /** PGlite data folder, or "memory" for an in-memory database. */
  dataDir?: string;
  /** Pool size for PostgreSQL (default 10). */
  poolSize?: number;
  /** PostgreSQL only: called when the server drops an idle connection (default: a line on stderr). */
  onIdleError?: (err: Error) => void;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL("./migrations", import.meta.url));

/**
 * Opens the database and migrates it to the latest schema.
 * @throws when the database cannot be reached or a migration fails.
 */
export async function openDatabase(opts: OpenOptions = {}): Promise<Database> {
  return openMigratedDatabase(schema, { ...opts, migrationsFolder: MIGRATIONS_FOLDER });
}

/**
 * Runs a raw SQL query and returns its rows, typed by the caller. Both
 * drivers answer `{ rows }`; this hides the driver-specific result type.
 */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}
