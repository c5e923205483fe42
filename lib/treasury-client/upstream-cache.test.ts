import { beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import { createTreasuryClient } from "./client";
import { TreasuryApiError, TreasuryTransportError } from "./errors";
import { collectAll } from "./pagination";
import { MemorySharedStore } from "./store/shared-store";
import { json, ManualClock, TEST_CLIENT } from "./testing/scripted-upstream";
import { INVALIDATIONS, RESOURCES, invalidationFor, resourceOf, type CacheEvent } from "./upstream-cache";

const BASE = TEST_CLIENT.baseUrl;
const A = "11111111-1111-4111-8111-111111111111";
const B = "22222222-2222-4222-8222-222222222222";
const ACC = "33333333-3333-4333-8333-333333333333";
const account = (name: string) => ({ id: ACC, name, currency: "NOK", iban_masked: "NO93****5678", bank_name: "DNB" });
const envelope = (results: unknown[], count: number, next: string | null = null) => ({
  count,
  total_pages: next ? 2 : 1,
  page: 1,
  page_size: 100,
  next,
  previous: null,
  results,
});

/** A fake API: counts calls per method and path (token requests apart); `answer` decides the response. */
class FakeApi {
  calls: { method: string; path: string; company: string | null }[] = [];
  tokenCalls = 0;
  answer: (url: URL, method: string, n: number) => Response | Promise<Response> = (_u, _m, n) =>
    json(200, envelope([], n));

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    if (url.pathname.startsWith("/public/auth/")) {
      this.tokenCalls++;
      return json(200, {
        access_token: `tok-${this.tokenCalls}`,
        token_type: "Bearer",
        expires_in: 3600,
        scope: "read:ledger",
      });
    }
    const headers = new Headers(init?.headers);
    const method = init?.method ?? "GET";
    this.calls.push({ method, path: url.pathname + url.search, company: headers.get("x-company-id") });
    return this.answer(url, method, this.calls.length);
  };

  count(method = "GET"): number {
    return this.calls.filter((c) => c.method === method).length;
  }
}

let api: FakeApi;
let time: ManualClock;
let events: { resource: string; event: CacheEvent }[];

function client(store = new MemorySharedStore({ now: time.now })) {
  return createTreasuryClient({
    ...TEST_CLIENT,
    scopes: ["read:ledger"],
    fetch: api.fetch,
    now: time.now,
    retry: { maxAttempts: 1 },
    shared: { store, onCacheEvent: (resource, event) => events.push({ resource, event }) },
  });
}

const W = (company?: string) => ({ companyId: company, idempotencyKey: crypto.randomUUID() });

beforeEach(() => {
  api = new FakeApi();
  time = new ManualClock();
  events = [];
});

describe("lifetimes", () => {
  it("serves a read from the cache until its resource's TTL ends (accounts: minutes, balances: seconds)", async () => {
    const c = client();
    expect((await c.listAccounts({ companyId: A })).count).toBe(1);
    await c.listAccountBalances({ companyId: A }, ACC);
    time.t += 9_999;
    expect((await c.listAccounts({ companyId: A })).count).toBe(1);
    await c.listAccountBalances({ companyId: A }, ACC);
    expect(api.count()).toBe(2);
    time.t += 1;
    await c.listAccountBalances({ companyId: A }, ACC);
    expect(api.count()).toBe(3);
    time.t += 120_000;
    expect((await c.listAccounts({ companyId: A })).count).toBe(4);
    expect(events.filter((e) => e.event === "hit").map((e) => e.resource)).toEqual(["accounts", "balances"]);
  });

  it("every TTL is between 1 s and 10 min, and each resource has one lifetime", () => {
    const byResource = new Map<string, number>();
    for (const r of RESOURCES) {
      expect(r.ttlMs).toBeGreaterThanOrEqual(1_000);
      expect(r.ttlMs).toBeLessThanOrEqual(600_000);
      expect(byResource.get(r.resource) ?? r.ttlMs).toBe(r.ttlMs);
      byResource.set(r.resource, r.ttlMs);
    }
  });
});

