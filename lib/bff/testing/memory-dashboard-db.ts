/**
 * Test-only (docs/testing.md): a stand-in for the `lib/server/db` module over a real in-memory dashboard database,
 * for the BFF's integration tests. A `vi.mock` factory must stay in the test file, where Vitest hoists it:
 *
 *     vi.mock("../../server/db", async () =>
 *       (await import("../testing/memory-dashboard-db")).memoryDashboardDbModule({ demoRates: true }),
 *     );
 */
import { vi } from "vitest";
import { openDashboardDb } from "../../db/client";
import { seedDemoRates } from "../../fx/demo-rates";

/**
 * The module's exports: `dashboardDb()` answers the one in-memory database of the test file, `opened` is the promise
 * of the open database (to close it or reach it directly).
 * @param opts.demoRates seed the demo FX rates of today (UTC) first, as a payment's risk signals read them
 */
export function memoryDashboardDbModule(opts: { demoRates?: boolean } = {}) {
  const opened = openDashboardDb({ dataDir: "memory" }).then(async (d) => {
    if (opts.demoRates) await seedDemoRates(d.db, new Date().toISOString().slice(0, 10));
    return d;
  });
  return { dashboardDb: vi.fn(async () => (await opened).db), opened };
}
