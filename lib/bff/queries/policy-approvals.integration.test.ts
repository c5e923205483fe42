/**
 * Approval policies across the BFF, the dashboard DB (in-memory PGlite with the demo FX rates) and the local
 * treasury-api (default per-currency four-eyes thresholds): eligibility, approvals held by the dashboard until the
 * policy's count is met, forwarding that never sends fewer or more approvals than the API requires, a stored
 * policy unaffected by later rule changes, and completion after a crash between recording and forwarding.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
vi.mock("../../counterparties/counterparties", () => ({ counterpartiesForRisk: vi.fn(async () => []) }));
vi.mock("../../server/db", async () =>
  (await import("../testing/memory-dashboard-db")).memoryDashboardDbModule({ demoRates: true }),
);

import { randomUUID } from "node:crypto";
import type { Company } from "@treasury/contract";
import { upsertUser, type DashboardUser } from "../../db/users";
import { createRule, deleteRule, listRules, saveGroup, approvalsOf } from "../../policies/store";
import { dashboardDb } from "../../server/db";
import { treasury } from "../../server/treasury";
import { collectAll } from "../../treasury-client";
import { startLocalApi, upstreamPath, type LocalApi } from "../testing/local-api";
import type { BffContext, WriteScope } from "../context";
import { BffError } from "../errors";
import { decideApproval } from "./approvals";
import { decideAndStorePolicy } from "./batch-policy";
import { createBatch } from "./payments";
import { RISK_SIGNAL_CODES } from "../../payments/risk-signals";

let local: LocalApi;
let company: Company;
const approvesSent: { approver: string; key: string | null }[] = [];
/**
 * "after": every approve reaches the API and then fails as if the connection dropped (the client's retries too);
 * "before": every approve fails before reaching the API.
 */
let failApproves: false | "before" | "after" = false;
const users: Record<string, DashboardUser> = {};
let groupId = "";

beforeAll(async () => {
  local = await startLocalApi({
    // The payment-run extensions are read from the real API's OpenAPI document, as in production.
    capabilities: "advertised",
    fetch: async (input, init, next) => {
      if (init?.method === "POST" && upstreamPath(input).endsWith("/approve")) {
        const headers = new Headers(init.headers);
        approvesSent.push({
          approver: (JSON.parse(String(init.body)) as { approver: string }).approver,
          key: headers.get("Idempotency-Key"),
        });
        if (failApproves === "before") throw new Error("connection refused");
        const res = await next(input, init);
        // A crash after the API counted the approval, before the dashboard marked it sent.
        if (failApproves === "after") throw new Error("connection reset");
        return res;
      }
      return next(input, init);
    },
  });
  company = local.company();
  const db = await dashboardDb();
  process.env.DASHBOARD_BCRYPT_COST = "4";
  for (const name of ["maker", "lead1", "lead2", "lead3", "lead4", "outsider"]) {
    users[name] = await upsertUser(db, {
      email: `${name}@policy.test`,
      name,
      password: "a-long-password-1",
      roles: name === "maker" ? ["treasurer"] : ["approver"],
    });
  }
  const g = await saveGroup(db, {
    name: "Treasury leads",
    user_ids: ["lead1", "lead2", "lead3", "lead4"].map((n) => users[n]?.id ?? ""),
  });
  groupId = g.after.id;
  // Rule 1: NOK batches need three approvers from Treasury leads.
  await createRule(
    db,
    {
      name: "NOK by leads",
      company_id: null,
      currency: "NOK",
      amount_currency: null,
      min_amount: null,
      max_amount: null,
      risk: null,
      required_approvals: 3,
      eligible_roles: [],
      eligible_group_ids: [groupId],
    },
    1,
  );
}, 120_000);
afterAll(async () => {
  await local?.api.close();
});

function as(name: string): BffContext {
  const user = users[name];
  if (!user) throw new Error(name);
  return { user, companies: [company], company, requestId: randomUUID() };
}
function writing(ctx: BffContext, key: string = randomUUID()): WriteScope {
  return { ...ctx, write: { requestId: ctx.requestId, idempotencyKey: key } };
}

async function submittedBatch(amount: string): Promise<{ batchId: string; approvalId: string }> {
  const maker = as("maker");
  const batch = await createBatch(
    { ...writing(maker), write: { requestId: maker.requestId, idempotencyKey: randomUUID(), companyId: company.id } },
    {
      company_id: company.id,
      currency: "NOK",
      instructions: [
        {
          amount,
          currency: "NOK",
          creditor_name: "Fjordkraft AS",
          creditor_iban: "NO9386011117947",
          end_to_end_id: `POL-${randomUUID().slice(0, 8)}`,
        },
      ],
    },
  );
  const submitted = await treasury().submitBatch(
    { requestId: maker.requestId, idempotencyKey: randomUUID(), companyId: company.id },
    batch.id,
  );
  await decideAndStorePolicy(maker, submitted ?? batch);
  const all = await collectAll(treasury().listPendingApprovals({ companyId: company.id }, { pageSize: 1000 }));
  const found = all.find((a) => a.object_id === batch.id);
  if (!found) throw new Error("no approval request");
  return { batchId: batch.id, approvalId: found.id };
}

const approve = (name: string, id: string, key?: string) =>
  decideApproval(writing(as(name), key), id, "approve", { acknowledged_signals: [...RISK_SIGNAL_CODES] }, company.id);

async function apiState(approvalId: string) {
  const all = await collectAll(treasury().listPendingApprovals({ companyId: company.id }, { pageSize: 1000 }));
  return all.find((a) => a.id === approvalId) ?? null;
}

