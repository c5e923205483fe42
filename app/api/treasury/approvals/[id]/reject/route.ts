import { CompanyOverride, DecisionBody } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { decideApproval } from "@/lib/bff/queries/approvals";

/** POST /approvals/{id}/reject — the approver is the signed-in user; four-eyes enforced. */
export const POST = withUser(
  { permission: "approvals.decide", company: "none", query: CompanyOverride, body: DecisionBody, audit: { action: "approval.reject", objectType: "approval_request" } },
  async (ctx) => {
    const r = await decideApproval(ctx, ctx.params.id ?? "", "reject", ctx.body, ctx.query.company_id, ctx.idempotencyKey ?? "");
    ctx.audit.companyId = r.companyId ?? null;
    return r.approval ?? { id: ctx.params.id };
  },
);
