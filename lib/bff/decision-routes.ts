/**
 * The decision routes of the review queues, one handler per kind of object:
 * approve / reject an approval request, confirm / reject a reconciliation
 * match. Each acts across companies (`company_id` in the query may name the
 * object's company, checked against the user's) and puts the object's
 * company and the reason into the audit log, which the batch detail, the
 * decided tab and the audit view read.
 */
import "server-only";
import { z } from "zod";
import { AUDIT_ACTION, type AuditAction } from "../audit-actions";
import type { Permission } from "../auth/roles";
import { requireStepUp } from "./step-up";
import { RISK_SIGNAL_CODES } from "../payments/risk-signals";
import { CompanyOverride, DecisionBody } from "./inputs";
import { decideApproval } from "./queries/approvals";
import { batchCreator, batchReferenceInAudit, forgetWaitingCounts } from "./queries/payment-views";
import { batchDecided } from "../notify/events";
import { decideMatch } from "./queries/reconciliation";
import { JsonObject, changeCounterparty } from "./queries/counterparties";
import { declareRoute, IdParams } from "./route";
import type { Endpoint } from "./endpoint";
import type { WriteScope } from "./context";
import { BffError } from "./errors";
import { auditRefusal } from "../db/audit";
import { dashboardDb } from "../server/db";
import { logger } from "../server/log";
import { TreasuryApiError } from "../treasury-client";

/**
 * Body of an approval: an optional reason and the risk signals the approver
 * acknowledges (codes; every high-severity signal of the batch must be named).
 */
export const ApproveBody = z
  .object({
    reason: z.string().trim().max(500).optional(),
    acknowledged_signals: z
      .array(z.enum(RISK_SIGNAL_CODES, { message: `must be one of ${RISK_SIGNAL_CODES.join(", ")}` }))
      .max(RISK_SIGNAL_CODES.length)
      .optional(),
  })
  .strict()
  .optional();

/**
 * The route options of a decision on queue item `{id}` (a UUID, else 400) with `permission`: across the user's
 * companies (`company: "none"`, the query's `company_id` may name the item's company), the decision's `body`, audited
 * as `audit`.
 */
function decisionOptions<B extends z.ZodType | undefined>(
  permission: Permission,
  body: B,
  audit: { action: AuditAction; objectType: string },
) {
  return { permission, company: "none" as const, params: IdParams, query: CompanyOverride, body, audit };
}

/**
 * POST /approvals/{id}/approve|reject: the approver is the signed-in user;
 * four-eyes enforced; an approval of a batch with high-risk signals needs
 * their acknowledgement (409 naming the missing codes), kept in the audit entry;
 * an approval follows the batch's approval policy (eligibility, approvals held
 * by the dashboard until the policy's count is met; the answer carries `policy`).
 * Refusals (four-eyes, not eligible, a second approval) are audited with their reason. Declared against `endpoint`
 * (the payments area's `approve` / `reject`, docs/architecture.md#the-bff-declared-per-area).
 */
export function approvalDecisionRoute<E extends Endpoint>(endpoint: E, decision: "approve" | "reject") {
  const body = decision === "approve" ? ApproveBody : DecisionBody;
  const audit = { action: `approval.${decision}` as const, objectType: "approval_request" };
  return declareRoute(endpoint, decisionOptions("approvals.decide", body, audit), async (ctx) => {
    let r: Awaited<ReturnType<typeof decideApproval>>;
    try {
      // Passkey step-up (lib/bff/step-up.ts): refused and audited before anything reaches the Treasury API.
      await requireStepUp(ctx, {
        action: "approval.decide",
        subjects: [ctx.params.id],
        refusal: AUDIT_ACTION.approvalRefused,
        objectType: "approval_request",
        companyId: ctx.query.company_id ?? null,
      });
      r = await decideApproval(ctx, ctx.params.id, decision, ctx.body, ctx.query.company_id);
    } catch (err) {
      await auditApprovalRefusal(ctx, decision, err);
      throw err;
    }
    ctx.audit.companyId = r.companyId ?? null;
    // The decider's count (and, once the batch leaves the queue, everyone's) changes now.
    forgetWaitingCounts();
    const batchId = r.approval?.object_id ?? r.batchId ?? null;
    // The creator rejecting their own batch withdraws it: the audit entry says so.
    const withdrawn =
      decision === "reject" && batchId !== null && (await batchCreator(batchId).catch(() => null)) === ctx.user.email;
    // The log names the decision by the batch's reference, as it names the batch's create and edit entries.
    const reference = batchId === null ? null : await batchReferenceInAudit(batchId).catch(() => null);
    ctx.audit.details = {
      batch_id: batchId,
      ...(reference ? { reference } : {}),
      ...(withdrawn ? { withdrawn: true } : {}),
      ...(ctx.body?.reason ? { reason: ctx.body.reason } : {}),
      ...(r.acknowledged ? { acknowledged_signals: r.acknowledged, signals: r.signals } : {}),
      ...(r.policy ? { policy: r.policy } : {}),
    };
    const approval = r.approval ?? { id: ctx.params.id };
    // The creator is told of the outcome: a rejection, or the approval that completed the batch.
    const outcome = decision === "reject" ? "rejected" : r.approval?.state === "approved" ? "approved" : null;
    if (outcome && batchId && !withdrawn)
      await batchDecided(
        outcome,
        batchId,
        reference,
        await batchCreator(batchId).catch(() => null),
        ctx.user.id,
        ctx.body?.reason,
        ctx.request.nextUrl.origin,
      );
    return r.policy ? { ...approval, policy: r.policy } : approval;
  });
}

