import { ApprovalsQuery } from "@/lib/bff/inputs";
import { withUser } from "@/lib/bff/route";
import { listPendingApprovals } from "@/lib/bff/queries/approvals";

/** GET /approvals/pending — the queue across the user's companies (approvers). */
export const GET = withUser({ permission: "approvals.read", company: "none", query: ApprovalsQuery }, (ctx) =>
  listPendingApprovals(ctx, ctx.query),
);
