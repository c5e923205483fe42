import { withUser } from "@/lib/bff/route";
import { waitingForMeCount } from "@/lib/bff/queries/payment-views";

/**
 * GET /api/treasury/approvals/waiting — `{ waiting }`: how many batches wait for the signed-in user's approval (the
 * navigation's count, docs/users-and-notifications.md#notifications); 0 for a user who may not decide. Cached per
 * user for 15 s, dropped on every submission and decision.
 */
export const GET = withUser({ permission: "approvals.read", company: "none" }, async (ctx) => ({
  waiting: await waitingForMeCount(ctx),
}));
