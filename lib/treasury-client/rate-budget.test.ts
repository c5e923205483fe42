import { beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import { metrics } from "../server/metrics";
import { MemoryBudgetStore } from "./budget-store";
import { createTreasuryClient, type TreasuryClientConfig } from "./client";
import { TreasuryApiError } from "./errors";
import { collectAll } from "./pagination";
import { budgetFromHeaders, routeTemplate } from "./rate-budget";
import { ScriptedUpstream, apiError, json, ManualClock, TEST_CLIENT } from "./testing/scripted-upstream";

const BASE = TEST_CLIENT.baseUrl;
const ACC_ID = "33333333-3333-4333-8333-333333333333";
const account = { id: ACC_ID, name: "Operating NOK", currency: "NOK", iban_masked: "NO93****5678", bank_name: "DNB" };
const envelope = (results: unknown[], next: string | null = null) => ({
  count: results.length,
  total_pages: 1,
  page: 1,
  page_size: 100,
  next,
  previous: null,
  results,
});

let up: ScriptedUpstream;
let time: ManualClock;
let store: MemoryBudgetStore;

/** Window resets at this epoch second (a minute after the test time.t). */
const resetSec = () => Math.floor(time.t / 1000) + 60;
const limitHeaders = (remaining: number, limit = 100) => ({
  "x-ratelimit-limit": String(limit),
  "x-ratelimit-remaining": String(remaining),
  "x-ratelimit-reset": String(resetSec()),
});

function client(over: Partial<TreasuryClientConfig> = {}) {
  return createTreasuryClient({
    ...TEST_CLIENT,
    scopes: ["read:ledger"],
    fetch: up.fetch,
    sleep: time.sleep,
    random: () => 0.5,
    now: time.now,
    budget: store,
    ...over,
  });
}

/** Current value of a counter or gauge with these labels (0 when never set). */
async function metricValue(
  m: { get(): Promise<{ values: { value: number; labels: Record<string, unknown> }[] }> },
  labels: Record<string, string> = {},
): Promise<number> {
  const { values } = await m.get();
  const hit = values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x));
  return hit?.value ?? 0;
}

beforeEach(() => {
  up = new ScriptedUpstream();
  time = new ManualClock();
  store = new MemoryBudgetStore();
});

describe("budgetFromHeaders", () => {
  it("reads limit, remaining and an epoch-seconds reset", () => {
    const h = new Headers({
      "x-ratelimit-limit": "600",
      "x-ratelimit-remaining": "42",
      "x-ratelimit-reset": "1800000000",
    });
    expect(budgetFromHeaders(h, 0)).toEqual({ limit: 600, remaining: 42, resetAt: 1_800_000_000_000 });
  });

  it("reads a small reset as seconds from now", () => {
    const h = new Headers({ "x-ratelimit-limit": "10", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "5" });
    expect(budgetFromHeaders(h, 1_000)).toEqual({ limit: 10, remaining: 0, resetAt: 6_000 });
  });

  it("is null when a header is missing or not a number", () => {
    expect(budgetFromHeaders(new Headers({ "x-ratelimit-limit": "10", "x-ratelimit-remaining": "3" }), 0)).toBeNull();
    expect(
      budgetFromHeaders(
        new Headers({ "x-ratelimit-limit": "10", "x-ratelimit-remaining": "many", "x-ratelimit-reset": "5" }),
        0,
      ),
    ).toBeNull();
  });
});

describe("routeTemplate", () => {
  it("replaces ids by {id} and keeps route words", () => {
    expect(routeTemplate(`/accounts/${ACC_ID}/balances`)).toBe("/accounts/{id}/balances");
    expect(routeTemplate("/payments/batches/b-17/debtor-account")).toBe("/payments/batches/{id}/debtor-account");
    expect(routeTemplate("/reporting/cashflow/daily")).toBe("/reporting/cashflow/daily");
    expect(routeTemplate("/webhooks/42/test")).toBe("/webhooks/{id}/test");
    expect(routeTemplate("/")).toBe("/");
  });
});

