/**
 * Integration tests of the treasury client against the real local
 * treasury-api (in-memory PGlite, demo seed): both forms, pagination,
 * errors, token renewal after a revoked token, idempotent replays and the
 * 429 path of the rate limiter.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import { sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { startLoopbackServer, type RunningServer } from "@treasury/test-support/local-api";
import { DEMO_PARTNER_A, DEMO_TREASURY_B } from "@treasury/test-support/local-api";
import { createTreasuryClient, type TreasuryClientConfig } from "./client";
import { TreasuryApiError } from "./errors";
import { collectAll } from "./pagination";

/** The limiter's window in this file: 60 calls per RATE_WINDOW_SECONDS. */
const RATE_WINDOW_SECONDS = 8;

let api: RunningServer;
let base: string;
let tenantId: string;
let koncernCompanies: string[];

beforeAll(async () => {
  // A small seed (scale 0.1) keeps the start fast; a small rate limit makes the 429 path reachable.
  api = await startLoopbackServer({
    seed: "demo",
    seedScale: 0.1,
    rateLimit: { limit: 60, windowSeconds: RATE_WINDOW_SECONDS },
  });
  base = `${api.url}/public`;
  const fixtures = api.fixtures;
  if (!fixtures) throw new Error("demo seed did not run");
  tenantId = fixtures.tenants.find((t) => t.key === "nordlys")?.id ?? "";
  koncernCompanies = fixtures.companies
    .filter((c) => c.koncern_id !== null && c.tenant_id === tenantId)
    .map((c) => c.id);
}, 120_000);

afterAll(async () => {
  await api?.close();
});

function formB(over: Partial<TreasuryClientConfig> = {}) {
  return createTreasuryClient({
    baseUrl: base,
    form: "B",
    clientId: DEMO_TREASURY_B.clientId,
    clientSecret: DEMO_TREASURY_B.clientSecret,
    scopes: DEMO_TREASURY_B.scopes,
    ...over,
  });
}