/** Reasons of refused decisions that go into the audit log (four-eyes, policy, eligibility, a second approval). */
const AUDITED_REFUSALS = new Set(["four_eyes", "not_eligible", "already_approved", "already_decided"]);

/**
 * Appends the refusal of an approve / reject to the audit log when `err` is one of the audited refusals (from the
 * dashboard's checks or the API's four-eyes rule), with the reason and message. Other errors are not refusals
 * (validation, not found, upstream failures) and are not logged here.
 */
async function auditApprovalRefusal(
  ctx: WriteScope & { params: { id: string }; query: { company_id?: string } },
  decision: "approve" | "reject",
  err: unknown,
): Promise<void> {
  const fromDashboard = err instanceof BffError;
  const fromApi = err instanceof TreasuryApiError;
  if (!fromDashboard && !fromApi) return;
  const reason = typeof err.details.reason === "string" ? err.details.reason : "";
  if (!AUDITED_REFUSALS.has(reason)) return;
  try {
    await auditRefusal(await dashboardDb(), {
      userId: ctx.user.id,
      userEmail: ctx.user.email,
      action: `approval.${decision}`,
      objectType: "approval_request",
      objectId: ctx.params.id,
      companyId: ctx.query.company_id ?? null,
      reason,
      message: err.message,
      requestId: ctx.requestId,
      details: { source: fromApi ? "treasury_api" : "dashboard" },
    });
  } catch (auditErr) {
    logger.error({ err: auditErr, requestId: ctx.requestId }, "refusal audit failed");
  }
}

/**
 * POST /reconciliation/matches/{id}/confirm|reject (treasurer); a rejection may carry a reason. Declared against
 * `endpoint` (the reconciliation area's `confirm` / `reject`, docs/architecture.md#the-bff-declared-per-area).
 */
export function matchDecisionRoute<E extends Endpoint>(endpoint: E, decision: "confirm" | "reject") {
  // A confirmation takes no body: whatever the browser sends is not read.
  const body = decision === "reject" ? DecisionBody : undefined;
  const audit = { action: `reconciliation_match.${decision}` as const, objectType: "reconciliation_match" };
  return declareRoute(endpoint, decisionOptions("reconciliation.write", body, audit), async (ctx) => {
    const r = await decideMatch(ctx, ctx.params.id, decision, ctx.body, ctx.query.company_id);
    ctx.audit.companyId = r.companyId ?? null;
    if (ctx.body?.reason) ctx.audit.details = { reason: ctx.body.reason };
    return r.match ?? { id: ctx.params.id };
  });
}

/**
 * POST /api/counterparties/{id}/verify|reject — `reason`, `expectedVersion`. Only a second person: the maker (creator
 * of a never-verified counterparty, or the last one to change its bank details) gets 403 with `details.reason:
 * "maker_checker"`, also when calling the route directly, and the refusal is audited. Needs a passkey step-up for
 * this counterparty (403 `step_up_required`, audited; lib/bff/step-up.ts). 409 on a stale `expectedVersion` or a
 * state that does not allow it; the audit entry is written with the change (same transaction). Declared against
 * `endpoint` (the counterparties area's `verify` / `reject`, docs/architecture.md#the-bff-declared-per-area).
 */
export function counterpartyDecisionRoute<E extends Endpoint>(endpoint: E, decision: "verify" | "reject") {
  return declareRoute(
    endpoint,
    { permission: "counterparties.verify", params: IdParams, body: JsonObject },
    async (ctx) => {
      // Passkey step-up (lib/bff/step-up.ts), refused and audited before the decision.
      await requireStepUp(ctx, {
        action: "counterparty.verify",
        subjects: [ctx.params.id],
        refusal: AUDIT_ACTION.counterpartyRefused,
        objectType: "counterparty",
        companyId: ctx.company?.id ?? null,
      });
      return changeCounterparty(ctx, ctx.params.id, decision, ctx.body, {
        requestId: ctx.requestId,
        idempotencyKey: ctx.write.idempotencyKey,
      });
    },
  );
}
