import { CompanyOverride, DecisionBody } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { decideMatch } from "@/lib/bff/queries/reconciliation";

/** POST /reconciliation/matches/{id}/reject (treasurer), with an optional reason. */
export const POST = withUser(
  {
    permission: "reconciliation.write",
    company: "none",
    query: CompanyOverride,
    body: DecisionBody,
    audit: { action: "reconciliation_match.reject", objectType: "reconciliation_match" },
  },
  async (ctx) => {
    const r = await decideMatch(
      ctx,
      ctx.params.id ?? "",
      "reject",
      ctx.body,
      ctx.query.company_id,
      ctx.idempotencyKey ?? "",
    );
    ctx.audit.companyId = r.companyId ?? null;
    // The reason goes into the audit log: the decided tab and the audit view read it from there.
    if (ctx.body?.reason) ctx.audit.details = { reason: ctx.body.reason };
    return r.match ?? { id: ctx.params.id };
  },
);
