import { withUser } from "@/lib/bff/route";
import { listApprovalQueue } from "@/lib/bff/queries/payment-views";

/** GET — the approval queue with each request's batch, creator and approvals so far, in one read. */
export const GET = withUser({ permission: "approvals.read", company: "none" }, (ctx) => listApprovalQueue(ctx));
