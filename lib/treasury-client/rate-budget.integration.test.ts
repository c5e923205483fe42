/**
 * The rate budget against the real local treasury-api with a low limit
 * (60 calls per 10 s window per client; the reserve is 12; a window long enough that the burst spends its budget
 * within it on a loaded machine, where 48 reads took longer than a 3 s window and so never had to yield): a burst of background reads yields
 * to the next window instead of running into 429s, interactive reads made
 * during the burst go through, and no 429 reaches any caller.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import { startLoopbackServer, type RunningServer } from "@treasury/test-support/local-api";
import { DEMO_TREASURY_B } from "@treasury/test-support/local-api";
import { metrics } from "../server/metrics";
import { MemoryBudgetStore } from "./budget-store";
import { createTreasuryClient } from "./client";
import { collectAll } from "./pagination";

const LIMIT = 60;
const WINDOW_SECONDS = 10;

let api: RunningServer;
let base: string;

beforeAll(async () => {
  api = await startLoopbackServer({
    seed: "demo",
    seedScale: 0.1,
    rateLimit: { limit: LIMIT, windowSeconds: WINDOW_SECONDS },
  });
  base = `${api.url}/public`;
}, 120_000);

afterAll(async () => {
  await api?.close();
});

/** Sum of a counter's values whose labels match. */
async function count(
  m: { get(): Promise<{ values: { value: number; labels: Record<string, unknown> }[] }> },
  match: (labels: Record<string, unknown>) => boolean,
): Promise<number> {
  return (await m.get()).values.filter((v) => match(v.labels)).reduce((a, v) => a + v.value, 0);
}

describe("rate budget against the real API", () => {
  it("a burst of background reads yields to the next window; interactive reads go through; no 429", async () => {
    const yields: number[] = [];
    const retries: string[] = [];
    const store = new MemoryBudgetStore();
    const c = createTreasuryClient({
      baseUrl: base,
      form: "B",
      clientId: DEMO_TREASURY_B.clientId,
      clientSecret: DEMO_TREASURY_B.clientSecret,
      scopes: DEMO_TREASURY_B.scopes,
      budget: store,
      onYield: (i) => yields.push(i.waitMs),
      onRetry: (i) => retries.push(i.reason),
    });
    const companies = await collectAll(c.listCompanies({}));
    const companyId = companies[0]?.id ?? "";
    const account = (await c.listAccounts({ companyId }, { pageSize: 1 })).items[0];
    if (!account) throw new Error("no account");
    const throttledBefore = await count(metrics().upstreamCalls, (l) => l.status === "429");
    const rateLimitedBefore = await count(metrics().rateLimited, () => true);

    // Start right after a window boundary, so the burst spends a whole window's budget.
    const intoWindowMs = Date.now() % (WINDOW_SECONDS * 1000);
    await new Promise((r) => setTimeout(r, WINDOW_SECONDS * 1000 - intoWindowMs + 20));

    // 120 background reads (2.5 windows' worth of the 48 above the reserve), 4 at a time, like the accounts enrichment.
    let next = 0;
    const background = Promise.all(
      Array.from({ length: 4 }, async () => {
        const done: string[] = [];
        while (next < 120) {
          next++;
          const a = await c.getAccount({ companyId, priority: "background" }, account.id);
          done.push(a.id);
        }
        return done;
      }),
    );
    // Meanwhile a person loads pages: one interactive read every 250 ms.
    const interactive: number[] = [];
    for (let i = 0; i < 8; i++) {
      await new Promise((r) => setTimeout(r, 250));
      const t = Date.now();
      await c.listAccounts({ companyId }, { pageSize: 1 });
      interactive.push(Date.now() - t);
    }
    const done = (await background).flat();

    expect(done).toHaveLength(120);
    expect(yields.length).toBeGreaterThan(0); // the background reads waited for the budget
    expect(Math.max(...yields)).toBeLessThanOrEqual(WINDOW_SECONDS * 1000);
    expect(retries).toEqual([]); // nothing was throttled, so nothing was retried
    expect(await count(metrics().upstreamCalls, (l) => l.status === "429")).toBe(throttledBefore);
    expect(await count(metrics().rateLimited, () => true)).toBe(rateLimitedBefore);
    // Interactive reads never waited for a window (well under its 10 s).
    expect(Math.max(...interactive)).toBeLessThan(1_500);
    const state = await store.get();
    expect(state?.limit).toBe(LIMIT);
  }, 120_000);
});
