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
import { AUDIT_ACTION } from "../audit-actions";
import { requireStepUp } from "./step-up";
import { RISK_SIGNAL_CODES } from "../payments/risk-signals";
import { CompanyOverride, DecisionBody } from "./inputs";
import { decideApproval } from "./queries/approvals";
import { decideMatch } from "./queries/reconciliation";
import { IdParams, withUser } from "./route";

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
 * POST /approvals/{id}/approve|reject: the approver is the signed-in user;
 * four-eyes enforced; an approval of a batch with high-risk signals needs
 * their acknowledgement (409 naming the missing codes), kept in the audit entry.
 */
export function approvalDecisionRoute(decision: "approve" | "reject") {
  return withUser(
    {
      permission: "approvals.decide",
      company: "none",
      params: IdParams,
      query: CompanyOverride,
      body: decision === "approve" ? ApproveBody : DecisionBody,
      audit: { action: `approval.${decision}`, objectType: "approval_request" },
    },
    async (ctx) => {
      // Passkey step-up (lib/bff/step-up.ts): refused and audited before anything reaches the Treasury API.
      await requireStepUp(ctx, {
        action: "approval.decide",
        subjects: [ctx.params.id],
        refusal: AUDIT_ACTION.approvalRefused,
        objectType: "approval_request",
        companyId: ctx.query.company_id ?? null,
      });
      const r = await decideApproval(ctx, ctx.params.id, decision, ctx.body, ctx.query.company_id);
      ctx.audit.companyId = r.companyId ?? null;
      ctx.audit.details = {
        batch_id: r.approval?.object_id ?? r.batchId ?? null,
        ...(ctx.body?.reason ? { reason: ctx.body.reason } : {}),
        ...(r.acknowledged ? { acknowledged_signals: r.acknowledged, signals: r.signals } : {}),
      };
      return r.approval ?? { id: ctx.params.id };
    },
  );
}

/** POST /reconciliation/matches/{id}/confirm|reject (treasurer); a rejection may carry a reason. */
export function matchDecisionRoute(decision: "confirm" | "reject") {
  return withUser(
    {
      permission: "reconciliation.write",
      company: "none",
      params: IdParams,
      query: CompanyOverride,
      // A confirmation takes no body: whatever the browser sends is not read.
      body: decision === "reject" ? DecisionBody : undefined,
      audit: { action: `reconciliation_match.${decision}`, objectType: "reconciliation_match" },
    },
    async (ctx) => {
      const r = await decideMatch(ctx, ctx.params.id, decision, ctx.body, ctx.query.company_id);
      ctx.audit.companyId = r.companyId ?? null;
      if (ctx.body?.reason) ctx.audit.details = { reason: ctx.body.reason };
      return r.match ?? { id: ctx.params.id };
    },
  );
}
