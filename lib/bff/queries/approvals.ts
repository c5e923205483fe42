/**
 * The approval queue and decisions (docs/treasury-api.md#approvals; docs/architecture.md#four-eyes):
 * the queue spans the user's companies; the approver sent upstream is the
 * signed-in user's id (the API counts one approver once per request and
 * refuses the batch's initiator, which the dashboard sets to the creating
 * user's id); and the dashboard's policy check refuses the creator's approval too
 * (`fourEyesRefusal`, lib/policies/store.ts), from the batch read once per approval.
 */
import "server-only";
import type { z } from "zod";
import type { ApprovalRequest, PaymentBatch } from "@treasury/contract";
import { collectAll, type WriteContext } from "../../treasury-client";
import type { BffContext, WriteScope } from "../context";
import { dashboardDb } from "../../server/db";
import { BffError } from "../errors";
import { pageParams, type ApprovalsQuery, type DecisionBody } from "../inputs";
import { treasury } from "../../server/treasury";
import { crossCompanyCall, visibleTo } from "./cross-company";
import { toBffPage } from "./page";
import { AUDIT_ACTION } from "../../audit-actions";
import type { RiskSignalCode } from "../../payments/risk-signals";
import { batchRisk, freshBatch, missingAcknowledgements } from "./risk";
import { policyOfBatch } from "./batch-policy";
import {
  approvalsOf,
  dropApproval,
  fourEyesRefusal,
  ineligibility,
  markForwarded,
  recordApproval,
  unforwarded,
  type BatchPolicy,
} from "../../policies/store";
import { TreasuryApiError } from "../../treasury-client";

/** Audit action of batch creation, used for the four-eyes check. */
export const BATCH_CREATE_ACTION = AUDIT_ACTION.batchCreate;

export async function listPendingApprovals(ctx: BffContext, q: z.output<typeof ApprovalsQuery> = {}) {
  const page = await treasury().listPendingApprovals(crossCompanyCall(ctx, q.company_id, "read"), pageParams(q));
  return toBffPage(page, visibleTo(ctx));
}

/** The Treasury API has no `GET /approvals/{id}` (an older or remote API): 404 or 405 on that path. */
function lacksApprovalById(err: unknown): boolean {
  return err instanceof TreasuryApiError && (err.status === 404 || err.status === 405);
}

/**
 * The approval request `id`, read by id past the upstream cache (`GET /approvals/{id}`); where the API lacks that
 * path (404 / 405), found by scanning the pending queue as before (at most 20 pages of 1,000).
 * @returns the request, or null when the API does not know it as pending
 */
async function readApproval(ctx: BffContext, id: string, companyId: string | undefined) {
  const call = { ...crossCompanyCall(ctx, companyId, "read"), cache: "no-store" as const };
  try {
    return await treasury().getApproval(call, id);
  } catch (err) {
    if (!lacksApprovalById(err)) throw err;
  }
  const all = await collectAll(treasury().listPendingApprovals(call, { pageSize: 1000 }), { maxPages: 20 });
  return all.find((a) => a.id === id) ?? null;
}

/** The pending request `id` as this user may see it. @throws BffError 404. */
async function findPending(ctx: BffContext, id: string, companyId: string | undefined): Promise<ApprovalRequest> {
  const found = await readApproval(ctx, id, companyId);
  if (!found || !OPEN_STATES.has(found.state) || !visibleTo(ctx)(found))
    throw new BffError(
      "not_found",
      "This approval request is not waiting for a decision, or it is not visible to you.",
    );
  return found;
}

/** States of a request still waiting for a decision (the API's pending queue lists these). */
const OPEN_STATES = new Set<ApprovalRequest["state"]>(["pending", "partially_approved"]);

export interface DecisionResult {
  approval: ApprovalRequest | null;
  companyId: string | undefined;
  batchId?: string;
  /** On an approval: the signal codes the approver acknowledged (every high one of the batch). */
  acknowledged?: RiskSignalCode[];
  /** On an approval: the codes of every signal the batch carried when it was approved. */
  signals?: RiskSignalCode[];
  /**
   * On an approval: the batch's policy and the dashboard's count after this approval; `held`: kept in the
   * dashboard until the policy's count is met (not sent to the API yet).
   */
  policy?: { explanation: string; approvals: number; required: number; held: boolean };
}

