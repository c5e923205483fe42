/**
 * The payments list (`listBatchRows`) against the real local treasury-api (in-memory PGlite, demo seed) and an
 * in-memory dashboard DB: the all-companies view merges every company of the user newest first, a page of it is the
 * same slice of the whole merged list, a company-limited user gets only their companies, a page beyond what is read
 * per company is a 400 naming `page`, and rows carry creator and approval progress as the batch page computes them.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
vi.mock("../../server/db", async () => (await import("../testing/memory-dashboard-db")).memoryDashboardDbModule());

import { startLoopbackServer, type RunningServer } from "@treasury/test-support/local-api";
import { DEMO_TREASURY_B } from "@treasury/test-support/local-api";
import type { Company } from "@treasury/contract";
import { createTreasuryClient, type TreasuryClient } from "../../treasury-client";
import type { Capabilities } from "../capabilities";
import type { BffContext } from "../context";
import { BffError } from "../errors";
import { getBatchView, listBatchRows } from "./payment-views";

let api: RunningServer;
let companies: Company[];

function ctxFor(visible: Company[], companyIds: string[] | null): BffContext {
  return {
    user: {
      id: "u-lists",
      email: "lists@test.local",
      name: "Lists",
      roles: ["treasurer"],
      companyIds,
      disabled: false,
    },
    companies: visible,
    company: visible[0] ?? null,
    requestId: "batch-list-test",
  };
}

beforeAll(async () => {
  api = await startLoopbackServer({ seed: "demo", seedScale: 0.01 });
  const linked = new Set(api.fixtures?.clients.find((c) => c.client_id === DEMO_TREASURY_B.clientId)?.company_ids);
  companies = (api.fixtures?.companies ?? [])
    .filter((c) => linked.has(c.id))
    .map((c) => ({ id: c.id, name: c.name, orgnr: c.orgnr, country: c.country }));
  if (companies.length < 3) throw new Error("demo seed did not run");
  (globalThis as { __treasuryClient?: TreasuryClient }).__treasuryClient = createTreasuryClient({
    baseUrl: `${api.url}/public`,
    form: "B",
    clientId: DEMO_TREASURY_B.clientId,
    clientSecret: DEMO_TREASURY_B.clientSecret,
    scopes: DEMO_TREASURY_B.scopes,
  });
  // No extension is needed here (the batch page asks which ones the API offers).
  (globalThis as { __treasuryCapabilities?: Capabilities }).__treasuryCapabilities = {
    has: () => false,
    ready: Promise.resolve(),
    refresh: async () => undefined,
    stop: () => undefined,
  };
}, 120_000);

afterAll(async () => {
  await api?.close();
});

describe("the payments list", () => {
  it("all companies: every company's batches merged newest first; pages are slices of the whole", async () => {
    const ctx = ctxFor(companies, null);
    const one = await listBatchRows(ctx, { page_size: 100 });
    expect(new Set(one.items.map((r) => r.company_id))).toEqual(new Set([companies[0]?.id]));

    const whole = await listBatchRows(ctx, { companies: "all", page_size: 100 });
    expect(new Set(whole.items.map((r) => r.company_id)).size).toBeGreaterThan(1);
    const created = whole.items.map((r) => r.batch.created_at);
    expect(created).toEqual([...created].sort().reverse());
    expect(whole.count).toBe(whole.items.length);
    for (const r of whole.items) expect(r.company_name).toBe(companies.find((c) => c.id === r.company_id)?.name);

    const size = 4;
    const p2 = await listBatchRows(ctx, { companies: "all", page: 2, page_size: size });
    expect(p2.items.map((r) => r.batch.id)).toEqual(whole.items.slice(size, 2 * size).map((r) => r.batch.id));
    expect(p2).toMatchObject({ page: 2, count: whole.count, has_previous: true, has_next: true });
    expect(p2.total_pages).toBe(Math.ceil((whole.count ?? 0) / size));
  });

  it("a company-limited user's all-companies list holds only their companies", async () => {
    const mine = companies.slice(1, 3);
    const rows = await listBatchRows(
      ctxFor(
        mine,
        mine.map((c) => c.id),
      ),
      { companies: "all", page_size: 100 },
    );
    expect(rows.items.length).toBeGreaterThan(0);
    for (const r of rows.items) expect(mine.map((c) => c.id)).toContain(r.company_id);
  });

  it("a page beyond 1,000 batches per company is a 400 naming page", async () => {
    const err = await listBatchRows(ctxFor(companies, null), { companies: "all", page: 21, page_size: 50 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BffError);
    expect((err as BffError).details).toMatchObject({ errors: { page: [expect.stringContaining("at most 20")] } });
  });

  it("each row's approval progress and creator are the batch page's", async () => {
    const rows = (await listBatchRows(ctxFor(companies, null), { companies: "all", page_size: 100 })).items;
    const pending = rows.find((r) => r.batch.status === "pending_approval");
    const completed = rows.find((r) => r.batch.status === "completed");
    const rejected = rows.find((r) => r.batch.status === "rejected");
    expect(pending?.approval).toMatchObject({ approved_count: 0, required_count: expect.any(Number) });
    expect(completed).toBeTruthy();
    for (const r of rows.filter((x) => x.batch.status === "created")) expect(r.approval).toBeNull();
    for (const r of [pending, completed, rejected]) {
      if (!r) continue;
      // The batch page reads in the batch's company (the selected one).
      const own = (c: Company) => c.id === r.company_id;
      const ctx = ctxFor([...companies.filter(own), ...companies.filter((c) => !own(c))], null);
      const view = await getBatchView(ctx, r.batch.id);
      expect({ approval: r.approval, policy: r.policy, created_by: r.created_by }).toEqual({
        approval: view.approval,
        policy: view.policy,
        created_by: view.created_by,
      });
      expect(r.batch.reference).toEqual(expect.any(String));
    }
  });
});
