/**
 * Opens the treasury-api database and applies the migrations at start
 * (issue 2 §4): embedded PGlite in a data folder (or in memory) by default,
 * PostgreSQL through node-postgres when a connection URL is given. Same
 * schema, same migrations on both.
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { SQL } from "drizzle-orm";
import pg from "pg";
import * as schema from "./schema";

/** The drizzle database type shared by both drivers. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction handle or the database itself: repositories accept either. */
export type DbOrTx = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** Runs a raw SQL text (several statements allowed) — used by seeding and tests. */
  exec(sqlText: string): Promise<void>;
  /** Closes the connection(s). Idempotent. */
  close(): Promise<void>;
}

export interface OpenOptions {
  /** PostgreSQL connection URL; when set, PGlite is not used. */
  url?: string;
  /** PGlite data folder, or "memory" for an in-memory database. */
  dataDir?: string;
  /** Pool size for PostgreSQL (default 10). */
  poolSize?: number;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL("./migrations", import.meta.url));

/**
 * Opens the database and migrates it to the latest schema.
 * @throws when the database cannot be reached or a migration fails.
 */
export async function openDatabase(opts: OpenOptions = {}): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10 });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    await migratePg(drizzlePg(pool), { migrationsFolder: MIGRATIONS_FOLDER });
    let closed = false;
    return {
      db,
      kind: "postgres",
      exec: async (sqlText) => {
        await pool.query(sqlText);
      },
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
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER });
  let closed = false;
  return {
    db,
    kind: "pglite",
    exec: async (sqlText) => {
      await client.exec(sqlText);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}

/**
 * Runs a raw SQL query and returns its rows, typed by the caller. Both
 * drivers answer `{ rows }`; this hides the driver-specific result type.
 */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}
