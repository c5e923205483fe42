/**
 * Risk signals through the BFF's real route handlers, against the real local
 * treasury-api (in-memory PGlite, small demo seed) and the dashboard's
 * in-memory database:
 *
 * - a second batch paying the same IBAN the same amount is flagged
 *   `possible_duplicate` (high), with the earlier batch as evidence;
 * - approving it without acknowledging that signal is refused (409 naming the
 *   missing code, nothing sent upstream); with the acknowledgement it passes,
 *   and the audit entry carries the acknowledged codes;
 * - a batch above the debtor account's available balance is flagged
 *   `insufficient_funds` with the balance and the shortfall as evidence;
 * - bad input: an unknown signal code is 400 naming the field;
 * - the navigation's waiting count (GET /api/treasury/approvals/waiting): a submission raises it for the eligible
 *   approvers of the batch's company, one read per user is cached, the approver's own approval lowers theirs, and a
 *   user of other companies never counts the batch.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

vi.mock("../auth/session", async () => (await import("./testing/local-api")).sessionModule);
vi.mock("next/headers", async () => (await import("./testing/local-api")).headersModule);

import { listAudit } from "../db/audit";
import { dashboardDb } from "../server/db";
import { seedDemoRates } from "../fx/demo-rates";
import { collectAll, type TreasuryClient } from "../treasury-client";
import { callRoute, startLocalApi, testUser, useBffEnv, type LocalApi, type RouteHandler } from "./testing/local-api";
import type { DashboardUser } from "../db/users";
import type { BatchRisk } from "../views/payments";
import * as batchesRoute from "../../app/api/treasury/payments/batches/route";
import * as submitRoute from "../../app/api/treasury/payments/batches/[id]/submit/route";
import * as riskRoute from "../../app/api/treasury/payments/batches/[id]/risk/route";
import * as payeeRoute from "../../app/api/treasury/payments/batches/[id]/payee-history/route";
import * as approveRoute from "../../app/api/treasury/approvals/[id]/approve/route";
import * as waitingRoute from "../../app/api/treasury/approvals/waiting/route";

const ORIGIN = "http://127.0.0.1:3998";
type Handler = RouteHandler;

let local: LocalApi;
let client: TreasuryClient;
let company: { id: string; name: string };
const upstreamApprovals: string[] = [];
/** Every upstream read of the pending approval queue (the waiting count's one read). */
const pendingReads: string[] = [];

const treasurer = testUser("tina-treasurer", ["treasurer"]);
const approver = testUser("anna-approver", ["approver"]);

function call(
  handler: Handler,
  who: DashboardUser,
  method: string,
  path: string,
  opts: { params?: Record<string, string>; json?: unknown } = {},
) {
  return callRoute(handler, { who, origin: ORIGIN, method, path, companyId: company.id, ...opts });
}