/** The Treasury API answered that this approver already decided: the forward had arrived before. */
function alreadyDecidedUpstream(err: unknown): boolean {
  return err instanceof TreasuryApiError && err.status === 409 && err.details.reason === "already_decided";
}

/**
 * Sends every approval marked for forwarding that is not confirmed sent, oldest first, each under the
 * Idempotency-Key and body recorded with it: a retry after a crash (by the same user, or the next approver's
 * request) repeats the very same request, which the API answers from its idempotency store, so nothing is
 * counted twice. @returns the API's last answer, or null when nothing was sent.
 */
async function forwardRecorded(
  call: WriteContext,
  approvalId: string,
  userId: string,
): Promise<ApprovalRequest | null> {
  const db = await dashboardDb();
  let last: ApprovalRequest | null = null;
  for (const row of await unforwarded(db, approvalId)) {
    try {
      last = await treasury().approve({ ...call, idempotencyKey: row.upstreamKey }, approvalId, row.body);
    } catch (err) {
      if (!alreadyDecidedUpstream(err)) {
        // Refused by the API (four-eyes, a decided request, bad input): it never counted, so it is not kept to be
        // sent again. A failure to reach the API keeps it, for the retry.
        const refused = err instanceof TreasuryApiError && err.status >= 400 && err.status < 500 && err.status !== 429;
        if (refused) await dropApproval(db, approvalId, row.userId);
        if (!refused || row.userId === userId) throw err;
        continue;
      }
    }
    await markForwarded(db, approvalId, row.userId);
  }
  return last;
}

/**
 * A retried approval whose request has left the API's queue: when this user's approval was recorded under the same
 * Idempotency-Key and marked for forwarding but not confirmed sent (the connection dropped after the API counted
 * it), it is sent again under that key: the API replays its answer and the dashboard marks it sent.
 * @returns the result, or null when there is nothing of this user's to resume
 */
async function resumeForward(
  ctx: WriteScope,
  id: string,
  companyId: string | undefined,
): Promise<DecisionResult | null> {
  const db = await dashboardDb();
  const mine = (await unforwarded(db, id)).find(
    (r) => r.userId === ctx.user.id && r.upstreamKey === ctx.write.idempotencyKey,
  );
  if (!mine) return null;
  const call: WriteContext = { ...ctx.write, ...crossCompanyCall(ctx, companyId, "write") };
  const approval = await forwardRecorded(call, id, ctx.user.id);
  return { approval, companyId: call.companyId, batchId: mine.batchId };
}

/**
 * The policy part of an approval (after the four-eyes check of `decideApproval`): the approver must be eligible under the batch's stored policy; the approval is
 * recorded in the dashboard and forwarded only when it does not complete the API's count early (see
 * lib/policies/store.ts `forwardDecision`). @throws BffError 403 `not_eligible`, 409 `already_approved`.
 */
async function approveUnderPolicy(
  ctx: WriteScope,
  pending: ApprovalRequest,
  policy: BatchPolicy,
  call: WriteContext,
  body: { approver: string; reason?: string },
): Promise<{ approval: ApprovalRequest; policy: NonNullable<DecisionResult["policy"]> }> {
  const why = ineligibility(policy, ctx.user);
  if (why) throw new BffError("permission_denied", why, { reason: "not_eligible", policy: policy.explanation });
  const db = await dashboardDb();
  const apiRequired = pending.required_count;
  const required = Math.max(policy.requiredCount, apiRequired);
  const recorded = await recordApproval(db, {
    approvalId: pending.id,
    batchId: pending.object_id,
    user: ctx.user,
    upstreamKey: call.idempotencyKey,
    body,
    apiRequired,
    policyRequired: required,
    external: Math.max(0, pending.approved_count - (await approvalsOf(db, pending.id)).filter((r) => r.forward).length),
  });
  if (!recorded.row)
    throw new BffError(
      "conflict",
      "You have already approved this batch; another approver must give the next approval.",
      {
        reason: "already_approved",
      },
    );
  const answer = await forwardRecorded(call, pending.id, ctx.user.id);
  const approvals = (await approvalsOf(db, pending.id)).length;
  return {
    approval: answer ?? pending,
    policy: { explanation: policy.explanation, approvals, required, held: !recorded.row.forward },
  };
}