describe("Form B (demo-treasury-b)", () => {
  it("lists the linked companies and reads accounts with company context", async () => {
    const c = formB();
    const companies = await collectAll(c.listCompanies({}));
    // The seeded koncern, plus a company the upsert test below links to this client when it has run first (the tests
    // run in any order): nothing else.
    const upserted = companies.filter((x) => x.orgnr === "999888777").map((x) => x.id);
    expect(upserted.length).toBeLessThanOrEqual(1);
    expect(companies.map((x) => x.id).sort()).toEqual([...koncernCompanies, ...upserted].sort());
    const company = companies.find((x) => koncernCompanies.includes(x.id));
    if (!company) throw new Error("no company");
    const accounts = await c.listAccounts({ companyId: company.id });
    expect(accounts.count).toBe(accounts.items.length);
    const first = accounts.items[0];
    if (!first) throw new Error("no account");
    await expect(c.getAccount({ companyId: company.id }, first.id)).resolves.toMatchObject({
      id: first.id,
      currency: first.currency,
    });
  });

  it("the pagination iterator follows next across pages with filters kept", async () => {
    const c = formB();
    const companyId = koncernCompanies[0] ?? "";
    const first = await c.listTransactions({ companyId }, { pageSize: 5, direction: "debit" });
    expect(first.next).not.toBeNull();
    const all = await collectAll(c.listTransactions({ companyId }, { pageSize: 5, direction: "debit" }), {
      maxPages: 4,
    });
    expect(all.length).toBe(Math.min(20, first.count ?? 0));
    expect(new Set(all.map((t) => t.id)).size).toBe(all.length);
    expect(all.every((t) => t.direction === "debit")).toBe(true);
  });

  it("404 for an object outside the scope, 403 for a company not linked, 400 names the field", async () => {
    const c = formB();
    const companyId = koncernCompanies[0] ?? "";
    await expect(c.getAccount({ companyId }, randomUUID())).rejects.toMatchObject({ status: 404, code: "not_found" });
    await expect(c.listAccounts({ companyId: randomUUID() })).rejects.toMatchObject({
      status: 403,
      code: "permission_denied",
    });
    const err = await c.listTransactions({ companyId }, { from_date: "2026-02-30" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TreasuryApiError);
    expect((err as TreasuryApiError).details).toHaveProperty("errors.from_date");
  });

  it("bad client credentials: 401 invalid_client", async () => {
    await expect(formB({ clientSecret: "wrong" }).listCompanies({})).rejects.toMatchObject({
      status: 401,
      code: "invalid_client",
    });
  });

  it("a revoked token is renewed on 401 and the call repeated once", async () => {
    const c = formB();
    await c.listCompanies({});
    expect(c.tokens.requests).toBe(1);
    await api.database.db.execute(sql`delete from access_tokens`);
    await expect(c.listCompanies({})).resolves.toMatchObject({ items: expect.any(Array) });
    expect(c.tokens.requests).toBe(2);
  });

  it("writes carry the Idempotency-Key: the same key replays the same company", async () => {
    const c = formB();
    const key = randomUUID();
    const body = { orgnr: "999888777", name: "Integration Test AS", country: "NO" };
    const a = await c.upsertCompany({ idempotencyKey: key }, body);
    const b = await c.upsertCompany({ idempotencyKey: key }, body);
    expect(b.id).toBe(a.id);
    await expect(c.upsertCompany({ idempotencyKey: key }, { ...body, name: "Other" })).rejects.toMatchObject({
      status: 409,
      code: "conflict",
    });
  });

  it("429 from the rate limiter is waited out and retried", async () => {
    const sleeps: number[] = [];
    const sleep = async (ms: number) => {
      sleeps.push(ms);
      await new Promise((r) => setTimeout(r, ms));
    };
    const c = formB({ sleep, retry: { maxAttempts: 6, maxRetryAfterMs: 10_000 } });
    const companyId = koncernCompanies[0] ?? "";
    await c.listAccounts({ companyId }, { pageSize: 1 }); // the token, before the burst
    // The limiter's windows are fixed and aligned to the epoch: a burst that straddles a
    // boundary could fit 45 + 45 under 60 and never be throttled on a slow machine. Start
    // right after a boundary so that the 90 first attempts land in one window.
    const intoWindowMs = Date.now() % (RATE_WINDOW_SECONDS * 1000);
    await new Promise((r) => setTimeout(r, RATE_WINDOW_SECONDS * 1000 - intoWindowMs + 20));
    // 90 calls at once against 60 per window: some are throttled, waited out and retried; all succeed.
    const results = await Promise.all(Array.from({ length: 90 }, () => c.listAccounts({ companyId }, { pageSize: 1 })));
    expect(results).toHaveLength(90);
    expect(sleeps.length).toBeGreaterThan(0);
    expect(Math.max(...sleeps)).toBeLessThanOrEqual(10_000);
  });
});

describe("Form A (demo-partner-a)", () => {
  it("bare arrays with limit, X-Tenant-ID from the config", async () => {
    const c = createTreasuryClient({
      baseUrl: base,
      form: "A",
      tenantId,
      clientId: DEMO_PARTNER_A.clientId,
      clientSecret: DEMO_PARTNER_A.clientSecret,
      scopes: ["read:ledger"],
    });
    const companies = await c.listCompanies({});
    expect(companies.count).toBeNull();
    expect(companies.items.length).toBeGreaterThan(0);
    const page = await c.listTransactions({ companyId: koncernCompanies[0] }, { pageSize: 3 });
    expect(page.items).toHaveLength(3);
    expect(page.next).toBeNull();
  });

  it("a tenant the partner may not use is refused at the token endpoint", async () => {
    const c = createTreasuryClient({
      baseUrl: base,
      form: "A",
      tenantId: randomUUID(),
      clientId: DEMO_PARTNER_A.clientId,
      clientSecret: DEMO_PARTNER_A.clientSecret,
      scopes: ["read:ledger"],
    });
    await expect(c.listCompanies({})).rejects.toMatchObject({ status: 403 });
  });
});
