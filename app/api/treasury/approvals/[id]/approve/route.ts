import { approvalDecisionRoute } from "@/lib/bff/decision-routes";

/** POST /approvals/{id}/approve — the approver is the signed-in user; four-eyes enforced. */
export const POST = approvalDecisionRoute("approve");
