import { CompanyOverride } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { decideMatch } from "@/lib/bff/queries/reconciliation";

/** POST /reconciliation/matches/{id}/confirm (treasurer). */
export const POST = withUser(
  {
    permission: "reconciliation.write",
    company: "none",
    query: CompanyOverride,
    audit: { action: "reconciliation_match.confirm", objectType: "reconciliation_match" },
  },
  async (ctx) => {
    const r = await decideMatch(
      ctx,
      ctx.params.id ?? "",
      "confirm",
      undefined,
      ctx.query.company_id,
      ctx.idempotencyKey ?? "",
    );
    ctx.audit.companyId = r.companyId ?? null;
    return r.match ?? { id: ctx.params.id };
  },
);
