import { CompanyOverride, DecisionBody } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { decideApproval } from "@/lib/bff/queries/approvals";

/** POST /approvals/{id}/approve — the approver is the signed-in user; four-eyes enforced. */
export const POST = withUser(
  {
    permission: "approvals.decide",
    company: "none",
    query: CompanyOverride,
    body: DecisionBody,
    audit: { action: "approval.approve", objectType: "approval_request" },
  },
  async (ctx) => {
    const r = await decideApproval(
      ctx,
      ctx.params.id ?? "",
      "approve",
      ctx.body,
      ctx.query.company_id,
      ctx.idempotencyKey ?? "",
    );
    ctx.audit.companyId = r.companyId ?? null;
    // The batch and the reason go into the audit log, so the batch detail can show who decided and why.
    ctx.audit.details = {
      batch_id: r.approval?.object_id ?? null,
      ...(ctx.body?.reason ? { reason: ctx.body.reason } : {}),
    };
    return r.approval ?? { id: ctx.params.id };
  },
);
