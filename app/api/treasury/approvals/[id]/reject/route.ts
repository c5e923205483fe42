import { approvalDecisionRoute } from "@/lib/bff/decision-routes";

/** POST /approvals/{id}/reject — the approver is the signed-in user; four-eyes enforced. */
export const POST = approvalDecisionRoute("reject");