/** An approve / reject body: the reason, and on an approval the acknowledged risk signal codes. */
export type ApprovalDecisionInput = z.output<typeof DecisionBody> & { acknowledged_signals?: RiskSignalCode[] };

/**
 * Approves or rejects. An approval recomputes the batch's risk signals and
 * needs every high-severity one acknowledged in `body.acknowledged_signals`.
 * @throws BffError 404 (not pending / not visible), 403 (four-eyes: the user
 * created the batch), 409 `conflict` with `details.reason =
 * "acknowledgement_required"` and `details.missing` (the codes not acknowledged).
 */
export async function decideApproval(
  ctx: WriteScope,
  id: string,
  decision: "approve" | "reject",
  body: ApprovalDecisionInput | undefined,
  companyId: string | undefined,
): Promise<DecisionResult> {
  let pending: ApprovalRequest;
  try {
    pending = await findPending(ctx, id, companyId);
  } catch (err) {
    const resumed = decision === "approve" ? await resumeForward(ctx, id, companyId) : null;
    if (resumed) return resumed;
    throw err;
  }
  let acknowledged: RiskSignalCode[] | undefined;
  let signals: RiskSignalCode[] | undefined;
  let batch: PaymentBatch | undefined;
  if (decision === "approve") {
    const riskCompanyId = pending.company_id ?? companyId ?? ctx.company?.id;
    // The one read of the batch in this request: four-eyes, the risk signals and the policy all use it.
    batch = await freshBatch(ctx, pending.object_id, riskCompanyId);
    const fourEyes = fourEyesRefusal(batch.initiator, ctx.user);
    if (fourEyes) throw new BffError("permission_denied", fourEyes, { reason: "four_eyes" });
    const risk = await batchRisk(ctx, pending.object_id, riskCompanyId, { fresh: true, batch });
    const missing = missingAcknowledgements(risk, body?.acknowledged_signals);
    if (missing.length)
      throw new BffError(
        "conflict",
        `This batch carries high-risk signals; acknowledge ` +
          `${missing.map((c) => c.replaceAll("_", " ")).join(", ")} to approve it.`,
        {
          reason: "acknowledgement_required",
          missing,
          errors: { acknowledged_signals: [`must include ${missing.join(", ")}`] },
        },
      );
    acknowledged = [...new Set(body?.acknowledged_signals ?? [])];
    signals = [...new Set(risk.signals.map((s) => s.code))];
  }
  const call: WriteContext = { ...ctx.write, ...crossCompanyCall(ctx, companyId ?? pending.company_id, "write") };
  // The user id, as the batch's initiator (createBatch sets it): the API's four-eyes check compares the two.
  const decisionBody = { approver: ctx.user.id, ...(body?.reason ? { reason: body.reason } : {}) };
  const base = {
    companyId: pending.company_id ?? call.companyId,
    batchId: pending.object_id,
    ...(acknowledged ? { acknowledged, signals } : {}),
  };
  // A rejection needs no policy: anyone who may decide can stop a batch at any time.
  if (decision === "reject") return { ...base, approval: await treasury().reject(call, id, decisionBody) };
  const batchCompany = pending.company_id ?? call.companyId;
  if (!batchCompany) throw new BffError("not_found", "The approval request names no company.");
  const policy = await policyOfBatch(
    ctx,
    pending.object_id,
    batchCompany,
    batch && signals ? { batch, signals } : undefined,
  );
  const r = await approveUnderPolicy(ctx, pending, policy, call, decisionBody);
  return { ...base, approval: r.approval, policy: r.policy };
}