describe("budget tracking", () => {
  it("keeps the last budget of every answer, the lowest within one window", async () => {
    up.then(
      () => json(200, account, limitHeaders(80)),
      () => json(200, account, limitHeaders(79)),
      // An answer of an earlier call, arriving late: it must not raise the budget again.
      () => json(200, account, limitHeaders(85)),
    );
    const c = client();
    await c.getAccount({}, ACC_ID);
    expect(await store.get()).toEqual({ limit: 100, remaining: 80, resetAt: resetSec() * 1000 });
    await c.getAccount({}, ACC_ID);
    await c.getAccount({}, ACC_ID);
    expect((await store.get())?.remaining).toBe(79);
    expect(await metricValue(metrics().rateBudgetRemaining)).toBe(85);
  });

  it("counts calls by method and route template and status, and times them", async () => {
    const op = "GET /accounts/{id}";
    const before = await metricValue(metrics().upstreamCalls, { operation: op, status: "200" });
    const notFound = await metricValue(metrics().upstreamCalls, { operation: op, status: "404" });
    up.then(
      () => json(200, account, limitHeaders(50)),
      () => apiError(404, "not_found"),
    );
    const c = client();
    await c.getAccount({}, ACC_ID);
    await expect(c.getAccount({}, ACC_ID)).rejects.toMatchObject({ status: 404 });
    expect(await metricValue(metrics().upstreamCalls, { operation: op, status: "200" })).toBe(before + 1);
    expect(await metricValue(metrics().upstreamCalls, { operation: op, status: "404" })).toBe(notFound + 1);
    const hist = (await metrics().upstreamDuration.get()).values.find(
      (v) => v.labels.operation === op && (v as { metricName?: string }).metricName?.endsWith("_count"),
    );
    expect(hist?.value).toBeGreaterThanOrEqual(2);
  });
});

describe("background calls yield to interactive ones", () => {
  it("below the reserve, a background read waits for the window to reset; an interactive read goes at once", async () => {
    up.then(
      () => json(200, account, limitHeaders(15)), // 15 < 20 % of 100
      () => json(200, account, limitHeaders(14)),
      () => json(200, account, limitHeaders(99)),
    );
    const c = client();
    await c.getAccount({}, ACC_ID);
    // Interactive: the budget is low but not spent, so no wait.
    await c.getAccount({ priority: "interactive" }, ACC_ID);
    expect(time.sleeps).toEqual([]);
    const t0 = time.t;
    const resetAt = resetSec() * 1000;
    await c.getAccount({ priority: "background" }, ACC_ID);
    expect(time.sleeps).toEqual([resetAt - t0]);
    expect(up.requests).toHaveLength(3);
  });

  it("above the reserve, a background read goes at once", async () => {
    up.then(
      () => json(200, account, limitHeaders(21)),
      () => json(200, account, limitHeaders(20)),
    );
    const c = client();
    await c.getAccount({}, ACC_ID);
    await c.getAccount({ priority: "background" }, ACC_ID);
    expect(time.sleeps).toEqual([]);
  });

  it("the wait of a background read is bounded: it goes after backgroundMaxWaitMs", async () => {
    up.then(
      () => json(200, account, limitHeaders(0)),
      () => json(200, account, limitHeaders(0)),
    );
    const c = client({ rateBudget: { backgroundMaxWaitMs: 5_000 } });
    await c.getAccount({}, ACC_ID);
    await c.getAccount({ priority: "background" }, ACC_ID);
    expect(time.sleeps).toEqual([5_000]);
    expect(up.requests).toHaveLength(2);
  });

  it("the next pages of a background list stay background", async () => {
    const next = `${BASE}/accounts?page=2`;
    up.then(
      () => json(200, envelope([account], next), limitHeaders(10)),
      () => json(200, envelope([account]), limitHeaders(99)),
    );
    const c = client();
    const t0 = time.t;
    const resetAt = resetSec() * 1000;
    const all = await collectAll(c.listAccounts({ priority: "background" }));
    expect(all).toHaveLength(2);
    expect(time.sleeps).toEqual([resetAt - t0]);
  });

  it("an interactive read waits for the reset only when the budget is spent, and not longer than the bound", async () => {
    up.then(
      () => json(200, account, { ...limitHeaders(0), "x-ratelimit-reset": String(Math.floor(time.t / 1000) + 5) }),
      () => json(200, account, limitHeaders(99)),
    );
    const c = client();
    await c.getAccount({}, ACC_ID);
    await c.getAccount({}, ACC_ID);
    expect(time.sleeps).toEqual([5_000]);

    up.then(() => json(200, account, limitHeaders(0)));
    await c.getAccount({}, ACC_ID);
    const surfaced = await metricValue(metrics().rateLimited, { outcome: "surfaced" });
    // 60 s to the reset is over the 20 s bound: a clear error at once, nothing sent.
    const sent = up.requests.length;
    await expect(c.getAccount({}, ACC_ID)).rejects.toMatchObject({
      status: 429,
      message: "The Treasury API is busy; retry in 60 s",
      retryAfterSeconds: 60,
    });
    expect(up.requests).toHaveLength(sent);
    expect(await metricValue(metrics().rateLimited, { outcome: "surfaced" })).toBe(surfaced + 1);
  });
});

