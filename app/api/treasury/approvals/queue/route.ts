import { withUser } from "@/lib/bff/route";
import { listApprovalQueue } from "@/lib/bff/queries/payment-views";

/** GET — the approval queue with each request's batch, creator and approvals so far (issue 6 §3). */
export const GET = withUser({ permission: "approvals.read", company: "none" }, (ctx) => listApprovalQueue(ctx));
