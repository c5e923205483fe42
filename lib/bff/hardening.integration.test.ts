/**
 * The reproducers of issue 28 through the real route handlers, the real local treasury-api (in-memory PGlite) and the
 * real dashboard database (in memory), each asserting the answer and that nothing was stored or audited:
 *
 * 1. a NUL in text the dashboard stores itself (counterparty, CSV import and its dry run, category rule, auto-confirm
 *    rule, approver group) is 400 naming the field;
 * 2. a viewer's oversized JSON to a settings route is 413, before it is read;
 * 6. approval policies and auto-confirm rules refuse an unknown company id (400 naming company_id);
 *    `review?company_id=<another company>` is 403 as `unmatched` is; a JSON write without Content-Type is 415.
 */
import { describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
vi.mock("../auth/session", async () => (await import("./testing/local-api")).sessionModule);
vi.mock("next/headers", async () => (await import("./testing/local-api")).headersModule);

import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { count } from "drizzle-orm";
import type { DashboardUser } from "../db/users";
import {
  approverGroups,
  approvalPolicies,
  auditEvents,
  cashflowCategoryRules,
  counterparties,
  reconciliationAutoRules,
} from "../db/schema";
import { dashboardDb } from "../server/db";
import { bffSuite, errorFields, session, testUser, type RouteHandler } from "./testing/local-api";
import * as counterpartiesRoute from "../../app/api/counterparties/route";
import * as importRoute from "../../app/api/counterparties/import/route";
import * as categoriesRoute from "../../app/api/categories/route";
import * as autoRulesRoute from "../../app/api/reconciliation-rules/route";
import * as groupsRoute from "../../app/api/policies/groups/route";
import * as policiesRoute from "../../app/api/policies/route";
import * as currencyRoute from "../../app/api/session/reporting-currency/route";
import * as reviewRoute from "../../app/api/treasury/reconciliation/review/route";
import * as unmatchedRoute from "../../app/api/treasury/reconciliation/unmatched/route";

const ORIGIN = "http://127.0.0.1:3995";
const bff = bffSuite({ origin: ORIGIN });
const admin = testUser("hardening.admin", ["admin"]);
const treasurer = testUser("hardening.treasurer", ["treasurer"]);

function call(
  handler: unknown,
  who: DashboardUser,
  method: string,
  path: string,
  opts: { json?: unknown; companyId?: string } = {},
) {
  return bff.call(handler, who, method, path, opts);
}

/** Rows of every table these writes could fill, and the audit log. */
async function stored() {
  const db = await dashboardDb();
  const n = async (t: Parameters<typeof db.select>[0] extends never ? never : object) =>
    Number((await db.select({ n: count() }).from(t as typeof auditEvents))[0]?.n ?? 0);
  return {
    audit: await n(auditEvents),
    counterparties: await n(counterparties),
    categories: await n(cashflowCategoryRules),
    autoRules: await n(reconciliationAutoRules),
    groups: await n(approverGroups),
    policies: await n(approvalPolicies),
  };
}

describe("NUL in text the dashboard stores (finding 1)", () => {
  it("counterparty, import (dry run too), category, auto-confirm rule, approver group: 400 naming the field", async () => {
    const company = bff.local.company().id;
    const before = await stored();
    const cases: [unknown, DashboardUser, string, unknown, string][] = [
      [
        counterpartiesRoute.POST,
        treasurer,
        "/api/counterparties",
        { name: "Nul\u0000Payee", iban: "NL91ABNA0417164300" },
        "name",
      ],
      [
        importRoute.POST,
        treasurer,
        "/api/counterparties/import",
        { csv: "name,iban\nNul\u0000 AS,NL91ABNA0417164300\n", dryRun: true },
        "csv",
      ],
      [
        importRoute.POST,
        treasurer,
        "/api/counterparties/import",
        { csv: "name,iban\nNul\u0000 AS,NL91ABNA0417164300\n" },
        "csv",
      ],
      [
        categoriesRoute.POST,
        admin,
        "/api/categories",
        { category: "Rent\u0000", counterparty_contains: "x" },
        "category",
      ],
      [autoRulesRoute.POST, admin, "/api/reconciliation-rules", { name: "N\u0000", min_score: 90 }, "name"],
      [groupsRoute.POST, admin, "/api/policies/groups", { name: "Leads\u0000" }, "name"],
    ];
    for (const [handler, who, path, json, field] of cases) {
      const res = await call(handler, who, "POST", path, { json, companyId: company });
      expect(res.status, path).toBe(400);
      expect(errorFields(res.body), path).toEqual([field]);
    }
    expect(await stored()).toEqual(before);
  });
});

describe("request size (finding 2)", () => {
  it("a viewer's 50 MB JSON to PUT /api/session/reporting-currency is 413 and is not read", async () => {
    session.user = testUser("hardening.viewer", ["viewer"]);
    let pulled = false;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(c) {
          pulled = true;
          c.enqueue(new Uint8Array(1024));
        },
      },
      { highWaterMark: 0 },
    );
    const req = new NextRequest(`${ORIGIN}/api/session/reporting-currency`, {
      method: "PUT",
      headers: {
        origin: ORIGIN,
        "idempotency-key": randomUUID(),
        "content-type": "application/json",
        "content-length": String(50 * 1024 * 1024),
      },
      body,
      duplex: "half",
    } as unknown as ConstructorParameters<typeof NextRequest>[1]);
    const res = await (currencyRoute.PUT as unknown as RouteHandler)(req, { params: Promise.resolve({}) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toBe("payload_too_large");
    expect(pulled).toBe(false);
  });
});

describe("company ids and Content-Type (finding 6)", () => {
  it("approval policies and auto-confirm rules refuse a company id that does not exist: 400 naming company_id", async () => {
    const before = await stored();
    const unknown = randomUUID();
    const policy = await call(policiesRoute.POST, admin, "POST", "/api/policies", {
      json: { name: "Unknown company", company_id: unknown, required_approvals: 2, eligible_roles: ["approver"] },
    });
    expect(policy.status).toBe(400);
    expect(errorFields(policy.body)).toEqual(["company_id"]);
    const rule = await call(autoRulesRoute.POST, admin, "POST", "/api/reconciliation-rules", {
      json: { name: "Unknown company", min_score: 95, company_id: unknown },
    });
    expect(rule.status).toBe(400);
    expect(errorFields(rule.body)).toEqual(["company_id"]);
    expect(await stored()).toEqual(before);
    // Control: a company the API lists is accepted.
    const ok = await call(autoRulesRoute.POST, admin, "POST", "/api/reconciliation-rules", {
      json: { name: `Known ${randomUUID().slice(0, 8)}`, min_score: 95, company_id: bff.local.company().id },
    });
    expect(ok.status).toBe(201);
  });

  it("review?company_id=<a company the user may not see> is 403, as unmatched is", async () => {
    const [mine, other] = bff.local.companies();
    if (!mine || !other) throw new Error("the demo seed links two companies at least");
    const limited = testUser("hardening.limited", ["treasurer"], [mine.id]);
    const getAsLimited = (route: { GET: unknown }, path: string) =>
      call(route.GET, limited, "GET", path, { companyId: mine.id });
    const unmatched = await getAsLimited(
      unmatchedRoute,
      `/api/treasury/reconciliation/unmatched?company_id=${other.id}`,
    );
    expect(unmatched.status).toBe(403);
    const review = await getAsLimited(reviewRoute, `/api/treasury/reconciliation/review?company_id=${other.id}`);
    expect(review.status).toBe(403);
    // Their own company: answered, only its rows.
    const own = await getAsLimited(reviewRoute, `/api/treasury/reconciliation/review?company_id=${mine.id}`);
    expect(own.status).toBe(200);
    const items = (own.body as { items: { match: { company_id?: string } }[] }).items;
    expect(items.every((row) => row.match.company_id === mine.id)).toBe(true);
  });

  it("a JSON write with an empty Content-Type is 415 naming application/json; nothing is stored", async () => {
    const before = await stored();
    session.user = treasurer;
    session.cookie = bff.local.company().id;
    const req = new NextRequest(`${ORIGIN}/api/counterparties`, {
      method: "POST",
      headers: { origin: ORIGIN, "idempotency-key": randomUUID(), "content-type": "" },
      body: JSON.stringify({ name: "No Type AS", iban: "NL91ABNA0417164300" }),
    });
    const res = await (counterpartiesRoute.POST as unknown as RouteHandler)(req, { params: Promise.resolve({}) });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { message: string }).message).toContain("application/json");
    expect(await stored()).toEqual(before);
  });
});