describe("429", () => {
  it("is waited out per Retry-After and retried; the caller never sees it", async () => {
    const waited = await metricValue(metrics().rateLimited, { outcome: "waited" });
    up.then(
      () => apiError(429, "throttled", "slow down", { ...limitHeaders(0), "retry-after": "4" }),
      () => json(200, account, limitHeaders(99)),
    );
    await expect(client().getAccount({}, ACC_ID)).resolves.toEqual(account);
    expect(time.sleeps).toEqual([4_000]);
    expect(await metricValue(metrics().rateLimited, { outcome: "waited" })).toBe(waited + 1);
  });

  it("on a write with an Idempotency-Key is retried with the same key", async () => {
    up.then(
      () => apiError(429, "throttled", "slow down", { "retry-after": "2" }),
      () => json(200, { id: ACC_ID, name: "Nordlys AS", orgnr: "912345678", country: "NO" }),
    );
    await client().upsertCompany(
      { idempotencyKey: "key-1" },
      { orgnr: "912345678", name: "Nordlys AS", country: "NO" },
    );
    expect(up.requests.map((r) => r.headers.get("idempotency-key"))).toEqual(["key-1", "key-1"]);
  });

  it("a wait longer than the page's bound fails at once with the busy message", async () => {
    up.then(() => apiError(429, "throttled", "slow down", { "retry-after": "45" }));
    const err = await client()
      .getAccount({}, ACC_ID)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TreasuryApiError);
    expect(err).toMatchObject({
      status: 429,
      retryAfterSeconds: 45,
      message: "The Treasury API is busy; retry in 45 s",
    });
    expect(time.sleeps).toEqual([]);
  });

  it("a background read waits longer (its own bound)", async () => {
    up.then(
      () => apiError(429, "throttled", "slow down", { "retry-after": "45" }),
      () => json(200, account),
    );
    await expect(client().getAccount({ priority: "background" }, ACC_ID)).resolves.toEqual(account);
    expect(time.sleeps).toEqual([45_000]);
  });

  it("after the last attempt the busy message names the wait", async () => {
    up.then(...Array.from({ length: 4 }, () => () => apiError(429, "throttled", "slow", { "retry-after": "1" })));
    await expect(client().getAccount({}, ACC_ID)).rejects.toMatchObject({
      message: "The Treasury API is busy; retry in 1 s",
    });
    expect(up.requests).toHaveLength(4);
  });
});
