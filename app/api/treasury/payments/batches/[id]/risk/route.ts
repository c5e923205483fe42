import { CompanyOverride } from "@/lib/bff/inputs";
import { IdParams, withUser } from "@/lib/bff/route";
import { batchRisk } from "@/lib/bff/queries/risk";

/**
 * GET — the batch's risk signals with their evidence, its debtor account and available balance.
 * `company_id` may name the batch's company (an approver's queue spans companies); default: the selected one.
 */
export const GET = withUser(
  { permission: "payments.read", company: "none", params: IdParams, query: CompanyOverride },
  (ctx) => batchRisk(ctx, ctx.params.id, ctx.query.company_id),
);