describe("approval policy through the BFF", () => {
  it("three approvers from the group: others refused, two held, the third completes the API's single approval", async () => {
    const { approvalId } = await submittedBatch("100.00");
    const sentBefore = approvesSent.length;
    const outsider = await approve("outsider", approvalId).catch((e: unknown) => e);
    expect(outsider).toBeInstanceOf(BffError);
    expect(outsider).toMatchObject({ status: 403, details: { reason: "not_eligible" } });
    expect((outsider as Error).message).toContain("Treasury leads");

    const first = await approve("lead1", approvalId);
    expect(first.policy).toMatchObject({ approvals: 1, required: 3, held: true });
    expect(first.policy?.explanation).toBe("Rule 1 (NOK by leads): NOK → 3 approvers from Treasury leads");
    const again = await approve("lead1", approvalId).catch((e: unknown) => e);
    expect(again).toMatchObject({ status: 409, details: { reason: "already_approved" } });
    expect((await approve("lead2", approvalId)).policy).toMatchObject({ approvals: 2, held: true });
    expect(approvesSent.length).toBe(sentBefore);
    expect(await apiState(approvalId)).toMatchObject({ approved_count: 0, required_count: 1 });

    const third = await approve("lead3", approvalId);
    expect(third.policy).toMatchObject({ approvals: 3, required: 3, held: false });
    expect(third.approval).toMatchObject({ state: "approved", approved_count: 1 });
    expect(approvesSent.slice(sentBefore).map((s) => s.approver)).toEqual([users.lead3?.id]);
  });

  it("when the API needs two (NOK 1,000,000), the first is forwarded, the second held, the third completes", async () => {
    const { approvalId } = await submittedBatch("1000000.00");
    expect(await apiState(approvalId)).toMatchObject({ required_count: 2 });
    const sentBefore = approvesSent.length;
    expect((await approve("lead1", approvalId)).approval).toMatchObject({ state: "partially_approved" });
    expect((await approve("lead2", approvalId)).policy).toMatchObject({ held: true, approvals: 2 });
    expect((await approve("lead3", approvalId)).approval).toMatchObject({ state: "approved", approved_count: 2 });
    expect(approvesSent.slice(sentBefore).map((s) => s.approver)).toEqual([users.lead1?.id, users.lead3?.id]);
  });

  it("a rule change after submission does not change the batch's stored policy", async () => {
    const { approvalId } = await submittedBatch("100.00");
    const db = await dashboardDb();
    const rule = (await listRules(db)).find((r) => r.name === "NOK by leads");
    if (!rule) throw new Error("rule missing");
    await deleteRule(db, rule.id);
    try {
      const first = await approve("lead1", approvalId);
      expect(first.policy).toMatchObject({ required: 3, held: true });
      expect(await submittedBatch("100.00").then((b) => approve("outsider", b.approvalId))).toMatchObject({
        policy: { required: 1, held: false },
      });
    } finally {
      await createRule(db, { ...toInput(rule), eligible_group_ids: [groupId] }, 1);
    }
  });

  it("a crash after the API counted the forward: the retry under the same key completes, counted once", async () => {
    const { approvalId } = await submittedBatch("100.00");
    await approve("lead1", approvalId);
    await approve("lead2", approvalId);
    const key = randomUUID();
    const sentBefore = approvesSent.length;
    failApproves = "after";
    await expect(approve("lead3", approvalId, key)).rejects.toThrow();
    failApproves = false;
    const tries = approvesSent.length - sentBefore;
    // Every attempt carried the same key; the API counted the approval once and the request left its queue.
    expect(new Set(approvesSent.slice(sentBefore).map((s) => s.key)).size).toBe(1);
    expect(await apiState(approvalId)).toBeNull();
    const rows = await approvalsOf(await dashboardDb(), approvalId);
    expect(rows.find((r) => r.userId === users.lead3?.id)).toMatchObject({ forward: true, forwardedAt: null });
    // The user's retry (same Idempotency-Key) resends the recorded approval; the API replays its answer.
    const retry = await approve("lead3", approvalId, key);
    expect(retry.approval).toMatchObject({ state: "approved", approved_count: 1 });
    const resent = approvesSent.slice(sentBefore + tries);
    expect(resent.map((s) => [s.approver, s.key])).toEqual([[users.lead3?.id, approvesSent[sentBefore]?.key]]);
    const after = await approvalsOf(await dashboardDb(), approvalId);
    expect(after.find((r) => r.userId === users.lead3?.id)?.forwardedAt).not.toBeNull();
  });

  it("a crash before the forward reached the API: the next approver's request sends it, once", async () => {
    const { approvalId } = await submittedBatch("100.00");
    await approve("lead1", approvalId);
    await approve("lead2", approvalId);
    failApproves = "before";
    await expect(approve("lead3", approvalId)).rejects.toThrow();
    failApproves = false;
    expect(await apiState(approvalId)).toMatchObject({ approved_count: 0 });
    const sentBefore = approvesSent.length;
    const next = await approve("lead4", approvalId);
    // lead4's approval is the fourth: held; lead3's recorded approval is what completes the API's count.
    expect(next.policy).toMatchObject({ held: true, approvals: 4 });
    expect(next.approval).toMatchObject({ state: "approved", approved_count: 1 });
    expect(approvesSent.slice(sentBefore).map((s) => s.approver)).toEqual([users.lead3?.id]);
  });
});

function toInput(r: Awaited<ReturnType<typeof listRules>>[number]) {
  return {
    name: r.name,
    company_id: r.company_id,
    currency: r.currency,
    amount_currency: r.amount_currency,
    min_amount: r.min_amount,
    max_amount: r.max_amount,
    risk: null,
    required_approvals: r.required_approvals,
    eligible_roles: r.eligible_roles as ("approver" | "admin" | "treasurer" | "viewer")[],
    eligible_group_ids: r.eligible_group_ids,
  };
}