/** Creates and submits a one-instruction NOK batch; returns its id and its approval request's id. */
async function submitted(amount: string, iban: string, e2e: string): Promise<{ batchId: string; approvalId: string }> {
  const created = await call(batchesRoute.POST as Handler, treasurer, "POST", "/payments/batches", {
    json: {
      company_id: company.id,
      currency: "NOK",
      instructions: [
        { amount, currency: "NOK", creditor_name: "Fjordkraft AS", creditor_iban: iban, end_to_end_id: e2e },
      ],
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const batchId = String(created.body.id);
  const sub = await call(submitRoute.POST as Handler, treasurer, "POST", `/payments/batches/${batchId}/submit`, {
    params: { id: batchId },
  });
  expect(sub.status, JSON.stringify(sub.body)).toBe(202);
  const pending = await collectAll(client.listPendingApprovals({ companyId: company.id }, { pageSize: 1000 }));
  const approvalId = pending.find((p) => p.object_id === batchId)?.id;
  if (!approvalId) throw new Error("approval request not found");
  return { batchId, approvalId };
}

async function risk(batchId: string): Promise<BatchRisk> {
  const r = await call(riskRoute.GET as Handler, approver, "GET", `/payments/batches/${batchId}/risk`, {
    params: { id: batchId },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as unknown as BatchRisk;
}

beforeAll(async () => {
  local = await startLocalApi({
    fetch: (input, init, next) => {
      const url = String(input instanceof Request ? input.url : input);
      if (init?.method === "POST" && url.includes("/approve")) upstreamApprovals.push(url);
      if (url.includes("/approvals/pending")) pendingReads.push(url);
      return next(input, init);
    },
  });
  useBffEnv(local, ORIGIN);
  client = local.client;
  // The default approval policy is stated in EUR: with no FX rate it would fail closed (two approvals).
  await seedDemoRates(await dashboardDb(), new Date().toISOString().slice(0, 10));
  company = local.company();
}, 240_000);
afterAll(async () => {
  await local?.api.close();
});

describe("high-risk signals need an acknowledgement to approve", () => {
  it(
    "flags a duplicate, refuses the approval without acknowledgement, accepts it with one and audits the " + "codes",
    async () => {
      const iban = "NO93 8601 1117 947";
      await submitted("1234.50", iban, `RISK-A-${Date.now()}`);
      const second = await submitted("1234.50", iban, `RISK-B-${Date.now()}`);

      const r = await risk(second.batchId);
      const dup = r.signals.find((s) => s.code === "possible_duplicate");
      expect(dup).toMatchObject({ severity: "high", instruction: 0, creditor_iban: "NO9386011117947" });
      expect(JSON.stringify(dup?.evidence)).toContain("same_iban_and_amount");
      expect(r.requires_acknowledgement).toContain("possible_duplicate");
      expect(r.debtor_account).toMatchObject({ currency: "NOK" });

      const history = await call(
        payeeRoute.GET as Handler,
        approver,
        "GET",
        `/payments/batches/${second.batchId}/payee-history?iban=${encodeURIComponent(iban)}`,
        { params: { id: second.batchId } },
      );
      expect(history.status).toBe(200);
      // The earlier batch's payment; the batch under review is left out of its own history.
      const payments = history.body.payments as { batch_id: string }[];
      expect(payments.length).toBeGreaterThanOrEqual(1);
      expect(payments.some((p) => p.batch_id === second.batchId)).toBe(false);

      const before = upstreamApprovals.length;
      // The second batch's approval as the approver, with the body given (none: no acknowledgement).
      const approve = (json?: { acknowledged_signals: unknown }) =>
        call(approveRoute.POST as Handler, approver, "POST", `/approvals/${second.approvalId}/approve`, {
          params: { id: second.approvalId },
          ...(json ? { json } : {}),
        });
      const refused = await approve();
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        error: "conflict",
        details: { reason: "acknowledgement_required", missing: expect.arrayContaining(["possible_duplicate"]) },
      });
      expect(String(refused.body.message)).toContain("possible duplicate");
      expect(upstreamApprovals.length).toBe(before);

      const bad = await approve({ acknowledged_signals: ["not_a_signal"] });
      expect(bad.status).toBe(400);
      expect(String(bad.body.message)).toContain("acknowledged_signals");

      const ok = await approve({ acknowledged_signals: r.requires_acknowledgement });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(upstreamApprovals.length).toBe(before + 1);

      const audit = await listAudit(await dashboardDb(), {
        companyIds: null,
        action: "approval.approve",
        objectIds: [second.approvalId],
        limit: 10,
      });
      expect(audit).toHaveLength(1);
      expect(audit[0]?.userEmail).toBe(approver.email);
      expect(audit[0]?.details).toMatchObject({
        batch_id: second.batchId,
        acknowledged_signals: expect.arrayContaining(["possible_duplicate"]),
        signals: expect.arrayContaining(["possible_duplicate"]),
      });
    },
  );

  it("flags a batch above the debtor account's available balance as insufficient funds", async () => {
    const big = await submitted("999999999.00", "NO93 8601 1117 947", `RISK-C-${Date.now()}`);
    const r = await risk(big.batchId);
    const funds = r.signals.find((s) => s.code === "insufficient_funds");
    expect(funds).toMatchObject({ severity: "high", instruction: null });
    expect(funds?.evidence).toMatchObject({ reason: "above_available", batch_total: "999999999" });
    expect(r.debtor_account?.available_balance).not.toBeNull();
    expect(r.requires_acknowledgement).toContain("insufficient_funds");
  });
});

describe("the navigation's count of batches waiting for my approval", () => {
  async function waiting(who: DashboardUser): Promise<number> {
    // No selected company: the count spans every company of the user (a user of other companies has no cookie here).
    const r = await callRoute(waitingRoute.GET as Handler, {
      who,
      origin: ORIGIN,
      method: "GET",
      path: "/approvals/waiting",
      companyId: undefined,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return Number(r.body.waiting);
  }

  it("rises on submission for eligible approvers, is one cached read, and falls when the approver decides", async () => {
    const otto = testUser("otto-approver", ["approver"]);
    const outsider = testUser("olga-other-company", ["approver"], ["00000000-0000-4000-8000-000000000000"]);
    const [before, ottoBefore] = [await waiting(approver), await waiting(otto)];
    expect(await waiting(outsider)).toBe(0);

    const b = await submitted("321.00", "NO83 3000 1234 567", `WAIT-${Date.now()}`);
    expect(await waiting(approver)).toBe(before + 1);
    expect(await waiting(otto)).toBe(ottoBefore + 1);
    // Nothing changed: the second ask is served from the cache, no upstream read.
    const reads = pendingReads.length;
    expect(await waiting(approver)).toBe(before + 1);
    expect(pendingReads.length).toBe(reads);
    expect(await waiting(outsider)).toBe(0);

    const ok = await call(approveRoute.POST as Handler, approver, "POST", `/approvals/${b.approvalId}/approve`, {
      params: { id: b.approvalId },
      json: { acknowledged_signals: (await risk(b.batchId)).requires_acknowledgement },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    // Approved by her (the batch may still wait for a second approver): no longer waiting for her.
    expect(await waiting(approver)).toBe(before);
  });

  it("the creator is never counted (four-eyes), and a user who may not decide has no count", async () => {
    const both = testUser("lina-lead", ["treasurer", "approver"]);
    const mine = await waiting(both);
    const created = await call(batchesRoute.POST as Handler, both, "POST", "/payments/batches", {
      json: {
        company_id: company.id,
        currency: "NOK",
        instructions: [
          {
            amount: "45.10",
            currency: "NOK",
            creditor_name: "Fjordkraft AS",
            creditor_iban: "NO83 3000 1234 567",
            end_to_end_id: `WAIT-OWN-${Date.now()}`,
          },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = String(created.body.id);
    const sub = await call(submitRoute.POST as Handler, both, "POST", `/payments/batches/${id}/submit`, {
      params: { id },
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(202);
    expect(await waiting(both)).toBe(mine);
    const refused = await call(waitingRoute.GET as Handler, treasurer, "GET", "/approvals/waiting");
    expect(refused.status).toBe(403);
  });
});
