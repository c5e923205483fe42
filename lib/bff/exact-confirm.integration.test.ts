/**
 * Reconciliation at a glance against the real local treasury-api (in-memory PGlite, small demo seed): the review
 * names the exact proposals (score 100) with totals per currency; "Confirm all exact matches" confirms only proposals
 * it re-checks as exact (a lower score or a decided match is refused on its own line), audits each, and a retry with
 * the same key confirms nothing twice; the one-click undo reopens the user's own confirmation and nobody else's.
 */
import { describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
vi.mock("../auth/session", async () => (await import("./testing/local-api")).sessionModule);
vi.mock("next/headers", async () => (await import("./testing/local-api")).headersModule);

import { randomUUID } from "node:crypto";
import Decimal from "decimal.js";
import type { ReconciliationMatch } from "@treasury/contract";
import type { DashboardUser } from "../db/users";
import { listAudit } from "../db/audit";
import { dashboardDb } from "../server/db";
import { collectAll } from "../treasury-client";
import type { MatchReviewPage } from "../views/reconciliation";
import { bffSuite, errorFields, testUser } from "./testing/local-api";
import * as exactRoute from "../../app/api/treasury/reconciliation/matches/confirm-exact/route";
import * as undoRoute from "../../app/api/treasury/reconciliation/matches/[id]/undo-confirm/route";
import * as reviewRoute from "../../app/api/treasury/reconciliation/review/route";

const bff = bffSuite({ origin: "http://127.0.0.1:3996", capabilities: "advertised" });
const treasurer = testUser("exact.treasurer", ["treasurer"]);
const other = testUser("exact.other", ["treasurer"]);

const call = (handler: unknown, method: string, path: string, who: DashboardUser, opts = {}) =>
  bff.call(handler, who, method, path, opts);
const confirmExact = (ids: string[], key = randomUUID(), who = treasurer) =>
  call(exactRoute.POST, "POST", "/api/treasury/reconciliation/matches/confirm-exact", who, { json: { ids }, key });
const undo = (id: string, who = treasurer) =>
  call(undoRoute.POST, "POST", `/api/treasury/reconciliation/matches/${id}/undo-confirm`, who, {
    params: { id },
    key: randomUUID(),
  });
const matches = async (): Promise<ReconciliationMatch[]> => [
  ...(await collectAll(bff.client.listMatches({ cache: "no-store" }, { pageSize: 1000 }))),
];
const stateOf = async (id: string) => (await matches()).find((m) => m.id === id)?.state;

describe("exact matches", () => {
  it("refuses bad bodies with 400 naming ids, and a viewer with 403", async () => {
    for (const json of [{}, { ids: [] }, { ids: ["x"] }, { ids: Array.from({ length: 101 }, () => randomUUID()) }]) {
      const r = await call(exactRoute.POST, "POST", "/api/treasury/reconciliation/matches/confirm-exact", treasurer, {
        json,
        key: randomUUID(),
      });
      expect(r.status, JSON.stringify(json).slice(0, 40)).toBe(400);
      expect(errorFields(r.body).some((f) => f.startsWith("ids"))).toBe(true);
    }
    const viewer = testUser("exact.viewer", ["viewer"]);
    expect((await confirmExact([randomUUID()], randomUUID(), viewer)).status).toBe(403);
    expect((await undo(randomUUID(), viewer)).status).toBe(403);
  });

  it("the review names the exact proposals with their totals per currency", async () => {
    const r = await call(reviewRoute.GET, "GET", "/api/treasury/reconciliation/review?tab=proposed", treasurer);
    expect(r.status).toBe(200);
    const page = r.body as unknown as MatchReviewPage;
    const all = await matches();
    const exact = all.filter((m) => m.state === "proposed" && m.score === 100);
    expect(exact.length).toBeGreaterThan(0);
    expect(page.exact?.count).toBe(exact.length);
    expect(new Set(page.exact?.ids)).toEqual(new Set(exact.slice(0, 100).map((m) => m.id)));
    // The totals are the instruction amounts summed exactly, per currency.
    const sums = new Map<string, Decimal>();
    for (const m of exact) {
      const i = await bff.client.getInstruction({ companyId: m.company_id }, m.payment_instruction_id);
      sums.set(i.currency, (sums.get(i.currency) ?? new Decimal(0)).plus(i.amount));
    }
    expect(page.exact?.totals).toEqual(
      [...sums.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([currency, t]) => ({ currency, total: t.toFixed(2) })),
    );
  });

  it("confirms only what it re-checks as exact, audits each, and a retry confirms nothing twice", async () => {
    const all = await matches();
    const seen = new Set<string>();
    const free = (m: ReconciliationMatch) =>
      !seen.has(m.transaction_id) && !seen.has(m.payment_instruction_id) && seen.add(m.transaction_id);
    const exact = all.filter((m) => m.state === "proposed" && m.score === 100 && free(m)).slice(0, 2);
    const lower = all.find((m) => m.state === "proposed" && m.score < 100);
    const decided = all.find((m) => m.state === "rejected");
    expect(exact).toHaveLength(2);
    expect(lower && decided).toBeTruthy();
    const ids = [...exact.map((m) => m.id), lower?.id ?? "", decided?.id ?? "", randomUUID()];
    const key = randomUUID();
    const r = await confirmExact(ids, key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ confirmed: 2, refused: 3 });
    const results = r.body.results as { id: string; status: string; error?: string }[];
    expect(results.map((x) => x.error ?? x.status)).toEqual([
      "confirmed",
      "confirmed",
      "not_exact",
      "not_exact",
      "not_found",
    ]);
    expect(await stateOf(lower?.id ?? "")).toBe("proposed");
    for (const m of exact) expect(await stateOf(m.id)).toBe("confirmed");
    const db = await dashboardDb();
    const audited = async () =>
      listAudit(db, { companyIds: null, action: "reconciliation_match.confirm", objectIds: ids, limit: 50 });
    expect((await audited()).map((a) => [a.objectId, a.details.exact])).toEqual(
      expect.arrayContaining(exact.map((m) => [m.id, true])),
    );
    expect(await audited()).toHaveLength(2);

    // A retry of the same request replays the two confirmations; a new request refuses them as decided.
    const again = await confirmExact(ids, key);
    expect(again.body).toMatchObject({ confirmed: 2, refused: 3 });
    expect((await audited()).filter((a) => a.outcome === "replayed")).toHaveLength(2);
    const fresh = await confirmExact(exact.map((m) => m.id));
    expect(fresh.body).toMatchObject({ confirmed: 0, refused: 2 });
    expect(await audited()).toHaveLength(4);

    // Undo: nobody else may undo the treasurer's confirmation; the treasurer may, and it is proposed again.
    const id = exact[0]?.id ?? "";
    expect((await undo(id, other)).status).toBe(404);
    expect(await stateOf(id)).toBe("confirmed");
    const u = await undo(id);
    expect(u.status, JSON.stringify(u.body)).toBe(200);
    expect(await stateOf(id)).toBe("proposed");
    const reopen = await listAudit(db, {
      companyIds: null,
      action: "reconciliation_match.reopen",
      objectIds: [id],
      limit: 5,
    });
    expect(reopen.map((a) => [a.userEmail, a.details.undo])).toEqual([[treasurer.email, "confirmation"]]);
    // A match never confirmed here cannot be undone.
    expect((await undo(lower?.id ?? "")).status).toBe(404);
  });
});
