import { withUser } from "@/lib/bff/route";
import { CandidatesQuery, listCandidates } from "@/lib/bff/queries/unmatched";

/**
 * GET ?for_kind&company_id&currency&amount&date&q — the unmatched counterparts of one item (the other kind, same
 * company and currency, near in amount and date or found by the search), closest first (treasurer).
 */
export const GET = withUser({ permission: "reconciliation.write", company: "none", query: CandidatesQuery }, (ctx) =>
  listCandidates(ctx, ctx.query),
);
