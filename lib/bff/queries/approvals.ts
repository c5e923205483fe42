/**
 * The approval queue and decisions (spec §4 Approvals; DESIGN.md four-eyes):
 * the queue spans the user's companies; the approver sent upstream is the
 * signed-in user's id (the API counts one approver once per request and
 * refuses the batch's initiator, which the dashboard sets to the creating
 * user's id); and the dashboard itself refuses the creator's approval too.
 */
import "server-only";
import type { z } from "zod";
import type { ApprovalRequest } from "../../contract";
import { hasAuditEvent } from "../../db/audit";
import { collectAll, type WriteContext } from "../../treasury-client";
import type { BffContext, WriteScope } from "../context";
import { dashboardDb } from "../../server/db";
import { BffError } from "../errors";
import { pageParams, type ApprovalsQuery, type DecisionBody } from "../inputs";
import { treasury } from "../../server/treasury";
import { crossCompanyCall, visibleTo } from "./cross-company";
import { toBffPage } from "./page";
import { AUDIT_ACTION } from "../../audit-actions";

/** Audit action of batch creation, used for the four-eyes check. */
export const BATCH_CREATE_ACTION = AUDIT_ACTION.batchCreate;

export async function listPendingApprovals(ctx: BffContext, q: z.output<typeof ApprovalsQuery> = {}) {
  const page = await treasury().listPendingApprovals(crossCompanyCall(ctx, q.company_id, "read"), pageParams(q));
  return toBffPage(page, visibleTo(ctx));
}

/** The pending request `id` as this user may see it. @throws BffError 404. */
async function findPending(ctx: BffContext, id: string, companyId: string | undefined): Promise<ApprovalRequest> {
  const all = await collectAll(
    treasury().listPendingApprovals(crossCompanyCall(ctx, companyId, "read"), { pageSize: 1000 }),
    { maxPages: 20 },
  );
  const found = all.find((a) => a.id === id);
  if (!found || !visibleTo(ctx)(found))
    throw new BffError(
      "not_found",
      "This approval request is not waiting for a decision, or it is not visible to you.",
    );
  return found;
}

export interface DecisionResult {
  approval: ApprovalRequest | null;
  companyId: string | undefined;
}

/**
 * Approves or rejects. @throws BffError 404 (not pending / not visible),
 * 403 (four-eyes: the user created the batch).
 */
export async function decideApproval(
  ctx: WriteScope,
  id: string,
  decision: "approve" | "reject",
  body: z.output<typeof DecisionBody>,
  companyId: string | undefined,
): Promise<DecisionResult> {
  const pending = await findPending(ctx, id, companyId);
  if (
    decision === "approve" &&
    (await hasAuditEvent(await dashboardDb(), {
      action: BATCH_CREATE_ACTION,
      objectId: pending.object_id,
      userId: ctx.user.id,
    }))
  ) {
    throw new BffError(
      "permission_denied",
      "You created this payment batch, so another approver must approve it (four-eyes).",
      { reason: "four_eyes" },
    );
  }
  const call: WriteContext = { ...ctx.write, ...crossCompanyCall(ctx, companyId ?? pending.company_id, "write") };
  // The user id, as the batch's initiator (createBatch sets it): the API's four-eyes check compares the two.
  const decisionBody = { approver: ctx.user.id, ...(body?.reason ? { reason: body.reason } : {}) };
  const approval =
    decision === "approve"
      ? await treasury().approve(call, id, decisionBody)
      : await treasury().reject(call, id, decisionBody);
  return { approval, companyId: pending.company_id ?? call.companyId };
}
