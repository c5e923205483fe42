import { withUser } from "@/lib/bff/route";
import { UnmatchedViewQuery, listUnmatchedView } from "@/lib/bff/queries/unmatched";

/**
 * GET ?kind=instruction|transaction&age=0-2|3-7|8-30|31+&company_id&q&sort&page — one page of settled instructions
 * or debit transactions without a confirmed match, aged, and whether a manual match is possible.
 */
export const GET = withUser({ permission: "reconciliation.read", company: "none", query: UnmatchedViewQuery }, (ctx) =>
  listUnmatchedView(ctx, ctx.query),
);
