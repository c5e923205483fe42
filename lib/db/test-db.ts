/**
 * Test set-up shared by the dashboard's database tests: one in-memory dashboard database (PGlite, all migrations
 * applied, as lib/db/client.ts opens it) per test file or `describe` block.
 */
import { afterAll, beforeAll } from "vitest";
import { openDashboardDb, type DashboardDatabase } from "./client";

/**
 * Registers a `beforeAll` that opens an in-memory dashboard database (bcrypt cost 4, so that users hash quickly) and
 * an `afterAll` that closes it. Call it where the hooks belong (file level or inside a `describe`), before any hook
 * that uses the database. The returned handle forwards to the open database: read `db`, call `exec` only from
 * hooks and tests, never at collection time.
 * @throws Error from `db` / `exec` when used before the `beforeAll` ran.
 */
export function memoryDashboardDb(): Pick<DashboardDatabase, "db" | "exec"> {
  let open: DashboardDatabase | undefined;
  const opened = () => {
    if (!open) throw new Error("the test database is opened in beforeAll; use it from hooks and tests");
    return open;
  };
  beforeAll(async () => {
    process.env.DASHBOARD_BCRYPT_COST = "4";
    open = await openDashboardDb({ dataDir: "memory" });
  });
  afterAll(async () => {
    await open?.close();
  });
  return {
    get db() {
      return opened().db;
    },
    exec: (sqlText) => opened().exec(sqlText),
  };
}
