/**
 * Opens a drizzle database and applies its migrations — the one opener both
 * the treasury-api and the dashboard use (docs/architecture.md#one-schema-two-databases): embedded PGlite
 * in a data folder (or in memory) by default, PostgreSQL through
 * node-postgres when a connection URL is given. Same schema, same migrations.
 */
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";

export interface MigratedDatabase<S extends Record<string, unknown>> {
  db: PgDatabase<PgQueryResultHKT, S>;
  kind: "pglite" | "postgres";
  /** Runs a raw SQL text (several statements allowed). */
  exec(sqlText: string): Promise<void>;
  /** Closes the connection(s). Idempotent. */
  close(): Promise<void>;
}

export interface OpenMigratedOptions {
  /** PostgreSQL connection URL; when set, PGlite is not used. */
  url?: string;
  /** PGlite data folder, or "memory" / undefined for an in-memory database. */
  dataDir?: string;
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
  /**
   * Called when an idle PostgreSQL connection fails (server restart, network
   * cut, admin shutdown). The pool drops that connection and opens a new one
   * on the next query; without a listener node-postgres would crash the
   * process. Default: one line on stderr.
   */
  onIdleError?: (err: Error) => void;
  migrationsFolder: string;
  /** drizzle's migrations bookkeeping table (default `__drizzle_migrations`). */
  migrationsTable?: string;
}

/**
 * Opens the database and migrates it to the latest schema.
 * @throws when the database cannot be reached or a migration fails.
 */
export async function openMigratedDatabase<S extends Record<string, unknown>>(
  schema: S,
  opts: OpenMigratedOptions,
): Promise<MigratedDatabase<S>> {
  const migrations = {
    migrationsFolder: opts.migrationsFolder,
    ...(opts.migrationsTable ? { migrationsTable: opts.migrationsTable } : {}),
  };
  let closed = false;
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10 });
    const onIdleError =
      opts.onIdleError ?? ((err: Error) => console.error(`database: idle connection dropped: ${err.message}`));
    pool.on("error", onIdleError);
    // pool.end() resolves once its clients are told to end, not once their
    // sockets are closed; close() waits for every 'remove' so that a caller
    // stopping the server right after sees no half-closed connection.
    const open = new Set<pg.PoolClient>();
    pool.on("connect", (client) => open.add(client));
    const allRemoved = () =>
      new Promise<void>((resolve) => {
        if (open.size === 0) return resolve();
        const giveUp = setTimeout(resolve, 5_000); // a socket that never closes must not hang shutdown
        giveUp.unref();
        pool.on("remove", (client) => {
          open.delete(client);
          if (open.size === 0) {
            clearTimeout(giveUp);
            resolve();
          }
        });
      });
    pool.on("remove", (client) => open.delete(client));
    await migratePg(drizzlePg(pool), migrations);
    return {
      db: drizzlePg(pool, { schema }) as unknown as PgDatabase<PgQueryResultHKT, S>,
      kind: "postgres",
      exec: async (sqlText) => {
        await pool.query(sqlText);
      },
      close: async () => {
        if (closed) return;
        closed = true;
        const removed = allRemoved();
        await pool.end();
        await removed;
      },
    };
  }
  const dir = opts.dataDir && opts.dataDir !== "memory" ? opts.dataDir : undefined;
  if (dir) mkdirSync(dir, { recursive: true });
  const client = dir ? new PGlite(dir) : new PGlite();
  await client.waitReady;
  await migratePglite(drizzlePglite(client), migrations);
  return {
    db: drizzlePglite(client, { schema }) as unknown as PgDatabase<PgQueryResultHKT, S>,
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
