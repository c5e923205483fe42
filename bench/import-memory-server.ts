/**
 * Child of bench/import-memory.ts: the Treasury API on loopback with the test fixture; prints `URL <url>`. The
 * database is in memory, or in the data folder `BENCH_DATA` names (PGlite on disk: its pages are then not part of the
 * process's resident memory), or the PostgreSQL server `BENCH_DATABASE_URL` names (then the API process holds no stored
 * data at all).
 */
import { startServer } from "@treasury/api/server";
import { insertFixture } from "@treasury/api/test/harness";

const api = await startServer({
  port: 0,
  host: "127.0.0.1",
  data: process.env.BENCH_DATA ?? "memory",
  ...(process.env.BENCH_DATABASE_URL ? { databaseUrl: process.env.BENCH_DATABASE_URL } : {}),
  seed: "none",
  seedScale: 1,
  log: false,
  config: { bankSpeed: "manual", rateLimit: { limit: 100_000, windowSeconds: 60 } },
});
await insertFixture(api.database);
console.log(`URL ${api.url}`);
process.on("SIGTERM", () => void api.close().then(() => process.exit(0)));
