import { withUser } from "@/lib/bff/route";
import { MatchReviewQuery, listMatchReview } from "@/lib/bff/queries/match-views";

/** GET — one page of the reconciliation review with instruction and transaction per match. */
export const GET = withUser({ permission: "reconciliation.read", company: "none", query: MatchReviewQuery }, (ctx) =>
  listMatchReview(ctx, ctx.query),
);
