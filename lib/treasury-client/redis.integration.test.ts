/**
 * Redis mode against a real redis-server (Debian package, started here on
 * loopback) and the real local treasury-api: two client instances, each with
 * its own Redis connection and its own fetch (upstream calls counted per
 * instance), stand in for two dashboard instances. Skipped, with a printed
 * reason, when redis-server is not installed.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import { startLoopbackServer, type RunningServer } from "@treasury/test-support/local-api";
import { DEMO_TREASURY_B } from "@treasury/test-support/local-api";
import { findRedisServer, startTempRedis, type TempRedis } from "@treasury/test-support/temp-redis";
import { createTreasuryClient } from "./client";
import { RedisBudgetStore } from "./store/redis-budget-store";
import { RedisSharedStore } from "./store/redis-store";
import { clientNamespace } from "./store/shared-store";

const available = findRedisServer() !== null;
if (!available)
  console.warn("redis.integration.test.ts: redis-server not installed (apt install redis-server); skipped");

/** One dashboard instance: its store, its client, its upstream calls. */
function instance(base: string, redisUrl: string) {
  const warnings: string[] = [];
  const logger = { warn: (_o: object, msg: string) => void warnings.push(msg), info: () => undefined };
  const store = new RedisSharedStore({ url: redisUrl, logger });
  const calls: string[] = [];
  const tokens: string[] = [];
  const counting: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    (url.pathname.includes("/auth/") ? tokens : calls).push(`${init?.method ?? "GET"} ${url.pathname}${url.search}`);
    return fetch(input, init);
  };
  const client = createTreasuryClient({
    baseUrl: base,
    form: "B",
    clientId: DEMO_TREASURY_B.clientId,
    clientSecret: DEMO_TREASURY_B.clientSecret,
    scopes: DEMO_TREASURY_B.scopes,
    fetch: counting,
    shared: { store },
  });
  return { store, client, calls, tokens, warnings };
}

async function ready(store: RedisSharedStore): Promise<void> {
  for (let i = 0; i < 100 && !store.shared; i++) await new Promise((r) => setTimeout(r, 20));
  if (!store.shared) throw new Error("redis not ready");
}

describe.runIf(available)("Redis mode: two instances, one Redis", () => {
  let api: RunningServer;
  let redis: TempRedis;
  /** True while redis-server is killed (a test took it down and none has started it again). */
  let redisDown = false;
  let base: string;
  let one: ReturnType<typeof instance>;
  let two: ReturnType<typeof instance>;
  let company: string;

  beforeAll(async () => {
    [api, redis] = await Promise.all([startLoopbackServer({ seed: "demo", seedScale: 0.1 }), startTempRedis()]);
    base = `${api.url}/public`;
    const companies = api.fixtures?.companies.filter((c) => c.koncern_id !== null) ?? [];
    company = companies[0]?.id ?? "";
  }, 120_000);

  // Tests run in any order and some take redis-server down: each starts with redis-server up, an empty Redis and
  // two new instances (their own upstream call, token and warning lists, no per-instance memory).
  beforeEach(async () => {
    if (redisDown) {
      redis = await startTempRedis(redis.port);
      redisDown = false;
    }
    one = instance(base, redis.url);
    two = instance(base, redis.url);
    await Promise.all([ready(one.store), ready(two.store)]);
    await one.store.redis.flushall();
  }, 30_000);

  afterEach(async () => {
    await Promise.all([one?.store.close(), two?.store.close()]);
  });

  afterAll(async () => {
    if (!redisDown) await redis?.stop();
    await api?.close();
  });

  /** Kills redis-server and waits (up to 10 s) until both instances have noticed. */
  async function killRedis(): Promise<void> {
    redis.kill();
    redisDown = true;
    for (let i = 0; i < 500 && (one.store.shared || two.store.shared); i++) await new Promise((r) => setTimeout(r, 20));
  }

  it("a read on one instance warms the other; the token is fetched once for both", async () => {
    const first = await one.client.listAccounts({ companyId: company });
    const second = await two.client.listAccounts({ companyId: company });
    expect(second.items.map((a) => a.id)).toEqual(first.items.map((a) => a.id));
    expect(one.calls.filter((c) => c.startsWith("GET /public/accounts"))).toHaveLength(1);
    expect(two.calls).toHaveLength(0);
    expect(one.tokens.length + two.tokens.length).toBe(1);
  });

  it("concurrent identical reads from both instances make one upstream call", async () => {
    const before = one.calls.length + two.calls.length;
    const reads = await Promise.all([
      ...Array.from({ length: 4 }, () => one.client.listTransactions({ companyId: company }, { pageSize: 50 })),
      ...Array.from({ length: 4 }, () => two.client.listTransactions({ companyId: company }, { pageSize: 50 })),
    ]);
    expect(new Set(reads.map((r) => JSON.stringify(r.items))).size).toBe(1);
    expect(one.calls.length + two.calls.length - before).toBe(1);
  });

  it("a write on one instance invalidates the entries of the other", async () => {
    const list = await two.client.listAccounts({ companyId: company });
    const before = list.count ?? list.items.length;
    const callsBefore = two.calls.length;
    await one.client.upsertAccount(
      { companyId: company, idempotencyKey: crypto.randomUUID() },
      {
        company_id: company,
        bank_id: "DNBANOKK",
        external_ref: "NO9386011117947",
        external_ref_type: "IBAN",
        currency: "NOK",
        status: "active",
        name: "Redis test account",
      },
    );
    const after = await two.client.listAccounts({ companyId: company });
    expect(two.calls.length).toBe(callsBefore + 1);
    expect(after.count ?? after.items.length).toBe(before + 1);
  });

  it("shares the rate budget through Redis", async () => {
    const ns = clientNamespace({ baseUrl: base, form: "B", clientId: "x", scopes: [] });
    const b1 = new RedisBudgetStore(one.store, ns);
    const b2 = new RedisBudgetStore(two.store, ns);
    await b1.set({ remaining: 123, limit: 600, resetAt: Date.now() + 30_000 });
    expect(await b2.get()).toEqual({ remaining: 123, limit: 600, resetAt: expect.any(Number) });
  });

  it("killing redis-server degrades to per-instance memory with one warning; reads still succeed", async () => {
    await killRedis();
    const reads = [];
    for (let i = 0; i < 3; i++) {
      reads.push(await one.client.listAccountBalances({ companyId: company }, await firstAccount()));
      reads.push(await two.client.listCompanies({}));
    }
    expect(reads).toHaveLength(6);
    expect(one.warnings).toHaveLength(1);
    expect(two.warnings).toHaveLength(1);
    expect(one.warnings[0]).toMatch(/redis unavailable/);
  });

  it("uses Redis again once it is back (ioredis reconnects in the background)", async () => {
    // Down first (an outage of this test's own making), then back.
    await killRedis();
    expect(one.store.shared || two.store.shared).toBe(false);
    redis = await startTempRedis(redis.port);
    redisDown = false;
    for (let i = 0; i < 500 && !(one.store.shared && two.store.shared); i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(one.store.shared && two.store.shared).toBe(true);
    const callsBefore = two.calls.length;
    await one.client.listKoncerner({});
    await two.client.listKoncerner({});
    expect(two.calls.length).toBe(callsBefore);
  });

  async function firstAccount(): Promise<string> {
    const id = (await one.client.listAccounts({ companyId: company })).items[0]?.id;
    if (!id) throw new Error("no account");
    return id;
  }
});