describe("single-flight", () => {
  it("concurrent identical reads make one upstream call; the others are counted as coalesced", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    api.answer = async () => {
      await gate;
      return json(200, envelope([account("Operating")], 1));
    };
    const c = client();
    const reads = Array.from({ length: 5 }, () => c.listAccounts({ companyId: A }));
    await new Promise((r) => setTimeout(r, 10));
    release();
    const pages = await Promise.all(reads);
    expect(api.count()).toBe(1);
    expect(pages.map((p) => p.items[0]?.name)).toEqual(Array(5).fill("Operating"));
    expect(events.map((e) => e.event).sort()).toEqual(["coalesced", "coalesced", "coalesced", "coalesced", "miss"]);
  });

  it("each caller gets its own copy: mutating one answer changes no other", async () => {
    api.answer = () => json(200, envelope([account("Operating")], 1));
    const c = client();
    const [x, y] = await Promise.all([c.listAccounts({ companyId: A }), c.listAccounts({ companyId: A })]);
    const row = x.items[0];
    if (row) row.name = "changed";
    expect(y.items[0]?.name).toBe("Operating");
    expect((await c.listAccounts({ companyId: A })).items[0]?.name).toBe("Operating");
  });

  it("one caller's cancellation does not fail the others waiting on the same call", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    api.answer = async () => {
      await gate;
      return json(200, envelope([], 7));
    };
    const c = client();
    const abort = new AbortController();
    const first = c.listAccounts({ companyId: A, signal: abort.signal });
    const second = c.listAccounts({ companyId: A });
    await new Promise((r) => setTimeout(r, 5));
    abort.abort();
    await expect(first).rejects.toBeInstanceOf(TreasuryTransportError);
    release();
    expect((await second).count).toBe(7);
    expect(api.count()).toBe(1);
  });
});

describe("errors", () => {
  it("are never cached: the next read goes upstream again", async () => {
    api.answer = (_u, _m, n) =>
      n === 1 ? json(503, { error: "service_unavailable", message: "down" }) : json(200, envelope([], 2));
    const c = client();
    await expect(c.listAccounts({ companyId: A })).rejects.toBeInstanceOf(TreasuryApiError);
    expect((await c.listAccounts({ companyId: A })).count).toBe(2);
    expect((await c.listAccounts({ companyId: A })).count).toBe(2);
    expect(api.count()).toBe(2);
  });
});

describe("company isolation and keys", () => {
  it("keeps one entry per company, and the same path for another company goes upstream", async () => {
    const c = client();
    expect((await c.listAccounts({ companyId: A })).count).toBe(1);
    expect((await c.listAccounts({ companyId: B })).count).toBe(2);
    expect((await c.listAccounts({ companyId: A })).count).toBe(1);
    expect((await c.listAccounts({})).count).toBe(3);
    expect(api.calls.map((x) => x.company)).toEqual([A, B, null]);
  });

  it("treats the same query in another order as the same read, and another query as another", async () => {
    const c = client();
    await c.listTransactions({ companyId: A }, { from_date: "2026-01-01", to_date: "2026-01-31" });
    await c.listTransactions({ companyId: A }, { to_date: "2026-01-31", from_date: "2026-01-01" });
    await c.listTransactions({ companyId: A }, { from_date: "2026-01-02", to_date: "2026-01-31" });
    expect(api.count()).toBe(2);
  });

  it("caches follow-up pages (next links) like any other read", async () => {
    api.answer = (url) =>
      url.searchParams.get("page") === "2"
        ? json(200, { ...envelope([account("two")], 2), page: 2 })
        : json(200, envelope([account("one")], 2, `${BASE}/accounts?page=2&page_size=100`));
    const c = client();
    const first = await collectAll(c.listAccounts({ companyId: A }));
    const again = await collectAll(c.listAccounts({ companyId: A }));
    expect(again.map((x) => x.name)).toEqual(first.map((x) => x.name));
    expect(api.count()).toBe(2);
  });

  it("does not cache paths outside the table", () => {
    expect(resourceOf("/something/else")).toBeNull();
    expect(resourceOf("/accounts/1/balances")).toMatchObject({ resource: "balances" });
    expect(resourceOf("/accounts/summaries")).toMatchObject({ resource: "summaries", ttlMs: 10_000 });
    expect(resourceOf("/accounts/1")).toMatchObject({ resource: "accounts" });
    expect(resourceOf("/accounts/1/transactions")).toMatchObject({ resource: "transactions" });
    expect(resourceOf("/reporting/positions/daily")).toMatchObject({ resource: "positions" });
  });
});

describe("no-store", () => {
  it("skips the cached value, and its fresh answer serves the next reader", async () => {
    const c = client();
    expect((await c.listAccounts({ companyId: A })).count).toBe(1);
    expect((await c.listAccounts({ companyId: A, cache: "no-store" })).count).toBe(2);
    expect((await c.listAccounts({ companyId: A })).count).toBe(2);
    expect(api.count()).toBe(2);
  });
});

