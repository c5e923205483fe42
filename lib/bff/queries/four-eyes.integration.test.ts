/**
 * Four-eyes across the BFF and the local treasury-api (in-memory PGlite,
 * small demo seed): the dashboard creates batches with `initiator` = the
 * signed-in user's id and decides with `approver` = the user's id; the
 * initiator is kept with the batch's approval policy, so the dashboard refuses
 * the creator's approval even when its audit log has nothing to go on (the API
 * would refuse it too); another user's approval counts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
// The dashboard's own four-eyes check reads its audit log; here it finds nothing, so only the API can refuse.
vi.mock("../../db/audit", () => ({ hasAuditEvent: vi.fn(async () => false) }));
// A real (in-memory) dashboard DB: approvals are recorded there under the batch's approval policy.
vi.mock("../../server/db", async () =>
  (await import("../testing/memory-dashboard-db")).memoryDashboardDbModule({ demoRates: true }),
);
// An approval also computes the batch's risk signals: no counterparties and no users in this test's dashboard.
vi.mock("../../counterparties/counterparties", () => ({ counterpartiesForRisk: vi.fn(async () => []) }));
vi.mock("../../db/users", () => ({ listUsers: vi.fn(async () => []) }));

import { randomUUID } from "node:crypto";
import type { Company } from "@treasury/contract";
import type { DashboardUser } from "../../db/users";
import { collectAll } from "../../treasury-client";
import { startLocalApi, upstreamPath, type LocalApi } from "../testing/local-api";
import type { BffContext, WriteScope } from "../context";
import { decideApproval } from "./approvals";
import { BffError } from "../errors";
import { treasury } from "../../server/treasury";
import { createBatch } from "./payments";

let local: LocalApi;
let company: Company;
const sent: { path: string; body: unknown }[] = [];
/** Every upstream GET's path, in order. */
const reads: string[] = [];
/** When set, the API answers `GET /approvals/{id}` with 405, as an API without that read does. */
let withoutApprovalById = false;
const APPROVAL_BY_ID = /^\/approvals\/[0-9a-f-]{36}$/;

beforeAll(async () => {
  local = await startLocalApi({
    // The payment-run extensions are read from the real API's OpenAPI document, as in production.
    capabilities: "advertised",
    fetch: async (input, init, next) => {
      const path = upstreamPath(input);
      if ((init?.method ?? "GET") === "GET") {
        reads.push(path);
        if (withoutApprovalById && APPROVAL_BY_ID.test(path))
          return new Response(JSON.stringify({ error: "method_not_allowed", message: "Method not allowed" }), {
            status: 405,
            headers: { "content-type": "application/json" },
          });
      }
      if (init?.method === "POST" && typeof init.body === "string" && !path.includes("/auth/")) {
        sent.push({ path, body: JSON.parse(init.body) });
      }
      return next(input, init);
    },
  });
  company = local.company();
}, 120_000);
afterAll(async () => {
  await local?.api.close();
});

function as(id: string, roles: DashboardUser["roles"]): BffContext {
  const user: DashboardUser = { id, email: `${id}@test.local`, name: id, roles, companyIds: null, disabled: false };
  return { user, companies: [company], company, requestId: randomUUID() };
}

/** `ctx` writing with a fresh Idempotency-Key, in `companyId` when the route is company-scoped (as `withUser` does). */
function writing(ctx: BffContext, companyId?: string): WriteScope {
  return {
    ...ctx,
    write: { requestId: ctx.requestId, idempotencyKey: randomUUID(), ...(companyId ? { companyId } : {}) },
  };
}

