/** Reconciliation matches (docs/treasury-api.md#reconciliation), spanning the user's companies. */
import "server-only";
import type { z } from "zod";
import type { WriteContext } from "../../treasury-client";
import type { BffContext, WriteScope } from "../context";
import type { DecisionBody, MatchesQuery } from "../inputs";
import { treasury } from "../../server/treasury";
import { crossCompanyCall, visibleTo } from "./cross-company";
import { clientFilters, toBffPage } from "./page";

export async function listMatches(ctx: BffContext, q: z.output<typeof MatchesQuery> = {}) {
  const page = await treasury().listMatches(crossCompanyCall(ctx, q.company_id, "read"), clientFilters(q));
  return toBffPage(page, visibleTo(ctx));
}

/**
 * Confirms or rejects a proposed match; a restricted user acts within the
 * named or selected company. The reviewer (the signed-in user) and the
 * reason go upstream as the API's decision-body extension, as for approvals;
 * the route keeps the reason in the audit log too, which is what the
 * dashboard reads (the spec's confirm / reject describe no body).
 * @throws TreasuryApiError 404 (not visible), 409 (not `proposed`, or already matched elsewhere).
 */
export async function decideMatch(
  ctx: WriteScope,
  id: string,
  decision: "confirm" | "reject",
  body: z.output<typeof DecisionBody>,
  companyId: string | undefined,
) {
  const call: WriteContext = { ...ctx.write, ...crossCompanyCall(ctx, companyId, "write") };
  const upstream = { reviewer: ctx.user.email, ...(body?.reason ? { reason: body.reason } : {}) };
  const match =
    decision === "confirm"
      ? await treasury().confirmMatch(call, id, upstream)
      : await treasury().rejectMatch(call, id, upstream);
  return { match, companyId: match?.company_id ?? call.companyId };
}
