/**
 * The demo tells the story (docs/guides/demo.md): a fresh demo — the real local treasury-api with its demo seed and
 * the dashboard's database in demo mode, opened as the product opens it (`dashboardDb`: demo users, FX rates, then
 * lib/server/demo-story.ts) — has
 * - a counterparty register per company: its suppliers, recorded by the demo treasurer and verified by the demo
 *   lead (history and audit name both), one left pending verification;
 * - the demo category rules (salaries, taxes, rent, energy) that categorise part of the ledger, not all of it;
 * - and, the measure of issue 30: under a quarter of the pending batches carry a medium or high risk signal. The
 *   share and each signal's reason are printed (`npx vitest run lib/bff/demo-story.integration.test.ts`).
 * Run again, the story writes nothing (once per database).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
vi.mock("../auth/session", async () => (await import("./testing/local-api")).sessionModule);
vi.mock("next/headers", async () => (await import("./testing/local-api")).headersModule);

import { categorise } from "../categories/rules";
import { listCategoryRules } from "../categories/store";
import { counterpartyHistory } from "../db/schema";
import { listAudit } from "../db/audit";
import { findUserByEmail, type DashboardUser } from "../db/users";
import { callRoute, startLocalApi, useBffEnv, type LocalApi, type RouteHandler } from "./testing/local-api";
import { collectAll } from "../treasury-client";
import type { BatchRisk } from "../views/payments";
import * as riskRoute from "../../app/api/treasury/payments/batches/[id]/risk/route";
import { dashboardDb } from "../server/db";
import { DEMO_CHECKER, DEMO_MAKER, seedDemoStory } from "../server/demo-story";
import { listCounterparties } from "../counterparties/counterparties";

const ORIGIN = "http://127.0.0.1:3997";

let local: LocalApi;
let approver: DashboardUser;

beforeAll(async () => {
  // The demo's own scale (1): the debtor accounts' balances, and so the funds check, are the demo's.
  local = await startLocalApi({ seedScale: 1 });
  // Demo mode with the product's defaults (DASHBOARD_RISK_UNVERIFIED_HIGH unset: its default amounts).
  useBffEnv(local, ORIGIN, { DASHBOARD_DEMO: "1" });
  delete process.env.DASHBOARD_RISK_UNVERIFIED_HIGH;
  const db = await dashboardDb();
  const anna = await findUserByEmail(db, "approver@demo.local");
  if (!anna) throw new Error("demo approver missing");
  approver = anna;
}, 300_000);
afterAll(async () => {
  await local?.api.close();
});

describe("the demo story", () => {
  it("registers each company's suppliers, verified by a second person, one left pending", async () => {
    const db = await dashboardDb();
    let verified = 0;
    let pending = 0;
    for (const company of local.companies()) {
      const cps = await listCounterparties(db, approver, company.id);
      verified += cps.filter((c) => c.status === "verified").length;
      pending += cps.filter((c) => c.status === "pending_verification").length;
      // Never a bank-test name ("REJECT …") among the payees.
      expect(cps.filter((c) => /^REJECT\b/i.test(c.name))).toEqual([]);
    }
    expect(verified).toBeGreaterThanOrEqual(local.companies().length * 3);
    expect(pending).toBeGreaterThanOrEqual(1);
    // Maker-checker: each verified payee's history names the treasurer's creation and the lead's verification.
    const maker = await findUserByEmail(db, DEMO_MAKER);
    const checker = await findUserByEmail(db, DEMO_CHECKER);
    const rows = await db.select().from(counterpartyHistory);
    expect(rows.filter((r) => r.event === "created").every((r) => r.byUserId === maker?.id)).toBe(true);
    expect(rows.filter((r) => r.event === "verified").every((r) => r.byUserId === checker?.id)).toBe(true);
    expect(rows.filter((r) => r.event === "verified")).toHaveLength(verified);
    const audit = await listAudit(db, { companyIds: null, limit: 500 });
    expect(audit.some((a) => a.userEmail === DEMO_CHECKER && a.objectType === "counterparty")).toBe(true);
  });

  it("seeds category rules that categorise part of the ledger, and nothing again on a second run", async () => {
    const db = await dashboardDb();
    const rules = await listCategoryRules(db);
    expect(new Set(rules.map((r) => r.category))).toEqual(new Set(["Salaries", "Taxes", "Rent", "Energy"]));
    const company = local.company();
    const txs = await collectAll(
      local.client.listTransactions({ requestId: "t", companyId: company.id }, { pageSize: 1000 }),
      { maxPages: 3 },
    );
    const byCategory = new Map<string, number>();
    for (const t of txs) {
      const c = categorise(rules, t);
      byCategory.set(c, (byCategory.get(c) ?? 0) + 1);
    }
    console.log("demo categories of", company.name, Object.fromEntries(byCategory));
    for (const c of ["Salaries", "Taxes", "Rent", "Uncategorised"]) expect(byCategory.get(c) ?? 0).toBeGreaterThan(0);

    const again = await seedDemoStory(
      db,
      local.client,
      local.companies().map((c) => c.id),
    );
    expect(again).toMatchObject({ alreadySeeded: true, categoryRules: 0 });
    expect(await listCategoryRules(db)).toHaveLength(rules.length);
  });

  it("flags under a quarter of the pending batches with a medium or high signal, and prints each reason", async () => {
    const flagged: string[] = [];
    let pending = 0;
    for (const company of local.companies()) {
      const approvals = await collectAll(
        local.client.listPendingApprovals({ requestId: "t", companyId: company.id }, { pageSize: 1000 }),
      );
      for (const a of approvals) {
        pending++;
        const r = await callRoute<BatchRisk>(riskRoute.GET as RouteHandler, {
          who: approver,
          origin: ORIGIN,
          method: "GET",
          path: `/payments/batches/${a.object_id}/risk`,
          params: { id: a.object_id },
          companyId: company.id,
        });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        const serious = r.body.signals.filter((s) => s.severity !== "low");
        if (serious.length)
          flagged.push(
            `${company.name} ${a.object_id.slice(0, 8)}: ` +
              serious.map((s) => `[${s.severity}] ${s.code}: ${s.message}`).join(" | "),
          );
      }
    }
    const share = pending ? flagged.length / pending : 0;
    console.log(
      `demo risk signals: ${flagged.length} of ${pending} pending batches (${(share * 100).toFixed(1)} %) carry a ` +
        `medium or high signal\n${flagged.join("\n")}`,
    );
    expect(pending).toBeGreaterThanOrEqual(4);
    expect(share).toBeLessThan(0.25);
  });
});