describe("four-eyes through the BFF", () => {
  it("sends initiator and approver as the user id; the API refuses the creator, counts another approver", async () => {
    const lead = as(randomUUID(), ["treasurer", "approver"]);
    const other = as(randomUUID(), ["approver"]);
    const body = {
      company_id: company.id,
      currency: "NOK",
      // Whatever the browser claims, the initiator is the signed-in user.
      initiator: "someone-else",
      instructions: [
        {
          amount: "100.00",
          currency: "NOK",
          creditor_name: "Fjordkraft AS",
          creditor_iban: "NO9386011117947",
          end_to_end_id: `BFF-FE-${Date.now()}`,
        },
      ],
    };
    const batch = await createBatch(writing(lead, company.id), body);
    expect(batch.initiator).toBe(lead.user.id);
    expect(sent.find((s) => s.path.endsWith("/payments/batches"))?.body).toMatchObject({ initiator: lead.user.id });
    await treasury().submitBatch(writing(lead, company.id).write, batch.id);
    const pending = await collectPending(batch.id);

    const sentBefore = sent.length;
    const own = await decideApproval(writing(lead), pending, "approve", undefined, company.id).catch((e: unknown) => e);
    // The batch's initiator is stored with its approval policy, so the dashboard refuses before anything is sent
    // (an approval it held back would never meet the API's own four-eyes check).
    expect(own).toBeInstanceOf(BffError);
    expect(own).toMatchObject({ status: 403, details: { reason: "four_eyes" } });
    expect(sent.slice(sentBefore).filter((x) => x.path.includes("/approve"))).toEqual([]);

    const readsBefore = reads.length;
    const ok = await decideApproval(writing(other), pending, "approve", { reason: "checked" }, company.id);
    expect(ok.approval).toMatchObject({ state: "approved", approved_count: 1 });
    expect(sent.at(-1)?.body).toEqual({ approver: other.user.id, reason: "checked" });
    // One approve reads the request by id (no scan of the queue) and the batch once.
    const during = reads.slice(readsBefore);
    expect(during.filter((p) => p === `/approvals/${pending}`)).toHaveLength(1);
    expect(during.filter((p) => p.startsWith("/approvals/pending"))).toEqual([]);
    expect(during.filter((p) => p === `/payments/batches/${batch.id}`)).toHaveLength(1);
  });

  it("an API without GET /approvals/{id} (405): the request is found in the pending queue, as before", async () => {
    const lead = as(randomUUID(), ["treasurer", "approver"]);
    const other = as(randomUUID(), ["approver"]);
    const batch = await createBatch(writing(lead, company.id), {
      company_id: company.id,
      currency: "NOK",
      instructions: [
        {
          amount: "200.00",
          currency: "NOK",
          creditor_name: "Fjordkraft AS",
          creditor_iban: "NO9386011117947",
          end_to_end_id: `BFF-FB-${Date.now()}`,
        },
      ],
    });
    await treasury().submitBatch(writing(lead, company.id).write, batch.id);
    const pending = await collectPending(batch.id);
    withoutApprovalById = true;
    try {
      const readsBefore = reads.length;
      const own = await decideApproval(writing(lead), pending, "approve", undefined, company.id).catch((e) => e);
      expect(own).toMatchObject({ status: 403, details: { reason: "four_eyes" } });
      const ok = await decideApproval(writing(other), pending, "approve", undefined, company.id);
      expect(ok.approval).toMatchObject({ state: "approved", approved_count: 1 });
      expect(reads.slice(readsBefore).some((p) => p.startsWith("/approvals/pending"))).toBe(true);
      // Decided: no longer waiting, so a second decision is 404 (found neither by id nor in the queue).
      const again = await decideApproval(writing(other), pending, "approve", undefined, company.id).catch((e) => e);
      expect(again).toMatchObject({ status: 404 });
    } finally {
      withoutApprovalById = false;
    }
  });

  it("a decided or unknown request is 404 when read by id, and nothing is sent", async () => {
    const sentBefore = sent.length;
    const unknown = await decideApproval(
      writing(as(randomUUID(), ["approver"])),
      randomUUID(),
      "reject",
      undefined,
      company.id,
    ).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(BffError);
    expect(unknown).toMatchObject({ status: 404 });
    expect(sent.slice(sentBefore)).toEqual([]);
  });
});

/** The id of the approval request of `batchId`, from the API's queue. */
async function collectPending(batchId: string): Promise<string> {
  const all = await collectAll(local.client.listPendingApprovals({ companyId: company.id }, { pageSize: 1000 }));
  const found = all.find((a) => a.object_id === batchId);
  if (!found) throw new Error("approval request not found");
  return found.id;
}
