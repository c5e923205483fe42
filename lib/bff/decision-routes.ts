/**
 * The decision routes of the review queues, one handler per kind of object:
 * approve / reject an approval request, confirm / reject a reconciliation
 * match. Each acts across companies (`company_id` in the query may name the
 * object's company, checked against the user's) and puts the object's
 * company and the reason into the audit log, which the batch detail, the
 * decided tab and the audit view read.
 */
import "server-only";
import { CompanyOverride, DecisionBody } from "./inputs";
import { decideApproval } from "./queries/approvals";
import { decideMatch } from "./queries/reconciliation";
import { IdParams, withUser } from "./route";

/** POST /approvals/{id}/approve|reject: the approver is the signed-in user; four-eyes enforced. */
export function approvalDecisionRoute(decision: "approve" | "reject") {
  return withUser(
    {
      permission: "approvals.decide",
      company: "none",
      params: IdParams,
      query: CompanyOverride,
      body: DecisionBody,
      audit: { action: `approval.${decision}`, objectType: "approval_request" },
    },
    async (ctx) => {
      const r = await decideApproval(ctx, ctx.params.id, decision, ctx.body, ctx.query.company_id);
      ctx.audit.companyId = r.companyId ?? null;
      ctx.audit.details = {
        batch_id: r.approval?.object_id ?? null,
        ...(ctx.body?.reason ? { reason: ctx.body.reason } : {}),
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
