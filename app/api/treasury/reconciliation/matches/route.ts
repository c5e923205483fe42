import { MatchesQuery } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { listMatches } from "@/lib/bff/queries/reconciliation";

/** GET /reconciliation/matches — across the user's companies. */
export const GET = withUser({ permission: "reconciliation.read", company: "none", query: MatchesQuery }, (ctx) =>
  listMatches(ctx, ctx.query),
);