describe("invalidation by writes", () => {
  it("a match decision clears that company's matches and transactions, nothing else", async () => {
    api.answer = (_u, method, n) =>
      method === "POST" ? new Response(null, { status: 204 }) : json(200, envelope([], n));
    const c = client();
    const reads = async () => [
      (await c.listMatches({ companyId: A })).count,
      (await c.listTransactions({ companyId: A })).count,
      (await c.listAccounts({ companyId: A })).count,
      (await c.listMatches({ companyId: B })).count,
    ];
    expect(await reads()).toEqual([1, 2, 3, 4]);
    await c.confirmMatch(W(A), "m1");
    expect(await reads()).toEqual([6, 7, 3, 4]);
  });

  it("an account upsert clears that company's accounts and the account summaries, not per-account balances", async () => {
    const account = {
      id: ACC,
      name: "Driftskonto",
      bank_name: "DNB",
      company_id: A,
      bank_id: "DNBANOKK",
      currency: "NOK",
      status: "active",
      iban_masked: "NO93********7947",
    };
    api.answer = (_u, method, n) => (method === "POST" ? json(201, account) : json(200, envelope([], n)));
    const c = client();
    const window = { from_date: "2026-11-16", to_date: "2026-11-23" };
    const reads = async () => [
      (await c.listAccounts({ companyId: A })).count,
      (await c.listAccountSummaries({}, window)).count,
      (await c.listAccountBalances({ companyId: A }, ACC)).count,
      (await c.listAccounts({ companyId: B })).count,
    ];
    expect(await reads()).toEqual([1, 2, 3, 4]);
    await c.upsertAccount(W(A), {
      company_id: A,
      bank_id: "DNBANOKK",
      external_ref: "NO9386011117947",
      external_ref_type: "IBAN",
      currency: "NOK",
      status: "active",
    });
    // The summaries list every company's accounts (read without X-Company-ID): a new account must appear there too.
    expect(await reads()).toEqual([6, 7, 3, 4]);
  });

  it("a batch submit clears the company's payments and every company's pending approvals", async () => {
    api.answer = (_u, method, n) =>
      method === "POST" ? new Response(null, { status: 202 }) : json(200, envelope([], n));
    const c = client();
    const reads = async () => [
      (await c.listBatches({ companyId: A })).count,
      (await c.listBatches({ companyId: B })).count,
      (await c.listPendingApprovals({})).count,
    ];
    expect(await reads()).toEqual([1, 2, 3]);
    await c.submitBatch(W(A), "b1");
    expect(await reads()).toEqual([5, 2, 6]);
  });

  it("an approval decision clears approvals and payments of every company", async () => {
    api.answer = (_u, method, n) =>
      method === "POST" ? new Response(null, { status: 204 }) : json(200, envelope([], n));
    const c = client();
    const reads = async () => [(await c.listBatches({ companyId: B })).count, (await c.listPendingApprovals({})).count];
    expect(await reads()).toEqual([1, 2]);
    await c.approve(W(A), "ap1");
    expect(await reads()).toEqual([4, 5]);
  });

  it("a failed write invalidates too (it may have happened upstream)", async () => {
    api.answer = (_u, method, n) =>
      method === "POST" ? json(409, { error: "conflict", message: "no" }) : json(200, envelope([], n));
    const c = client();
    expect((await c.listMatches({ companyId: A })).count).toBe(1);
    await expect(c.rejectMatch(W(A), "m1")).rejects.toBeInstanceOf(TreasuryApiError);
    expect((await c.listMatches({ companyId: A })).count).toBe(3);
  });

  it("maps writes to resources by table, and an unknown write clears everything", () => {
    expect(invalidationFor("POST", "/accounts")).toEqual({ company: ["accounts", "summaries"], all: [] });
    expect(invalidationFor("POST", "/statements").company).toContain("transactions");
    expect(invalidationFor("POST", "/payments/batches")).toMatchObject({ all: ["approvals"] });
    expect(invalidationFor("PATCH", "/webhooks/w1")).toEqual({ company: [], all: ["webhooks"] });
    expect(invalidationFor("POST", "/new/endpoint").all).toEqual(expect.arrayContaining(["accounts", "payments"]));
    const known = new Set(RESOURCES.map((r) => r.resource));
    for (const row of INVALIDATIONS)
      for (const r of [...(row.company ?? []), ...(row.all ?? [])]) expect(known).toContain(r);
  });
});

describe("across instances (a shared store)", () => {
  /** A memory store that claims to be shared, as Redis is: the lock-and-wait path runs. */
  class SharedMemory extends MemorySharedStore {
    override readonly shared = true as unknown as false;
  }

  it("two clients on one store: one warms the other, concurrent reads make one call, one token", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    api.answer = async (_u, method, n) => {
      await gate;
      return method === "POST" ? json(200, account("new")) : json(200, envelope([], n));
    };
    const store = new SharedMemory();
    const [c1, c2] = [client(store), client(store)];
    const both = Promise.all([c1.listAccounts({ companyId: A }), c2.listAccounts({ companyId: A })]);
    await new Promise((r) => setTimeout(r, 30));
    release();
    expect((await both).map((p) => p.count)).toEqual([1, 1]);
    expect((await c2.listAccounts({ companyId: A })).count).toBe(1);
    expect(api.count()).toBe(1);
    expect(api.tokenCalls).toBe(1);
    await c2.upsertAccount(W(A), { name: "new", currency: "NOK" } as never);
    expect((await c1.listAccounts({ companyId: A })).count).toBe(3);
    expect(api.count("POST")).toBe(1);
  });
});
